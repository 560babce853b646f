import type { Knex } from "@tollgate/kit";

/** A value for a jsonb column that holds an array: pg would send a JS array as a Postgres array. */
export const jsonbArray = (db: Knex, items: unknown[]) => db.raw("?::jsonb", [JSON.stringify(items)]);

/**
 * Rows that came back as JSON (`json_agg` of a table's rows, to read a parent and its children in
 * one statement), with their timestamp columns made Dates again, as pg gives them when the same
 * rows are read directly.
 */
export function rowsFromJson<Row>(rows: unknown, timestamps: readonly (keyof Row & string)[]): Row[] {
  return (rows as Record<string, unknown>[]).map((row) => {
    const revived = { ...row };
    for (const column of timestamps) {
      const value = revived[column];
      if (typeof value === "string") revived[column] = new Date(value);
    }
    return revived as Row;
  });
}

/**
 * Columns of a batch as Postgres arrays, one binding each, for `unnest(?::text[], …)`: pg sends a
 * JS array (nulls included) as one, which knex's binding types do not spell out.
 */
export const arrayBindings = (columns: readonly unknown[]) => columns as unknown as readonly Knex.Value[];
