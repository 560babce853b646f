import type { Knex } from "@tollgate/kit";

/** Polar's metadata as a row keeps it (jsonb): each key a string, a number or a boolean. */
export type Metadata = Record<string, string | number | boolean>;

/** Narrows `query` to rows whose `column` (jsonb) matches every metadata filter. */
export function whereMetadata(query: Knex.QueryBuilder, column: string, filters: Map<string, string[]>): void {
  for (const [key, values] of filters) void query.whereRaw(`(??->>?) = any(?)`, [column, key, values]);
}
