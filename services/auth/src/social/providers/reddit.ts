import { z } from "zod";
import { placeholderEmail, type ProviderDefinition } from "./types.js";

const redditUser = z.looseObject({ id: z.string(), name: z.string(), icon_img: z.string().optional() });

export const reddit: ProviderDefinition = {
  id: "reddit",
  name: "Reddit",
  endpoints: () => ({
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: "https://www.reddit.com/api/v1/access_token",
    userInfo: "https://oauth.reddit.com/api/v1/me",
  }),
  scopes: ["identity"],
  pkce: false,
  clientAuthentication: "basic",
  // "permanent" is what makes Reddit issue a refresh token.
  authorizationParams: { duration: "permanent" },
  // Reddit refuses API calls without a descriptive User-Agent.
  headers: { "user-agent": "Tollgate" },
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = redditUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    // Reddit never shares the address.
    return { id: user.id, email: placeholderEmail(user.id, "reddit"), emailVerified: false, name: user.name, image: user.icon_img?.split("?")[0] || null };
  },
};
