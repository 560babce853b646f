import { z } from "zod";
import { placeholderEmail, stringOrNull, type ProviderDefinition } from "./types.js";

const xUser = z.object({ data: z.looseObject({ id: z.string(), name: z.string(), username: z.string().optional(), profile_image_url: z.string().optional() }) });
const xEmail = z.object({ data: z.looseObject({ confirmed_email: z.string().optional() }) });

export const twitter: ProviderDefinition = {
  id: "twitter",
  name: "X (Twitter)",
  endpoints: () => ({
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    userInfo: "https://api.x.com/2/users/me",
  }),
  scopes: ["users.read", "tweet.read", "offline.access", "users.email"],
  pkce: true,
  clientAuthentication: "basic",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const me = endpoints.userInfo ?? "";
    const user = xUser.parse(await fetchJson(`${me}?user.fields=profile_image_url`)).data;
    // The address comes only with the users.email scope, in a call of its own; without it the person has a placeholder.
    const email = xEmail.safeParse(await fetchJson(`${me}?user.fields=confirmed_email`).catch(() => null));
    const confirmed = email.success ? stringOrNull(email.data.data.confirmed_email) : null;
    return {
      id: user.id,
      email: confirmed ?? placeholderEmail(user.id, "twitter"),
      emailVerified: confirmed !== null,
      name: user.name,
      image: stringOrNull(user.profile_image_url),
    };
  },
};
