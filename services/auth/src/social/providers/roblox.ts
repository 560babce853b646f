import { z } from "zod";
import { placeholderEmail, stringOrNull, type ProviderDefinition } from "./types.js";

const robloxUser = z.looseObject({ sub: z.string(), nickname: z.string().optional(), preferred_username: z.string().optional(), picture: z.string().optional() });

export const roblox: ProviderDefinition = {
  id: "roblox",
  name: "Roblox",
  endpoints: () => ({
    authorization: "https://apis.roblox.com/oauth/v1/authorize",
    token: "https://apis.roblox.com/oauth/v1/token",
    userInfo: "https://apis.roblox.com/oauth/v1/userinfo",
  }),
  scopes: ["openid", "profile"],
  pkce: false,
  clientAuthentication: "post",
  authorizationParams: { prompt: "select_account consent" },
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = robloxUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    // Roblox has no e-mail scope for third-party apps.
    return {
      id: user.sub,
      email: placeholderEmail(user.sub, "roblox"),
      emailVerified: false,
      name: user.nickname || user.preferred_username || "",
      image: stringOrNull(user.picture),
    };
  },
};
