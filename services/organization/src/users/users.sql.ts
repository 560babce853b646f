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
