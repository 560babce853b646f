import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const kickUsers = z.object({
  data: z.array(z.looseObject({ user_id: z.union([z.number(), z.string()]), name: z.string(), email: z.string().optional(), profile_picture: z.string().optional() })).min(1),
});

export const kick: ProviderDefinition = {
  id: "kick",
  name: "Kick",
  endpoints: () => ({
    authorization: "https://id.kick.com/oauth/authorize",
    token: "https://id.kick.com/oauth/token",
    userInfo: "https://api.kick.com/public/v1/users",
  }),
  scopes: ["user:read"],
  pkce: true,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const [user] = kickUsers.parse(await fetchJson(endpoints.userInfo ?? "")).data;
    if (!user) return null;
    return { id: String(user.user_id), email: stringOrNull(user.email), emailVerified: false, name: user.name, image: stringOrNull(user.profile_picture) };
  },
};
