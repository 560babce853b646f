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

/**
 * Postgres's own message for a statement that failed, without the statement (bindings and all) that
 * knex writes before it: what people are shown of the failure. Null for an error not from Postgres.
 */
export function databaseMessage(error: unknown): string | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  // Knex writes "<statement> - <message>": statements often hold " - ", Postgres's messages seldom do.
  const start = error.message.lastIndexOf(" - ");
  return start === -1 ? error.message : error.message.slice(start + " - ".length);
}

/** Socket errors of a server that is not there (restarting, unreachable) or that dropped the connection. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/**
 * Whether `error` says Postgres could not be reached, or went away under a query, rather than that
 * the query itself was wrong: a network error, SQLSTATE class 08 (connection exception) or 57P0x
 * (shut down, crashed, not yet accepting connections), pg's own for a connection that broke, or
 * knex's for a pool that could not get one in time.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || /^(08|57P0)/.test(code))) return true;
  return error.name === "KnexTimeoutError" || /Connection terminated|not queryable/.test(error.message);
}
