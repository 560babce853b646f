/**
 * `npm run bench:scale` — two replicas of every service under a mixed load (sign-ups and sign-ins,
 * organization changes, checkouts with sandbox cards, subscriptions renewed by the test clock,
 * webhooks to a local receiver) for BENCH_SECONDS, while one replica of each service in turn is
 * killed with SIGKILL (the launcher starts it again) and the run's own NATS server is restarted once.
 * Prints requests/s, latency and the rules of audit.ts, and exits 1 when a rule was broken.
 *
 * Env: BENCH_SECONDS (default 60), BENCH_CLIENTS (default 8), BENCH_SETTLE_SECONDS (how long the work
 * left after the load may take to settle, default 120), and the usual DATABASE_URL and REDIS_URL. The
 * machine's NATS server is not used: the run starts one of its own (NATS_SERVER_BIN, default
 * /usr/sbin/nats-server) so that restarting it disturbs nobody else.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { createDatabase } from "@tollgate/kit";
import { cpuLines, envInteger, formatMs, formatRate, progress, withDatabase } from "../support.js";
import { verdictLines } from "../whole-stack/audit.js";
import { runScenario } from "./scenario.js";

const SECONDS = envInteger("BENCH_SECONDS", 60);
const CLIENTS = envInteger("BENCH_CLIENTS", 8);
const SETTLE_SECONDS = envInteger("BENCH_SETTLE_SECONDS", 120);
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

async function main(): Promise<number> {
  const interrupted = new AbortController();
  // The launcher runs in a process group of its own: Ctrl-C reaches only the bench, which stops it and
  // cleans up; a second Ctrl-C exits at once.
  process.once("SIGINT", () => {
    progress("SIGINT: stopping Tollgate, then removing the database and keys (Ctrl-C again to quit at once)");
    interrupted.abort();
  });
  const id = randomBytes(4).toString("hex");
  const database = `bench_scale_${id}`;
  const prefix = `bench_${id}`;
  const admin = createDatabase({ url: withDatabase(SERVER_URL, "postgres"), schema: "public", poolMax: 1 });
  progress(`creating database ${database}; NATS prefix ${prefix}`);
  await admin.raw("create database ??", [database]);
  try {
    const report = await runScenario({
      seconds: SECONDS,
      clients: CLIENTS,
      databaseUrl: withDatabase(SERVER_URL, database),
      database,
      natsPrefix: prefix,
      redisUrl: REDIS_URL,
      redisPrefix: `${prefix}:`,
      settleMs: SETTLE_SECONDS * 1000,
      print: (line) => process.stderr.write(`  ${line}\n`),
      progress,
      signal: interrupted.signal,
    });
    console.log(`\nscale: 2 replicas of every service, ${CLIENTS} clients for ${report.seconds.toFixed(1)} s`);
    console.log(`  requests                 ${formatRate(report.requests / report.seconds)} (${report.requests}), p50 ${formatMs(report.p50Ms)}, p99 ${formatMs(report.p99Ms)}`);
    console.log(`  disruptions              ${report.disruptions.map((disruption) => `${disruption.target} at ${(disruption.at / 1000).toFixed(1)} s`).join(", ")}`);
    for (const line of cpuLines(report.cpu, (what) => `  ${what.padEnd(25)}`)) console.log(line);
    for (const line of verdictLines(report.verdicts)) console.log(line);
    return report.verdicts.every((verdict) => verdict.broken.length === 0) ? 0 : 1;
  } catch (error) {
    if (interrupted.signal.aborted) return 130;
    throw error;
  } finally {
    await admin.raw("drop database if exists ?? with (force)", [database]);
    await admin.destroy();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    progress(`removed database ${database} and Redis keys ${prefix}:*`);
  }
}

process.exitCode = await main();
