import { z } from "zod";
import { defineEndpoint, ValidationError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { requireFreshSession, requireSession } from "../sessions/current-session.js";
import { deleteAccount, listAccounts, type AccountRow } from "./accounts.sql.js";
import { accountJson } from "./output.js";
import { Account, UnlinkRequest } from "./schemas.js";

/**
 * The account a request to unlink means: the row named, or the provider's account (the one with the
 * person's id at the provider, when given). A provider with several accounts linked must be told which.
 */
function accountToUnlink(accounts: AccountRow[], { accountId, providerId }: z.output<typeof UnlinkRequest>): AccountRow | undefined {
  if (providerId === undefined) return accounts.find((account) => account.id === accountId);
  const candidates = accounts.filter((account) => account.provider_id === providerId && (accountId === undefined || account.account_id === accountId || account.id === accountId));
  if (candidates.length > 1) {
    throw new ValidationError([{ location: "body", path: ["accountId"], message: `Several ${providerId} accounts are linked: name the one to unlink with accountId`, code: "custom" }]);
  }
  return candidates[0];
}

export function accountEndpoints(auth: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/list-accounts",
      { method: "GET", response: z.array(Account), summary: "List the ways the signed-in user can sign in: password and linked providers", tag: "Default" },
      async ({ identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        return (await listAccounts(auth.db, user.id)).map(accountJson);
      },
    ),
    defineEndpoint(
      "/unlink-account",
      { method: "POST", body: UnlinkRequest, response: StatusAnswer, summary: "Unlink a provider's account from the signed-in user", tag: "Default" },
      async ({ body, identity, req }) => {
        const { user } = await requireFreshSession(auth, identity, req);
        const accounts = await listAccounts(auth.db, user.id);
        // Without any account left, nobody could ever sign in as this user again.
        if (accounts.length === 1 && !auth.config.ALLOW_UNLINKING_ALL_ACCOUNTS) throw authError(400, "FAILED_TO_UNLINK_LAST_ACCOUNT");
        const unlinked = accountToUnlink(accounts, body);
        if (!unlinked) throw authError(400, "ACCOUNT_NOT_FOUND");
        await deleteAccount(auth.db, user.id, unlinked.id);
        return { status: true };
      },
    ),
  ];
}
