import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const discordUser = z.looseObject({
  id: z.string(),
  username: z.string(),
  global_name: z.string().nullable().optional(),
  discriminator: z.string().optional(),
  avatar: z.string().nullable(),
  email: z.string().nullable().optional(),
  verified: z.boolean().optional(),
});

/** The avatar's CDN address, or the default avatar Discord shows for a user without one. */
function avatarUrl(user: z.output<typeof discordUser>): string {
  if (user.avatar) return `https://cdn.discordapp.com/avatars/${user.id}/${user.avatar}.${user.avatar.startsWith("a_") ? "gif" : "png"}`;
  const index = !user.discriminator || user.discriminator === "0" ? Number((BigInt(user.id) >> 22n) % 6n) : Number(user.discriminator) % 5;
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`;
}

export const discord: ProviderDefinition = {
  id: "discord",
  name: "Discord",
  endpoints: () => ({
    authorization: "https://discord.com/oauth2/authorize",
    token: "https://discord.com/api/oauth2/token",
    userInfo: "https://discord.com/api/users/@me",
  }),
  scopes: ["identify", "email"],
  pkce: false,
  clientAuthentication: "post",
  // Someone who already authorized the app is not asked again.
  authorizationParams: { prompt: "none" },
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = discordUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    return {
      id: user.id,
      email: stringOrNull(user.email),
      emailVerified: user.verified ?? false,
      name: user.global_name || user.username,
      image: avatarUrl(user),
    };
  },
};
