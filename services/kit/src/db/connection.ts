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
  const db = knex({
    client: "pg",
    // A statement is named (see `prepared`) only to plan it once: generic plans, so Postgres does
    // not plan it afresh at each use as it would for its custom plans.
    connection: { connectionString: options.url, options: "-c plan_cache_mode=force_generic_plan" },
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax },
  });
  db.on("query-error", (error: unknown, query: { sql?: unknown }) => {
    const prefix = `${String(query.sql)} - `;
    if (error instanceof Error && error.message.startsWith(prefix)) databaseMessages.set(error, error.message.slice(prefix.length));
  });
  return db;
}

/** Postgres's own message of each failed query, which knex puts after the statement. */
const databaseMessages = new WeakMap<Error, string>();

/**
 * Why something failed, as people read it: for a failed query Postgres's own message, without the
 * statement knex puts before it (which is for operators' logs, and would hide the reason in its text).
 */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return databaseMessages.get(error) ?? error.message;
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
