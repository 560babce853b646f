import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const GRAPH = "https://graph.facebook.com/v24.0";

const graphUser = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  email: z.string().optional(),
  picture: z.object({ data: z.object({ url: z.string() }) }).optional(),
});
/** Limited Login's ID token. */
const limitedLoginClaims = z.looseObject({ sub: z.string(), name: z.string().optional(), email: z.string().optional(), picture: z.string().optional() });

export const facebook: ProviderDefinition = {
  id: "facebook",
  name: "Facebook",
  endpoints: () => ({
    authorization: "https://www.facebook.com/v24.0/dialog/oauth",
    token: `${GRAPH}/oauth/access_token`,
    userInfo: `${GRAPH}/me?fields=id,name,email,picture`,
    jwks: "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
  }),
  scopes: ["email", "public_profile"],
  pkce: false,
  clientAuthentication: "post",
  idToken: { issuer: "https://www.facebook.com" },
  // Facebook trades a token for a long-lived one instead of a refresh_token grant.
  refreshable: false,
  async profile({ fetchJson, endpoints, claims }) {
    // Facebook never says it checked an address, so none counts as verified.
    if (claims) {
      const person = limitedLoginClaims.safeParse(claims);
      if (!person.success) return null;
      return { id: person.data.sub, email: stringOrNull(person.data.email), emailVerified: false, name: person.data.name ?? "", image: stringOrNull(person.data.picture) };
    }
    const user = graphUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    return { id: user.id, email: stringOrNull(user.email), emailVerified: false, name: user.name ?? "", image: user.picture?.data.url ?? null };
  },
};
