import type { Knex } from "@tollgate/kit";
import type { AccountRow } from "../credentials/credentials.sql.js";

export const listAccounts = (db: Knex, userId: string) => db<AccountRow>("accounts").where({ user_id: userId }).orderBy("created_at");

export const deleteAccount = (db: Knex, userId: string, id: string) => db<AccountRow>("accounts").where({ user_id: userId, id }).delete();
