import knex, { type Knex } from "knex";
import pg from "pg";

export type { Knex } from "knex";

// pg returns bigint (int8) columns as strings by default; our bigints (sequence numbers) fit in a
// JS number for the life of any deployment, and numbers are what the code compares.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema; every unqualified table name resolves inside it. */
  schema: string;
  poolMax: number;
}

export function createDatabase(options: DatabaseOptions): Knex {
  return knex({
    client: "pg",
    // A statement is named (see `prepared`) only to plan it once: generic plans, so Postgres does
    // not plan it afresh at each use as it would for its custom plans.
    connection: { connectionString: options.url, options: "-c plan_cache_mode=force_generic_plan" },
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax },
  });
}
