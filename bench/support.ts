import { randomBytes } from "node:crypto";
import { busNames, IDENTITY_HEADER, type IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import { availableParallelism } from "node:os";
import { connectBus, createDatabase, createLogger, loadServiceConfig, migrateService, identitySigner, generateIdentityKeys, startService, type Knex, type RunningService, type ServiceConfig, type ServiceDefinition } from "@tollgate/kit";
import type { CpuUse } from "./cpu.js";
import { freePort } from "../launcher/src/ports.js";
import { Processes } from "./processes.js";
/** What every benchmark here shares: its settings, its progress lines and how it prints figures. */

/** A positive whole-number setting from the environment, or its default. */
export function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** The value at `p` (0–1) of already sorted values; 0 for none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);

/** The median, 99th percentile and slowest of some latencies. */
export const latencySummary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
};

/** Resolves once `url` answers 2xx (within 60 s), or fails as soon as the process it waits for exits. */
export async function waitUntilReady(url: string, exited: Promise<never>): Promise<void> {
  const deadline = performance.now() + 60_000;
  const answering = async () => {
    while (performance.now() < deadline) {
      if (await fetch(url).then((response) => response.ok, () => false)) return;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error(`${url} did not answer within 60 s`);
  };
  await Promise.race([answering(), exited]);
}

const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** A bench's own database (billing's schema), NATS prefix and server processes; {@link removeBenchRun} takes them away. */
export interface BenchRun {
  id: string;
  database: string;
  prefix: string;
  /** The server's `postgres` database, and the run's own. */
  admin: Knex;
  db: Knex;
  bus: Awaited<ReturnType<typeof connectBus>>;
  processes: Processes;
}

export async function openBenchRun(bench: string, options: { poolMax?: number } = {}): Promise<BenchRun> {
  const id = randomBytes(4).toString("hex");
  const database = `bench_${bench}_${id}`;
  const prefix = `bench_${id}`;
  const admin = createDatabase({ url: withDatabase(SERVER_URL, "postgres"), schema: "public", poolMax: 1 });
  const processes = new Processes((name, status) => progress(`${name} exited unexpectedly (${status}); see its output above`));
  process.on("exit", () => processes.killAll());
  progress(`creating database ${database}; NATS prefix ${prefix}`);
  await admin.raw("create database ??", [database]);
  const db = createDatabase({ url: withDatabase(SERVER_URL, database), schema: "billing", poolMax: options.poolMax ?? 2 });
  const bus = await connectBus({ url: NATS_URL, prefix, name: `bench-${bench}` });
  return { id, database, prefix, admin, db, bus, processes };
}

/** What a bench does last, even when it failed: stops its processes, then removes its event stream and database. */
export async function removeBenchRun(run: BenchRun): Promise<void> {
  await run.processes.stopAll(10_000);
  const stream = busNames(run.prefix).eventStream;
  await run.bus.jsm.streams.delete(stream).catch(() => false);
  await run.bus.nc.close();
  await run.db.destroy();
  await run.admin.raw("drop database if exists ?? with (force)", [run.database]);
  await run.admin.destroy();
  progress(`removed database ${run.database} and stream ${stream}`);
}

/**
 * Billing alone in a process of its own, as `npm start` runs it, on the run's database and prefix;
 * resolves once it answers, with its address and `as`, which makes the headers the gateway would
 * send for a caller (an identity token lives a minute, less than a run, so each request signs again).
 */
export async function startBillingAlone(run: BenchRun, options: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<{ url: string; as: (claims: IdentityClaims) => () => Record<string, string> }> {
  const identityKeys = generateIdentityKeys();
  const signer = identitySigner(identityKeys.signingKey);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: withDatabase(SERVER_URL, run.database),
    NATS_URL,
    NATS_PREFIX: run.prefix,
    REDIS_URL,
    REDIS_PREFIX: `${run.prefix}:`,
    IDENTITY_VERIFY_KEYS: identityKeys.verifyKey,
    FILE_URL_SECRET: randomBytes(32).toString("base64url"),
    PUBLIC_URL: "http://127.0.0.1:3000",
    ...options.env,
  };
  run.processes.start("billing", "services/billing/src/main.ts", env, options.nodeArgs ?? []);
  progress("starting billing in a process of its own");
  await waitUntilReady(`${url}/readyz`, run.processes.exitOf("billing"));
  return { url, as: (claims) => () => ({ "content-type": "application/json", [IDENTITY_HEADER]: signer.sign(claims) }) };
}

/**
 * Billing and a gateway in front of it, each in a process of its own as `npm start` runs them, on
 * the run's database and prefix; resolves with the gateway's address once both answer. The rate
 * limiter is off: one bench client sends far more than a client's budget, and it is not what is measured.
 */
export async function startBillingBehindGateway(run: BenchRun): Promise<string> {
  const { processes, prefix } = run;
  const identityKeys = generateIdentityKeys();
  const [billingPort, gatewayPort] = [await freePort(), await freePort()];
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const common = { NODE_ENV: "production", LOG_LEVEL: "warn", HOST: "127.0.0.1", NATS_URL, NATS_PREFIX: prefix, REDIS_URL, REDIS_PREFIX: `${prefix}:`, PUBLIC_URL: gateway };
  processes.start("billing", "services/billing/src/main.ts", {
    ...common,
    PORT: String(billingPort),
    DATABASE_URL: withDatabase(SERVER_URL, run.database),
    IDENTITY_VERIFY_KEYS: identityKeys.verifyKey,
    FILE_URL_SECRET: randomBytes(32).toString("base64url"),
  });
  progress("starting billing in a process of its own");
  await waitUntilReady(`http://127.0.0.1:${billingPort}/readyz`, processes.exitOf("billing"));
  processes.start("gateway", "gateway/src/main.ts", {
    ...common,
    PORT: String(gatewayPort),
    BILLING_URL: `http://127.0.0.1:${billingPort}`,
    IDENTITY_SIGNING_KEY: identityKeys.signingKey,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    RATE_LIMIT_ENABLED: "false",
  });
  progress("starting the gateway in a process of its own");
  await waitUntilReady(`${gateway}/readyz`, processes.exitOf("gateway"));
  return gateway;
}

/** The same Postgres server, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const benchStarted = performance.now();

/** A progress line on stderr, stamped with the seconds since the bench began; the results go to stdout. */
export function progress(message: string): void {
  console.error(`[${((performance.now() - benchStarted) / 1000).toFixed(1).padStart(6)}s] ${message}`);
}

export const formatRate = (value: number) => `${Math.round(value).toLocaleString("en-US")}/s`;
export const formatMs = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Other work using this share of a core or more during a measurement disturbs its figures (as in bench/auth). */
const DISTURBED_CORES = 0.15;

/** Whether other work (CPU none of the measured processes used, or processes outside them) took a share of the machine meanwhile. */
export const isDisturbed = (cpu: CpuUse | null) => cpu !== null && Math.max(cpu.cores.other ?? 0, cpu.others.reduce((sum, other) => sum + other.cores, 0)) >= DISTURBED_CORES;

/** A measurement's CPU as report lines: each group's share of a core, what else ran, and whether that disturbed it. */
export function cpuLines(cpu: CpuUse | null, label: (what: string) => string): string[] {
  if (!cpu) return [];
  const shares = Object.entries(cpu.cores).map(([group, cores]) => `${group} ${Math.round(cores * 100)} %`);
  return [
    `${label("CPU (% of a core)")}${shares.join(", ")}; the machine ${Math.round((cpu.machineCores / availableParallelism()) * 100)} % busy`,
    ...cpu.others.map((other) => `${label("also running")}${other.command} (pid ${other.pid}): ${Math.round(other.cores * 100)} % of a core`),
    ...(isDisturbed(cpu) ? [`${label("disturbed")}other work took a share of the machine meanwhile; the figures are slower than a quiet machine's`] : []),
  ];
}


/** A service started in the bench's own process on a database and NATS prefix of its own, and how to call it as the gateway would. */
export interface BenchService<Env extends z.ZodObject, App = unknown> {
  service: RunningService<ServiceConfig<Env>, App>;
  /** The request headers of a caller, signed as the gateway signs them. */
  as(claims: IdentityClaims): Record<string, string>;
  /** Stops the service, then drops its database and event stream. */
  stop(): Promise<void>;
}

/** Starts `definition` for a bench: a fresh database `bench_<name>_<id>` and NATS prefix, migrated, quiet logs. */
export async function startBenchService<Env extends z.ZodObject, App>(name: string, definition: ServiceDefinition<Env, App>, env: Record<string, string> = {}): Promise<BenchService<Env, App>> {
  const id = randomBytes(4).toString("hex");
  const database = `bench_${name}_${id}`;
  const identityKeys = generateIdentityKeys();
  const signer = identitySigner(identityKeys.signingKey);
  const admin = createDatabase({ url: withDatabase(SERVER_URL, "postgres"), schema: "public", poolMax: 1 });
  progress(`creating database ${database}; NATS prefix bench_${id}`);
  await admin.raw("create database ??", [database]);
  const config = loadServiceConfig(definition, {
    ...process.env,
    DATABASE_URL: withDatabase(SERVER_URL, database),
    NATS_PREFIX: `bench_${id}`,
    REDIS_PREFIX: `bench_${id}:`,
    IDENTITY_VERIFY_KEYS: identityKeys.verifyKey,
    WEBHOOK_SECRET_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    FILE_URL_SECRET: randomBytes(32).toString("base64url"),
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "warn",
    ...env,
  });
  const logger = createLogger({ service: definition.name, level: config.LOG_LEVEL });
  await migrateService(definition, config, logger);
  const service = await startService(definition, config, logger);
  return {
    service,
    as: (claims) => ({ "content-type": "application/json", [IDENTITY_HEADER]: signer.sign(claims) }),
    async stop() {
      const stream = service.context.bus.names.eventStream;
      await service.stop();
      // The stream goes last: the service's workers publish until they stop.
      const cleanup = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: "bench-cleanup" });
      await cleanup.jsm.streams.delete(stream).catch(() => false);
      await cleanup.nc.close();
      await admin.raw("drop database if exists ?? with (force)", [database]);
      await admin.destroy();
    },
  };
}
