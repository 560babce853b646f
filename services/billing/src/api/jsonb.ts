import type { Knex } from "@tollgate/kit";

/** A value for a jsonb column that holds an array: pg would send a JS array as a Postgres array. */
export const jsonbArray = (db: Knex, items: unknown[]) => db.raw("?::jsonb", [JSON.stringify(items)]);
