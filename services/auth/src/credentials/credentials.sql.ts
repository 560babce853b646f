import { randomId, type Knex } from "@tollgate/kit";
import type { AccountRow } from "../accounts/accounts.sql.js";

/** The e-mail-and-password account is the one with provider `credential`, keyed by the user's id. */
export const findCredentialAccount = (db: Knex, userId: string) =>
  db<AccountRow>("accounts").where({ user_id: userId, provider_id: "credential" }).first();

export const insertCredentialAccount = (db: Knex, userId: string, passwordHash: string) =>
  db<AccountRow>("accounts").insert({ id: randomId(32), user_id: userId, provider_id: "credential", account_id: userId, password: passwordHash });

export const setAccountPassword = (db: Knex, accountId: string, passwordHash: string) =>
  db<AccountRow>("accounts").where({ id: accountId }).update({ password: passwordHash, updated_at: new Date() });
