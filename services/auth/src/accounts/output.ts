import type { AccountRow } from "./accounts.sql.js";

/** An account as better-auth lists it: never a password or provider token. */
export function accountJson(account: AccountRow) {
  return {
    id: account.id,
    providerId: account.provider_id,
    accountId: account.account_id,
    userId: account.user_id,
    scopes: account.scope?.split(",").filter(Boolean) ?? [],
    createdAt: account.created_at,
    updatedAt: account.updated_at,
  };
}
