import type { Knex } from "@tollgate/kit";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

export const upsertUser = (db: Knex, user: UserRow) =>
  db<UserRow>("users")
    .insert({ id: user.id, email: user.email.toLowerCase(), name: user.name, image: user.image })
    .onConflict("id")
    .merge();

export const findUserById = (db: Knex, id: string) => db<UserRow>("users").where({ id }).first();

/** A user's name and address as auth announced them; a picture taken from a session stays. */
export const mergeUserProfile = (db: Knex, user: Omit<UserRow, "image">) =>
  db<UserRow>("users")
    .insert({ ...user, image: null })
    .onConflict("id")
    .merge(["email", "name"]);

export const deleteUser = (db: Knex, id: string) => db<UserRow>("users").where({ id }).delete();
