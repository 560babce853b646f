/**
 * `npm run chaos` — fault injection, nothing lost, nothing twice: two replicas of every service under
 * the mixed load of bench/whole-stack, and one fault a case (each service killed in turn, the gateway
 * killed, NATS and Postgres restarted, the sellers' webhook endpoint timing out and failing, Redis
 * down). After each, prints how long the rules took to hold again from the fault's end, and exits 1
 * when one was broken.
 *
 * Env: BENCH_CLIENTS (default 6), BENCH_WARMUP_SECONDS (load before each fault, 5), BENCH_FAULT_SECONDS
 * (how long a server stays down or the receiver fails, 8), BENCH_RECOVERY_SECONDS (how long the rules
 * may take to hold again, 120), CHAOS_CASES (comma-separated case names; all by default). Every server
 * is the run's own, so stopping one disturbs nobody: a Postgres cluster (POSTGRES_BIN_DIR, default
 * /usr/lib/postgresql/15/bin), a redis-server (REDIS_SERVER_BIN) and a nats-server (NATS_SERVER_BIN).
 */
import { randomBytes } from "node:crypto";
import { createDatabase } from "@tollgate/kit";
import { PrivatePostgresCluster, PrivateRedisServer } from "@tollgate/kit/testing";
import { cpuLines, envInteger, isDisturbed, progress } from "../support.js";
import { verdictLines } from "../whole-stack/audit.js";
import { CASES, casesNamed } from "./cases.js";
import { runChaos, type CaseReport } from "./run.js";

const CLIENTS = envInteger("BENCH_CLIENTS", 6);
const WARMUP_SECONDS = envInteger("BENCH_WARMUP_SECONDS", 5);
const FAULT_SECONDS = envInteger("BENCH_FAULT_SECONDS", 8);
const RECOVERY_SECONDS = envInteger("BENCH_RECOVERY_SECONDS", 120);
const SELECTED = process.env.CHAOS_CASES ? casesNamed(process.env.CHAOS_CASES.split(",").map((name) => name.trim())) : CASES;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function print(reports: CaseReport[]): void {
  console.log(`\nchaos: 2 replicas of every service, ${CLIENTS} clients; each case ${WARMUP_SECONDS} s of load, then its fault while the load goes on (servers down ${FAULT_SECONDS} s); the load stops at the fault's end`);
  for (const report of reports) {
    const { disruption } = report.fault;
    console.log(`\n${report.name}: ${report.description}`);
    console.log(`  fault                    ${disruption.target} ${disruption.what}${disruption.detail ? ` (${disruption.detail})` : ""}, ${seconds(disruption.ended - disruption.at)} until its end`);
    console.log(`  at the time              ${report.fault.context}`);
    console.log(`  requests                 ${report.requests}`);
    console.log(`  recovered                ${report.recoveryMs === null ? "NO" : `${seconds(report.recoveryMs)} after the fault's end`}`);
    const waited = report.waitedFor.slice(0, 3).map((wait) => `${wait.what} (${seconds(wait.ms)})`);
    if (waited.length > 0) console.log(`  waiting for              ${waited.join("; ")}`);
    for (const line of cpuLines(report.cpu, (what) => `  ${what.padEnd(25)}`)) console.log(line);
    for (const line of verdictLines(report.verdicts)) console.log(line);
  }
  console.log("\ncase                         recovered after the fault's end   rules");
  for (const report of reports) {
    const broken = report.verdicts.filter((verdict) => verdict.broken.length > 0).length;
    const recovered = report.recoveryMs === null ? "NO" : seconds(report.recoveryMs);
    console.log(`${report.name.padEnd(29)}${recovered.padEnd(34)}${broken === 0 ? "all kept" : `${broken} BROKEN`}${isDisturbed(report.cpu) ? " (disturbed)" : ""}`);
  }
}

async function main(): Promise<number> {
  const interrupted = new AbortController();
  // The launcher runs in a process group of its own: Ctrl-C reaches only the bench, which stops it and
  // its servers; a second Ctrl-C exits at once.
  process.once("SIGINT", () => {
    progress("SIGINT: stopping Tollgate and the run's servers (Ctrl-C again to quit at once)");
    interrupted.abort();
  });
  progress("starting the run's own Postgres cluster and redis-server");
  const postgres = await PrivatePostgresCluster.start();
  let redis: PrivateRedisServer | null = null;
  try {
    redis = await PrivateRedisServer.start();
    const database = "tollgate_chaos";
    const admin = createDatabase({ url: postgres.url(), schema: "public", poolMax: 1 });
    await admin.raw("create database ??", [database]);
    await admin.destroy();
    const prefix = `chaos_${randomBytes(4).toString("hex")}`;
    const reports = await runChaos({
      cases: SELECTED,
      clients: CLIENTS,
      warmupMs: WARMUP_SECONDS * 1000,
      faultMs: FAULT_SECONDS * 1000,
      recoveryTimeoutMs: RECOVERY_SECONDS * 1000,
      databaseUrl: postgres.url(database),
      database,
      natsPrefix: prefix,
      redis,
      redisPrefix: `${prefix}:`,
      postgres,
      print: (line) => process.stderr.write(`  ${line}\n`),
      progress,
      signal: interrupted.signal,
    });
    print(reports);
    return reports.every((report) => report.verdicts.every((verdict) => verdict.broken.length === 0)) ? 0 : 1;
  } catch (error) {
    if (interrupted.signal.aborted) return 130;
    throw error;
  } finally {
    await redis?.stop();
    await postgres.stop();
    progress("stopped the run's Postgres cluster and redis-server and removed their directories");
  }
}

process.exitCode = await main();
