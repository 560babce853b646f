import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const vkUser = z.object({
  user: z.looseObject({
    user_id: z.union([z.string(), z.number()]),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    avatar: z.string().optional(),
  }),
});

/** VK ID; its callback carries a `device_id` that the code exchange must repeat. */
export const vk: ProviderDefinition = {
  id: "vk",
  name: "VK",
  endpoints: () => ({
    authorization: "https://id.vk.com/authorize",
    token: "https://id.vk.com/oauth2/auth",
    userInfo: "https://id.vk.com/oauth2/user_info",
  }),
  scopes: ["email", "phone"],
  pkce: true,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints, clientId, accessToken }) {
    // VK wants the token in the form, not as a bearer header.
    const { user } = vkUser.parse(await fetchJson(endpoints.userInfo ?? "", { method: "POST", form: { client_id: clientId, access_token: accessToken ?? "" } }));
    return {
      id: String(user.user_id),
      email: stringOrNull(user.email),
      emailVerified: false,
      name: [user.first_name, user.last_name].filter(Boolean).join(" "),
      image: stringOrNull(user.avatar),
    };
  },
};
