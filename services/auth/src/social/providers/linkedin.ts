import { z } from "zod";
import { stringOrNull, truthy, type ProviderDefinition } from "./types.js";

/** LinkedIn's OpenID Connect user info. */
const linkedinUser = z.looseObject({ sub: z.string(), name: z.string().optional(), email: z.string().optional(), email_verified: z.unknown().optional(), picture: z.string().optional() });

export const linkedin: ProviderDefinition = {
  id: "linkedin",
  name: "LinkedIn",
  endpoints: () => ({
    authorization: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    userInfo: "https://api.linkedin.com/v2/userinfo",
  }),
  scopes: ["profile", "email", "openid"],
  pkce: false,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = linkedinUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    return { id: user.sub, email: stringOrNull(user.email), emailVerified: truthy(user.email_verified), name: user.name ?? "", image: stringOrNull(user.picture) };
  },
};
