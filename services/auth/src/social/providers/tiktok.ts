import { z } from "zod";
import { placeholderEmail, stringOrNull, type ProviderDefinition } from "./types.js";

const tiktokUser = z.object({
  data: z.object({
    user: z.looseObject({ open_id: z.string(), display_name: z.string().optional(), username: z.string().optional(), avatar_large_url: z.string().optional(), email: z.string().optional() }),
  }),
});

/** TikTok calls the client id a client key and wants it under that name. */
export const tiktok: ProviderDefinition = {
  id: "tiktok",
  name: "TikTok",
  endpoints: () => ({
    authorization: "https://www.tiktok.com/v2/auth/authorize/",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    userInfo: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_large_url,display_name,username",
  }),
  scopes: ["user.info.profile"],
  scopeSeparator: ",",
  pkce: false,
  clientAuthentication: "client_key",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const { user } = tiktokUser.parse(await fetchJson(endpoints.userInfo ?? "")).data;
    // TikTok shares no address with ordinary apps.
    return {
      id: user.open_id,
      email: stringOrNull(user.email) ?? placeholderEmail(user.open_id, "tiktok"),
      emailVerified: false,
      name: user.display_name || user.username || "",
      image: stringOrNull(user.avatar_large_url),
    };
  },
};
