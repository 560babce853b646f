import { z } from "zod";
import { fromClaims, stringOrNull, truthy, type ProviderDefinition } from "./types.js";

/** The claims Google's ID token carries about the person. */
const googleClaims = z.looseObject({
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.unknown().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

export const google: ProviderDefinition = {
  id: "google",
  name: "Google",
  endpoints: () => ({
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    jwks: "https://www.googleapis.com/oauth2/v3/certs",
  }),
  scopes: ["email", "profile", "openid"],
  pkce: true,
  clientAuthentication: "post",
  authorizationParams: { include_granted_scopes: "true" },
  idToken: { issuer: ["https://accounts.google.com", "accounts.google.com"], maxAge: "1h" },
  refreshable: true,
  profile: fromClaims(googleClaims, (person) => ({
    id: person.sub,
    email: stringOrNull(person.email),
    emailVerified: truthy(person.email_verified),
    name: person.name ?? "",
    image: stringOrNull(person.picture),
  })),
};
