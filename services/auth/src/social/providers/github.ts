import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const githubUser = z.looseObject({
  id: z.union([z.number(), z.string()]),
  login: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  avatar_url: z.string().nullable().optional(),
});
const githubEmails = z.array(z.looseObject({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

export const github: ProviderDefinition = {
  id: "github",
  name: "GitHub",
  endpoints: () => ({
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    userInfo: "https://api.github.com/user",
    emails: "https://api.github.com/user/emails",
  }),
  scopes: ["read:user", "user:email"],
  pkce: true,
  clientAuthentication: "post",
  headers: { "user-agent": "Tollgate" },
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const user = githubUser.parse(await fetchJson(endpoints.userInfo ?? ""));
    // The public profile's address may be missing or unverified: the verified primary one is what counts.
    const emails = githubEmails.safeParse(await fetchJson(endpoints.emails ?? "").catch(() => []));
    const listed = emails.success ? emails.data : [];
    const primary = listed.find((entry) => entry.primary && entry.verified) ?? listed.find((entry) => entry.primary);
    const email = primary?.email ?? stringOrNull(user.email);
    return {
      id: String(user.id),
      email,
      emailVerified: listed.some((entry) => entry.email === email && entry.verified),
      name: user.name || user.login,
      image: stringOrNull(user.avatar_url),
    };
  },
};
