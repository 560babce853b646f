import { z } from "zod";
import { fromClaims, stringOrNull, truthy, type ProviderDefinition } from "./types.js";

const twitchClaims = z.looseObject({
  sub: z.string(),
  preferred_username: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.unknown().optional(),
  picture: z.string().optional(),
});

export const twitch: ProviderDefinition = {
  id: "twitch",
  name: "Twitch",
  endpoints: () => ({
    authorization: "https://id.twitch.tv/oauth2/authorize",
    token: "https://id.twitch.tv/oauth2/token",
    jwks: "https://id.twitch.tv/oauth2/keys",
  }),
  scopes: ["user:read:email", "openid"],
  pkce: false,
  clientAuthentication: "post",
  // Twitch puts these in the ID token only when asked for them.
  authorizationParams: {
    claims: JSON.stringify({ id_token: { email: null, email_verified: null, preferred_username: null, picture: null } }),
  },
  idToken: { issuer: "https://id.twitch.tv/oauth2" },
  refreshable: true,
  profile: fromClaims(twitchClaims, (person) => ({
    id: person.sub,
    email: stringOrNull(person.email),
    emailVerified: truthy(person.email_verified),
    name: person.preferred_username ?? "",
    image: stringOrNull(person.picture),
  })),
};
