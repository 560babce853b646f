import { z } from "zod";
import { fromClaims, stringOrNull, truthy, type ProviderDefinition } from "./types.js";

const appleClaims = z.looseObject({ sub: z.string(), email: z.string().optional(), email_verified: z.unknown().optional(), name: z.string().optional() });

/** Apple tells the person's name once, on their first sign-in, in a `user` form field beside the code. */
const appleUser = z.object({ name: z.object({ firstName: z.string().optional(), lastName: z.string().optional() }).optional() });

function nameFrom(user: string | null): string | null {
  if (!user) return null;
  try {
    const parsed = appleUser.safeParse(JSON.parse(user));
    const name = parsed.success ? `${parsed.data.name?.firstName ?? ""} ${parsed.data.name?.lastName ?? ""}`.trim() : "";
    return name || null;
  } catch {
    return null;
  }
}

export const apple: ProviderDefinition = {
  id: "apple",
  name: "Apple",
  endpoints: () => ({
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    jwks: "https://appleid.apple.com/auth/keys",
  }),
  scopes: ["email", "name"],
  pkce: true,
  clientAuthentication: "post",
  // With the name or e-mail scope, Apple posts the answer back (form_post) rather than redirecting.
  authorizationParams: { response_mode: "form_post" },
  idToken: { issuer: "https://appleid.apple.com", nonceMayBeHashed: true, maxAge: "1h" },
  refreshable: true,
  profile: fromClaims(appleClaims, (person, { appleUser: user }) => ({
    id: person.sub,
    email: stringOrNull(person.email),
    emailVerified: truthy(person.email_verified),
    name: nameFrom(user) ?? person.name ?? "",
    image: null,
  })),
};
