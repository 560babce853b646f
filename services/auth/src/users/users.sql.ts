import type { Knex } from "@tollgate/kit";
import type { Locale } from "../i18n/locales.js";

export interface UserRow {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  username: string | null;
  display_username: string | null;
  role: string;
  banned: boolean;
  ban_reason: string | null;
  ban_expires: Date | null;
  /** The language the user chose; null until they choose one. */
  locale: Locale | null;
  /** On once the user confirmed a second factor; password sign-ins then wait for it. */
  two_factor_enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export type UserChanges = Partial<Omit<UserRow, "id" | "created_at" | "updated_at">>;

export const findUserById = (db: Knex, id: string) => db<UserRow>("users").where({ id }).first();

export const recipientsOf = (db: Knex, ids: string[]) => db<UserRow>("users").whereIn("id", ids).select("email", "locale");

/** `email` must already be lower-cased, as every stored address is. */
export const findUserByEmail = (db: Knex, email: string) => db<UserRow>("users").where({ email }).first();

/** `username` must already be normalized (lower-cased), as every stored username is. */
export const findUserByUsername = (db: Knex, username: string) => db<UserRow>("users").where({ username }).first();

export async function insertUser(db: Knex, user: Pick<UserRow, "id" | "name" | "email"> & UserChanges): Promise<UserRow> {
  const [row] = await db<UserRow>("users").insert(user).returning("*");
  if (!row) throw new Error("insert into users returned no row");
  return row;
}

export async function updateUser(db: Knex, id: string, changes: UserChanges): Promise<UserRow | undefined> {
  const [row] = await db<UserRow>("users")
    .where({ id })
    .update({ ...changes, updated_at: new Date() })
    .returning("*");
  return row;
}

/** A ban whose expiry has passed no longer applies: better-auth lifts it when the user is next given a session. */
export async function liftExpiredBan(db: Knex, user: UserRow): Promise<UserRow> {
  if (!user.banned || !user.ban_expires || user.ban_expires > new Date()) return user;
  return (await updateUser(db, user.id, { banned: false, ban_reason: null, ban_expires: null })) ?? user;
}

export const deleteUser = (db: Knex, id: string) => db<UserRow>("users").where({ id }).delete();
