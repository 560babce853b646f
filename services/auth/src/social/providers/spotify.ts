import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const spotifyUser = z.looseObject({
  id: z.string(),
  display_name: z.string().nullable().optional(),
  email: z.string().optional(),
  images: z.array(z.object({ url: z.string() })).optional(),
});

export const spotify: ProviderDefinition = {
  id: "spotify",
  name: "Spotify",
  endpoints: () => ({
    authorization: "https://accounts.spotify.com/authorize",
    token: "https://accounts.spotify.com/api/token",
    userInfo: "https://api.spotify.com/v1/me",
  }),
  scopes: ["user-read-email"],
  pkce: true,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = spotifyUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    return { id: user.id, email: stringOrNull(user.email), emailVerified: false, name: user.display_name ?? "", image: user.images?.[0]?.url ?? null };
  },
};
