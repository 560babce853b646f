import { z } from "zod";
import { stringOrNull, type ProviderDefinition } from "./types.js";

const dropboxAccount = z.looseObject({
  account_id: z.string(),
  name: z.object({ display_name: z.string() }).optional(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  profile_photo_url: z.string().optional(),
});

export const dropbox: ProviderDefinition = {
  id: "dropbox",
  name: "Dropbox",
  endpoints: () => ({
    authorization: "https://www.dropbox.com/oauth2/authorize",
    token: "https://api.dropboxapi.com/oauth2/token",
    userInfo: "https://api.dropboxapi.com/2/users/get_current_account",
  }),
  scopes: ["account_info.read"],
  pkce: true,
  clientAuthentication: "post",
  // Without it Dropbox issues short-lived tokens and no refresh token.
  authorizationParams: { token_access_type: "offline" },
  refreshable: true,
  async profile({ fetchJson, endpoints }) {
    const account = dropboxAccount.parse(await fetchJson(endpoints.userInfo ?? "", { method: "POST" }));
    return {
      id: account.account_id,
      email: stringOrNull(account.email),
      emailVerified: account.email_verified ?? false,
      name: account.name?.display_name ?? "",
      image: stringOrNull(account.profile_photo_url),
    };
  },
};
