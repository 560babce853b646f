import type { Knex } from "knex";

/**
 * The names of the time zones this Postgres knows, lower-cased as it matches them, read once when a
 * service starts: the runtime's list (ICU's) is of another age, and a statement given a zone that
 * only the runtime knows fails.
 */
export async function postgresTimeZones(db: Knex): Promise<ReadonlySet<string>> {
  const { rows } = await db.raw<{ rows: { name: string }[] }>("select name from pg_timezone_names");
  return new Set(rows.map((row) => row.name.toLowerCase()));
}
