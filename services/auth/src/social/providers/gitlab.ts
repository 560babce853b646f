import { z } from "zod";
import { stringOrNull, truthy, type ProviderDefinition } from "./types.js";

const gitlabUser = z.looseObject({
  id: z.union([z.number(), z.string()]),
  username: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  avatar_url: z.string().nullable().optional(),
  email_verified: z.unknown().optional(),
  state: z.string().optional(),
  locked: z.boolean().optional(),
});

/** gitlab.com, or a self-hosted GitLab at `issuer`. */
export const gitlab: ProviderDefinition = {
  id: "gitlab",
  name: "GitLab",
  endpoints: ({ issuer = "https://gitlab.com" }) => {
    const base = issuer.replace(/\/+$/, "");
    return { authorization: `${base}/oauth/authorize`, token: `${base}/oauth/token`, userInfo: `${base}/api/v4/user` };
  },
  scopes: ["read_user"],
  pkce: true,
  clientAuthentication: "post",
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = gitlabUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    // A blocked or locked GitLab user must not get in here either.
    if ((user.state && user.state !== "active") || user.locked) return null;
    return {
      id: String(user.id),
      email: stringOrNull(user.email),
      emailVerified: truthy(user.email_verified),
      name: user.name || user.username,
      image: stringOrNull(user.avatar_url),
    };
  },
};
