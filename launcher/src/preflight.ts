import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { connectRedis, describeStartupError, maskUrlPassword, natsConnectOptions, natsSettingsOf, StartupError, type NatsSettings } from "@tollgate/kit";
import pg from "pg";
import type { LauncherConfig } from "./config.js";

/**
 * Checks every dependency before any process starts, so a missing one is reported once, by name,
 * with how to start it, instead of as five processes' connection errors. Creates the database
 * when the server is up but the database is not there yet.
 */
export async function preflight(config: LauncherConfig): Promise<void> {
  const problems = (
    await Promise.all([ensureDatabase(config.DATABASE_URL), checkNats(natsSettingsOf(config)), checkRedis(config.REDIS_URL)])
  ).filter((problem): problem is string => problem !== null);
  if (problems.length > 0) throw new StartupError(problems.join("\n"));
}

async function ensureDatabase(url: string): Promise<string | null> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1)) || "postgres";
  const server = new URL(url);
  server.pathname = "/postgres";
  const client = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const existing = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (existing.rowCount === 0) {
      await client.query(`create database "${database.replace(/"/g, '""')}"`).catch((error: unknown) => {
        // 42P04: created meanwhile by someone else, which is just as good.
        if ((error as { code?: string }).code !== "42P04") throw error;
      });
    }
    return null;
  } catch (error) {
    return describeStartupError("Postgres", url, error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkNats(settings: NatsSettings): Promise<string | null> {
  const { url } = settings;
  let nc;
  try {
    nc = await connect({ ...natsConnectOptions(settings), timeout: 5_000, reconnect: false });
  } catch (error) {
    return describeStartupError("NATS", url, error).message;
  }
  try {
    await jetstreamManager(nc);
    return null;
  } catch {
    return `NATS at ${maskUrlPassword(url)} has JetStream turned off; restart nats-server with -js`;
  } finally {
    await nc.close();
  }
}

async function checkRedis(url: string): Promise<string | null> {
  try {
    const redis = await connectRedis(url, "");
    await redis.quit();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
