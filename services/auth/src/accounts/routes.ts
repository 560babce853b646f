import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { authError } from "../http/errors.js";
import { requireFreshSession, requireSession } from "../sessions/current-session.js";
import { deleteAccount, listAccounts, type AccountRow } from "./accounts.sql.js";

/** An account as better-auth lists it: never a password or provider token. */
function accountJson(account: AccountRow) {
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

export function accountEndpoints(auth: Auth): Endpoint[] {
  return [
    defineEndpoint("/list-accounts", { method: "GET" }, async ({ identity, req }) => {
      const { user } = await requireSession(auth, identity, req);
      return (await listAccounts(auth.db, user.id)).map(accountJson);
    }),
    defineEndpoint("/unlink-account", { method: "POST", body: z.object({ accountId: z.string() }) }, async ({ body, identity, req }) => {
      const { user } = await requireFreshSession(auth, identity, req);
      const accounts = await listAccounts(auth.db, user.id);
      // Without any account left, nobody could ever sign in as this user again.
      if (accounts.length === 1 && !auth.config.ALLOW_UNLINKING_ALL_ACCOUNTS) throw authError(400, "FAILED_TO_UNLINK_LAST_ACCOUNT");
      if (!accounts.some((account) => account.id === body.accountId)) throw authError(400, "ACCOUNT_NOT_FOUND");
      await deleteAccount(auth.db, user.id, body.accountId);
      return { status: true };
    }),
  ];
}
