import type { Knex } from "@tollgate/kit";

/** A value for a jsonb column that holds an array: pg would send a JS array as a Postgres array. */
export const jsonbArray = (db: Knex, items: unknown[]) => db.raw("?::jsonb", [JSON.stringify(items)]);

/**
 * Columns of a batch as Postgres arrays, one binding each, for `unnest(?::text[], …)`: pg sends a
 * JS array (nulls included) as one, which knex's binding types do not spell out.
 */
export const arrayBindings = (columns: readonly unknown[]) => columns as unknown as readonly Knex.Value[];
