import { randomId, type Knex } from "@tollgate/kit";

/** A way to sign in as a user: the credential (password) account, or a provider's account. */
export interface AccountRow {
  id: string;
  user_id: string;
  /** `credential`, or a social provider's id. */
  provider_id: string;
  /** The provider's id for the person (the user's own id for the credential account). */
  account_id: string;
  password: string | null;
  /** Provider tokens, sealed by the TokenVault. */
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Date | null;
  refresh_token_expires_at: Date | null;
  /** Granted scopes, comma-separated as better-auth keeps them. */
  scope: string | null;
  created_at: Date;
  updated_at: Date;
}

export type ProviderTokenColumns = Pick<AccountRow, "access_token" | "refresh_token" | "id_token" | "access_token_expires_at" | "refresh_token_expires_at">;

export const listAccounts = (db: Knex, userId: string) => db<AccountRow>("accounts").where({ user_id: userId }).orderBy("created_at");

export const deleteAccount = (db: Knex, userId: string, id: string) => db<AccountRow>("accounts").where({ user_id: userId, id }).delete();

export const deleteAccounts = (db: Knex, userId: string) => db<AccountRow>("accounts").where({ user_id: userId }).delete();

/** Deletes every account of a user but the one kept. */
export const deleteOtherAccounts = (db: Knex, userId: string, keptId: string) =>
  db<AccountRow>("accounts").where({ user_id: userId }).whereNot({ id: keptId }).delete();

export const findAccountByKey = (db: Knex, providerId: string, accountId: string) =>
  db<AccountRow>("accounts").where({ provider_id: providerId, account_id: accountId }).first();

export const findUserAccount = (db: Knex, userId: string, id: string) => db<AccountRow>("accounts").where({ user_id: userId, id }).first();

export async function insertProviderAccount(
  db: Knex,
  account: Pick<AccountRow, "user_id" | "provider_id" | "account_id" | "scope"> & Partial<ProviderTokenColumns>,
): Promise<AccountRow> {
  const [row] = await db<AccountRow>("accounts")
    .insert({ id: randomId(32), ...account })
    .returning("*");
  if (!row) throw new Error("insert into accounts returned no row");
  return row;
}

export async function updateAccount(db: Knex, id: string, changes: Partial<ProviderTokenColumns & Pick<AccountRow, "scope">>): Promise<AccountRow | undefined> {
  const [row] = await db<AccountRow>("accounts")
    .where({ id })
    .update({ ...changes, updated_at: new Date() })
    .returning("*");
  return row;
}
