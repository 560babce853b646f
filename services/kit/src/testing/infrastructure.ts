import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { Redis } from "ioredis";
import pg from "pg";

/** Where the test run's Postgres, NATS and Redis are, and the name every resource of the run starts with. */
export interface TestInfrastructure {
  /** A Postgres URL whose database part is replaced per test file. */
  postgresUrl: string;
  natsUrl: string;
  redisUrl: string;
  /** `tt_<base-36 start time>_<random>`: databases, NATS prefixes and Redis keys of this run start with it. */
  runId: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    tollgate: TestInfrastructure;
  }
}

export const RUN_ID_PREFIX = "tt_";

export function newRunId(now = Date.now()): string {
  return `${RUN_ID_PREFIX}${Math.floor(now / 1000).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** When a run id (or a name that starts with one) was made; null for names that are not ours. */
export function runStartedAt(name: string): number | null {
  const match = /^tt_([0-9a-z]+)_/.exec(name);
  return match?.[1] ? parseInt(match[1], 36) * 1000 : null;
}

export function databaseUrl(postgresUrl: string, database: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withPostgres<T>(postgresUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(postgresUrl, "postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(postgresUrl: string, name: string): Promise<void> {
  await withPostgres(postgresUrl, (client) => client.query(`create database "${name}"`));
}

/**
 * Removes every database, stream and Redis key whose name starts with a run id matching `select`:
 * the current run's at teardown, and runs that crashed before theirs (older than a few hours).
 */
export async function removeRuns(infrastructure: Omit<TestInfrastructure, "runId">, select: (name: string) => boolean): Promise<void> {
  await withPostgres(infrastructure.postgresUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'tt\\_%'");
    for (const { datname } of rows.filter((row) => select(row.datname))) {
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  });

  const nc = await connect({ servers: infrastructure.natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const name of jsm.streams.names()) {
      if (select(name)) await jsm.streams.delete(name);
    }
  } finally {
    await nc.close();
  }

  const redis = new Redis(infrastructure.redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${RUN_ID_PREFIX}*`, "COUNT", 500);
      cursor = next;
      const ours = keys.filter(select);
      if (ours.length > 0) await redis.del(...ours);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
