import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";

/** A social sign-in provider the server has configured (Tollgate's own endpoint). */
export interface SocialProvider {
  id: string;
  name: string;
}

export const authKeys = {
  /** The signed-in person's session (api/session.ts), refreshed by better-auth's client after whatever it changes. */
  session: ["session"] as const,
  socialProviders: ["social-providers"] as const,
};

export const socialProvidersQuery = queryOptions({
  queryKey: authKeys.socialProviders,
  queryFn: () => request<{ providers: SocialProvider[] }>("/api/auth/social-providers"),
  select: (answer) => answer.providers,
  staleTime: 5 * 60_000,
});
