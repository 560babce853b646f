import { z } from "zod";
import { stringOrNull, truthy, type ProviderDefinition } from "./types.js";

const zoomUser = z.looseObject({ id: z.string(), display_name: z.string().optional(), email: z.string().optional(), pic_url: z.string().optional(), verified: z.unknown().optional() });

export const zoom: ProviderDefinition = {
  id: "zoom",
  name: "Zoom",
  endpoints: () => ({
    authorization: "https://zoom.us/oauth/authorize",
    token: "https://zoom.us/oauth/token",
    userInfo: "https://api.zoom.us/v2/users/me",
  }),
  scopes: [],
  pkce: true,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = zoomUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    return { id: user.id, email: stringOrNull(user.email), emailVerified: truthy(user.verified), name: user.display_name ?? "", image: stringOrNull(user.pic_url) };
  },
};
