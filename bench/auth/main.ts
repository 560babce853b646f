/**
 * `npm run bench:auth` — signed-in get-session and sign-in/email through Tollgate's gateway, and what
 * a second factor adds to a sign-in, beside a plain better-auth server on the same machine and
 * Postgres, with autocannon. Prints figures; asserts nothing.
 *
 * Env: BENCH_SECONDS (per measurement, default 10), BENCH_WARMUP_SECONDS (default 3),
 * BENCH_CONNECTIONS (per autocannon run, default 10), BENCH_SECOND_FACTOR_SIGN_INS (per round and
 * way, one at a time, default 15), BCRYPT_COST (Tollgate's, default 11 as the
 * auth service's; sign-in is also measured at the nearest cost on the other side of better-auth's
 * scrypt), BENCH_CPU_PROF (a directory: the servers write V8 CPU profiles there when they stop),
 * DATABASE_URL (any database on the server; throwaway ones are created beside it), NATS_URL,
 * REDIS_URL.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism, cpus } from "node:os";
import { resolve } from "node:path";
import { hashPassword } from "better-auth/crypto";
import { Redis } from "ioredis";
import { connect } from "@nats-io/transport-node";
import { freePorts } from "../../launcher/src/ports.js";
import { JetStreamApiError, jetstreamManager } from "@nats-io/jetstream";
import { busNames } from "@tollgate/proto";
import { createDatabase, generateIdentityKeys } from "@tollgate/kit";
import { PasswordHasher } from "../../services/auth/src/credentials/passwords.js";
import { cpuUse, mergeCpu, settle, snapshot, type CpuGroups, type CpuUse } from "../cpu.js";
import { load, merge, stopAllLoad, type Figures, type Target } from "./load.js";
import { measureSecondFactors, secondFactorReport } from "./second-factor.js";
import { Processes } from "../processes.js";
import { envInteger, formatMs, formatRate, median, progress, withDatabase } from "../support.js";

const SECONDS = envInteger("BENCH_SECONDS", 10);
const WARM_UP_SECONDS = envInteger("BENCH_WARMUP_SECONDS", 3);
const CONNECTIONS = envInteger("BENCH_CONNECTIONS", 10);
const ROUNDS = envInteger("BENCH_ROUNDS", 2);
/** Sign-ins in each round of the second factor's measurement, one at a time, each way. */
const SECOND_FACTOR_SIGN_INS = envInteger("BENCH_SECOND_FACTOR_SIGN_INS", 15);
const CHOSEN_COST = process.env.BCRYPT_COST ? envInteger("BCRYPT_COST", 11) : null;
const CPU_PROFILES = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** auth's BCRYPT_COST default, which the issue expects to match better-auth's scrypt. */
const DEFAULT_COST = 11;
/** bcrypt's work doubles per cost step; within this factor of scrypt's time counts as equal work. */
const EQUAL_WORK_TOLERANCE = 1.25;
const HASH_SAMPLES = 5;
/** The auth service's BCRYPT_COST bounds. */
const [MIN_COST, MAX_COST] = [4, 15];
/** Both servers hash on libuv's thread pool: this many hashes run at once, at most one per core. */
const HASH_THREADS = Math.min(Number(process.env.UV_THREADPOOL_SIZE ?? 4), availableParallelism());
const TARGETS = { getSessionRatio: 10, getSessionP99Ms: 20, signInRatio: 0.9, underLoadP99Factor: 2 };
const PASSWORD = "a benchmark password";
const EMAIL = "bench@example.com";

// ---------------------------------------------------------------------------------------------
// Password hashing: one hash each way, timed in this process before the servers start

interface HashTimes {
  scryptMs: number;
  bcryptMs: Map<number, number>;
  /** The cost Tollgate runs at: BCRYPT_COST, else the default. */
  cost: number;
  /**
   * The nearest cost on scrypt's other side: sign-in is measured at both, and the ratio at equal
   * work interpolated between them. bcrypt's work doubles per step, so no single cost need match;
   * and single-hash times vary by a fifth between runs (scrypt's more), enough to flip any choice
   * of one cost as "the matching one". Null only at the ends of BCRYPT_COST's range.
   */
  otherCost: number | null;
}

async function timeHashes(): Promise<HashTimes> {
  const cost = CHOSEN_COST ?? DEFAULT_COST;
  const samples = new Map<string, number[]>();
  const hashers = new Map<number, PasswordHasher>();
  const hasher = (c: number) => {
    const existing = hashers.get(c) ?? new PasswordHasher(c);
    hashers.set(c, existing);
    return existing;
  };
  const timed = async (key: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    samples.set(key, [...(samples.get(key) ?? []), performance.now() - started]);
  };
  const time = async (costs: number[]) => {
    // One untimed hash each first (the hashers also make a dummy hash when created), then rounds
    // taking turns, so that anything else the machine does falls on every side alike.
    await Promise.all(costs.map((c) => hasher(c).verifyNothing(PASSWORD)));
    await hashPassword(PASSWORD);
    for (let round = 0; round < HASH_SAMPLES; round++) {
      stopIfInterrupted();
      await timed("scrypt", () => hashPassword(PASSWORD));
      for (const c of costs) await timed(`bcrypt ${c}`, () => hasher(c).hash(PASSWORD));
    }
  };
  await time([cost - 1, cost, cost + 1].filter((c) => c >= MIN_COST && c <= MAX_COST));
  const scryptMs = median(samples.get("scrypt") ?? []);
  const factor = median(samples.get(`bcrypt ${cost}`) ?? []) / scryptMs;
  const steps = Math.max(1, Math.ceil(Math.abs(Math.log2(factor))));
  const otherCost = Math.min(MAX_COST, Math.max(MIN_COST, factor > 1 ? cost - steps : cost + steps));
  if (!hashers.has(otherCost)) await time([otherCost]);
  const bcryptMs = new Map(
    [...hashers.keys()].sort((a, b) => a - b).map((c) => [c, median(samples.get(`bcrypt ${c}`) ?? [])] as const),
  );
  return { scryptMs, bcryptMs, cost, otherCost: otherCost === cost ? null : otherCost };
}

// ---------------------------------------------------------------------------------------------
// The systems under test and the measurements

interface System {
  name: string;
  /** The better-auth API's base URL. */
  api: string;
  origin: string;
  /** The Cookie header of a signed-in browser, and its session token. */
  cookie: string;
  token: string;
}

interface Measurement {
  figures: Figures;
  cpu: CpuUse | null;
}

interface Measured {
  getSession: Measurement;
  signIn: Measurement;
  /** Tollgate only: sign-in of a user whose password was hashed at the other cost. */
  signInOtherCost: Measurement | null;
  /** get-session and sign-in at the same time; the CPU figures cover both. */
  both: { getSession: Figures; signIn: Figures; cpu: CpuUse | null };
}

const getSession = (system: System): Target => ({
  url: `${system.api}/get-session`,
  method: "GET",
  headers: { cookie: system.cookie },
  // Both servers send compact JSON: the session must be this browser's and the user this one.
  verify: (body) => body.includes(`"token":"${system.token}"`) && body.includes(`"email":"${EMAIL}"`),
});

const signIn = (system: System, email = EMAIL): Target => ({
  url: `${system.api}/sign-in/email`,
  method: "POST",
  headers: { "content-type": "application/json", origin: system.origin },
  body: JSON.stringify({ email, password: PASSWORD }),
  verify: (body) => body.includes(`"token":"`) && body.includes(`"email":"${email}"`),
});

async function post(api: string, path: string, body: object): Promise<Response> {
  const response = await fetch(`${api}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(api).origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${api}${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

const signUp = (api: string, email: string) => post(api, "/sign-up/email", { name: "Bench", email, password: PASSWORD });

/** Signs the user up, then in, and checks that the cookie opens the session: the bench's browser. */
async function signedIn(name: string, api: string): Promise<System> {
  await signUp(api, EMAIL);
  const response = await post(api, "/sign-in/email", { email: EMAIL, password: PASSWORD });
  const { token } = (await response.json()) as { token?: unknown };
  if (typeof token !== "string") throw new Error(`${name}: sign-in returned no token`);
  const cookie = response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  const system = { name, api, origin: new URL(api).origin, cookie, token };
  const check = await fetch(`${api}/get-session`, { headers: { cookie } });
  const body = await check.text();
  if (!check.ok || !getSession(system).verify(body)) throw new Error(`${name}: get-session with the new cookie answered ${check.status}: ${body}`);
  return system;
}

/** Waits for the servers to finish what the previous run left queued. */
async function settled(groups: () => Promise<CpuGroups>): Promise<void> {
  const { gateway = [], auth = [], "better-auth": betterAuth = [] } = await groups();
  if (!(await settle([...gateway, ...auth, ...betterAuth]))) progress("  the servers are still busy after 10 s; measuring anyway");
}

/** The node servers' processes, whose event loops are told apart from their other threads. */
async function serverPids(groups: () => Promise<CpuGroups>): Promise<number[]> {
  const { gateway = [], auth = [], "better-auth": betterAuth = [] } = await groups();
  return [...gateway, ...auth, ...betterAuth];
}

/** One autocannon run per target, all at once, with the CPU every process used meanwhile. */
async function runTogether(targets: Target[], seconds: number, groups: () => Promise<CpuGroups>): Promise<{ figures: Figures[]; cpu: CpuUse | null }> {
  await settled(groups);
  const servers = await serverPids(groups);
  const before = await snapshot(servers);
  const figures = await Promise.all(targets.map((target) => load(target, { connections: CONNECTIONS, seconds })));
  const after = await snapshot(servers);
  if (failure) throw failure;
  stopIfInterrupted();
  return { figures, cpu: await cpuUse(before, after, await groups()) };
}

interface Run {
  label: string;
  /** Run at the same time; figures come back in this order. */
  targets: Target[];
}

/**
 * Measures each run for BENCH_SECONDS in BENCH_ROUNDS rounds, taking turns: on a machine others use
 * too, whatever else runs meanwhile then falls on Tollgate and better-auth alike, not on one of them.
 */
async function interleaved(runs: Run[], groups: () => Promise<CpuGroups>): Promise<{ figures: Figures[]; cpu: CpuUse | null }[]> {
  const rounds = runs.map(() => ({ figures: [] as Figures[][], cpu: [] as (CpuUse | null)[] }));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [index, run] of runs.entries()) {
      const result = await runTogether(run.targets, SECONDS / ROUNDS, groups);
      rounds[index]?.figures.push(result.figures);
      rounds[index]?.cpu.push(result.cpu);
      const said = result.figures.map((f, n) => `${run.targets.length > 1 ? `${["get-session", "sign-in"][n] ?? n} ` : ""}${formatRate(f.rps)}, p50 ${formatMs(f.p50)}, p99 ${formatMs(f.p99)}${f.failures > 0 ? `, BROKEN: ${f.failureKinds}` : ""}`);
      progress(`  ${run.label}${ROUNDS > 1 ? ` (${round}/${ROUNDS})` : ""}: ${said.join("; ")}`);
    }
  }
  return rounds.map(({ figures, cpu }) => ({
    figures: (figures[0] ?? []).map((_, n) => merge(figures.map((together) => together[n]).filter((f): f is Figures => f !== undefined))),
    cpu: mergeCpu(cpu),
  }));
}

async function measureBoth(
  tollgate: System,
  better: System,
  groups: () => Promise<CpuGroups>,
  cost: number,
  otherUser: { cost: number; email: string } | null,
): Promise<{ t: Measured; b: Measured }> {
  progress(`warming up, ${WARM_UP_SECONDS} s each: get-session and sign-in on Tollgate, then on better-auth`);
  for (const target of [getSession(tollgate), signIn(tollgate), getSession(better), signIn(better)]) {
    const warm = await load(target, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS });
    if (failure) throw failure;
    stopIfInterrupted();
    if (warm.failures > 0) throw new Error(`${target.url} fails while warming up (${warm.failureKinds}); nothing would be worth measuring`);
  }
  const each = `${CONNECTIONS} connections, ${SECONDS} s each${ROUNDS > 1 ? ` in ${ROUNDS} rounds taking turns` : ""}`;
  progress(`get-session, ${each}`);
  const [tGetSession, bGetSession] = await interleaved(
    [
      { label: "Tollgate get-session", targets: [getSession(tollgate)] },
      { label: "better-auth get-session", targets: [getSession(better)] },
    ],
    groups,
  );
  progress(`sign-in/email, ${each}`);
  const signIns = await interleaved(
    [
      { label: `Tollgate sign-in${otherUser ? `, bcrypt ${cost}` : ""}`, targets: [signIn(tollgate)] },
      ...(otherUser ? [{ label: `Tollgate sign-in, bcrypt ${otherUser.cost}`, targets: [signIn(tollgate, otherUser.email)] }] : []),
      { label: "better-auth sign-in", targets: [signIn(better)] },
    ],
    groups,
  );
  progress(`get-session while sign-in/email is saturated, ${each}`);
  const [tBoth, bBoth] = await interleaved(
    [
      { label: "Tollgate get-session + sign-in", targets: [getSession(tollgate), signIn(tollgate)] },
      { label: "better-auth get-session + sign-in", targets: [getSession(better), signIn(better)] },
    ],
    groups,
  );
  const measurement = (result: { figures: Figures[]; cpu: CpuUse | null } | undefined): Measurement => {
    const figures = result?.figures[0];
    if (!figures) throw new Error("a measurement is missing");
    return { figures, cpu: result.cpu };
  };
  const both = (result: { figures: Figures[]; cpu: CpuUse | null } | undefined) => {
    const [getSessionFigures, signInFigures] = result?.figures ?? [];
    if (!getSessionFigures || !signInFigures) throw new Error("a measurement is missing");
    return { getSession: getSessionFigures, signIn: signInFigures, cpu: result?.cpu ?? null };
  };
  return {
    t: {
      getSession: measurement(tGetSession),
      signIn: measurement(signIns[0]),
      signInOtherCost: otherUser ? measurement(signIns[1]) : null,
      both: both(tBoth),
    },
    b: { getSession: measurement(bGetSession), signIn: measurement(signIns.at(-1)), signInOtherCost: null, both: both(bBoth) },
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers

async function waitUntilAnswering(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    stopIfInterrupted();
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Set by Ctrl-C: the bench stops measuring, and main's clean-up runs. */
let interrupted = false;
/** Set when a server exits on its own: the measurement in progress is stopped and the bench fails. */
let failure: Error | null = null;
function stopIfInterrupted(): void {
  if (interrupted) throw new Error("interrupted");
}


// ---------------------------------------------------------------------------------------------
// Set-up, the measurements, the report, and removal of everything created

async function main(): Promise<void> {
  const id = randomBytes(4).toString("hex");
  const ours = `bench_auth_${id}`;
  const theirs = `bench_better_auth_${id}`;
  const prefix = `bench_${id}`;
  const admin = createDatabase({ url: withDatabase(SERVER_URL, "postgres"), schema: "public", poolMax: 1 });
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const processes = new Processes((name, status) => {
    failure ??= new Error(`${name} exited unexpectedly (${status}); see its output above`);
    stopAllLoad();
  });
  process.on("exit", () => processes.killAll());
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // A Ctrl-C reaches this process twice under `tsx` (from the terminal and relayed by tsx's CLI).
    if (interrupted && performance.now() - firstSignalAt < 1_000) return;
    if (interrupted) {
      progress(`${signal} again: killing the servers; the databases, stream and keys are still removed`);
      processes.killAll();
      return;
    }
    interrupted = true;
    firstSignalAt = performance.now();
    progress(`${signal}: stopping the measurement, then cleaning up (again to kill the servers at once)`);
    stopAllLoad();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);

  const created = { ours: false, theirs: false };
  try {
    progress(`timing one password hash each way, median of ${HASH_SAMPLES}: better-auth's scrypt and Tollgate's bcrypt`);
    const hashes = await timeHashes();
    const factor = (cost: number) => `${((hashes.bcryptMs.get(cost) ?? NaN) / hashes.scryptMs).toFixed(2)}×`;
    progress(`  scrypt ${hashes.scryptMs.toFixed(0)} ms; ${[...hashes.bcryptMs].map(([cost, ms]) => `bcrypt ${cost} ${ms.toFixed(0)} ms (${factor(cost)})`).join(", ")}`);
    if (hashes.otherCost !== null) {
      progress(`  sign-in is measured at bcrypt ${hashes.cost} and ${hashes.otherCost}, on scrypt's two sides, and interpolated to equal work`);
    }

    progress(`creating databases ${ours} and ${theirs}`);
    await admin.raw("create database ??", [ours]);
    created.ours = true;
    await admin.raw("create database ??", [theirs]);
    created.theirs = true;
    await redis.connect();

    const [authPort, gatewayPort, betterPort] = await freePorts(3);
    const identityKeys = generateIdentityKeys();
    const secret = randomBytes(32).toString("hex");
    const production = { NODE_ENV: "production", LOG_LEVEL: "warn", SHUTDOWN_TIMEOUT_MS: "5000" };
    const tollgate = {
      ...production,
      AUTH_SECRET: secret,
      IDENTITY_VERIFY_KEYS: identityKeys.verifyKey,
      DATABASE_URL: withDatabase(SERVER_URL, ours),
      NATS_URL,
      NATS_PREFIX: prefix,
      REDIS_URL,
      REDIS_PREFIX: `${prefix}:`,
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      HOST: "127.0.0.1",
    };
    const urls = {
      auth: `http://127.0.0.1:${authPort}/readyz`,
      gateway: `http://127.0.0.1:${gatewayPort}/readyz`,
      "better-auth": `http://127.0.0.1:${betterPort}/api/auth/ok`,
    };
    const ready = (...names: (keyof typeof urls)[]) =>
      Promise.race([Promise.all(names.map((name) => waitUntilAnswering(urls[name]))), ...names.map((name) => processes.exitOf(name))]);
    // A directory per process: tsx's loader thread writes a profile too, under its own name.
    const profile = (name: string) => (CPU_PROFILES ? ["--cpu-prof", `--cpu-prof-dir=${resolve(CPU_PROFILES, `${id}-${name}`)}`] : []);
    const startAuth = (cost: number) =>
      processes.start("auth", "services/auth/src/main.ts", { ...tollgate, PORT: String(authPort), BCRYPT_COST: String(cost) }, profile(`auth-bcrypt-${cost}`));

    progress(`starting Tollgate's auth service and gateway (NATS prefix ${prefix}, Redis prefix ${prefix}:) and a better-auth server`);
    startAuth(hashes.otherCost ?? hashes.cost);
    processes.start(
      "gateway",
      "gateway/src/main.ts",
      { ...tollgate, PORT: String(gatewayPort), IDENTITY_SIGNING_KEY: identityKeys.signingKey, AUTH_URL: `http://127.0.0.1:${authPort}`, RATE_LIMIT_ENABLED: "false" },
      profile("gateway"),
    );
    processes.start(
      "better-auth",
      "bench/auth/better-auth-server.ts",
      { ...production, DATABASE_URL: withDatabase(SERVER_URL, theirs), PORT: String(betterPort), BETTER_AUTH_SECRET: secret },
      profile("better-auth"),
    );
    await ready("auth", "gateway", "better-auth");

    const ourApi = `http://127.0.0.1:${gatewayPort}/api/auth`;
    const otherUser = hashes.otherCost === null ? null : { cost: hashes.otherCost, email: `bench-bcrypt-${hashes.otherCost}@example.com` };
    if (otherUser) {
      // bcrypt keeps the cost in the hash: a user signed up now verifies at this cost from then on,
      // as after a deployment changes BCRYPT_COST.
      progress(`signing a user up on Tollgate at bcrypt ${otherUser.cost}, then restarting auth at ${hashes.cost}`);
      await signUp(ourApi, otherUser.email);
      await processes.stop("auth", 10_000);
      startAuth(hashes.cost);
      await ready("auth");
    }
    progress("signing a user up and in on each");
    const ourSystem = await signedIn("Tollgate", ourApi);
    const theirSystem = await signedIn("better-auth", `http://127.0.0.1:${betterPort}/api/auth`);

    const redisPid = Number(/process_id:(\d+)/.exec(await redis.info("server"))?.[1] ?? NaN);
    const groups = async (): Promise<CpuGroups> => {
      // The two databases' backends, and the server's own processes (WAL writer, checkpointer...).
      const backends = await admin
        .select<{ pid: number }[]>("pid")
        .from("pg_stat_activity")
        .where((where) => void where.whereIn("datname", [ours, theirs]).orWhereNull("datname"));
      const pid = (name: string) => processes.pid(name) ?? NaN;
      return {
        gateway: [pid("gateway")],
        auth: [pid("auth")],
        "better-auth": [pid("better-auth")],
        postgres: backends.map((backend) => backend.pid),
        redis: [redisPid],
        autocannon: [process.pid],
      };
    };

    const { t, b } = await measureBoth(ourSystem, theirSystem, groups, hashes.cost, otherUser);
    progress(`second factor: ${ROUNDS} × ${SECOND_FACTOR_SIGN_INS} sign-ins each way, one at a time`);
    await settled(groups);
    const factors = await measureSecondFactors(
      [
        { ...ourSystem, cpuGroups: ["gateway", "auth", "postgres", "redis"] },
        { ...theirSystem, cpuGroups: ["better-auth", "postgres"] },
      ],
      { password: PASSWORD, baselineEmail: EMAIL, signIns: SECOND_FACTOR_SIGN_INS, rounds: ROUNDS, groups, progress },
    );
    const versions = {
      postgres: (await admin.raw<{ rows: { server_version: string }[] }>("show server_version")).rows[0]?.server_version ?? "?",
      redis: /redis_version:(\S+)/.exec(await redis.info("server"))?.[1] ?? "?",
    };
    console.log(report({ t, b, hashes, versions }) + secondFactorReport(factors, SECOND_FACTOR_SIGN_INS, ROUNDS));
  } finally {
    const attempt = async (what: string, step: () => Promise<unknown>) => {
      await step().catch((error: unknown) => console.error(`could not ${what}:`, error));
    };
    stopAllLoad();
    await attempt("stop the servers", () => processes.stopAll(10_000));
    if (created.ours) await attempt(`drop database ${ours}`, () => admin.raw("drop database if exists ?? with (force)", [ours]));
    if (created.theirs) await attempt(`drop database ${theirs}`, () => admin.raw("drop database if exists ?? with (force)", [theirs]));
    await attempt("close the Postgres connection", () => admin.destroy());
    const stream = busNames(prefix).eventStream;
    await attempt(`delete stream ${stream}`, async () => {
      const nc = await connect({ servers: NATS_URL });
      try {
        await (await jetstreamManager(nc)).streams.delete(stream).catch((error: unknown) => {
          // 10059: no such stream, when the servers never got as far as creating it.
          if (!(error instanceof JetStreamApiError) || error.code !== 10059) throw error;
        });
      } finally {
        await nc.close();
      }
    });
    await attempt(`delete Redis keys ${prefix}:*`, async () => {
      if (redis.status !== "ready") await redis.connect();
      for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
        if (keys.length > 0) await redis.unlink(...keys);
      }
    });
    redis.disconnect();
    progress(`removed the servers, databases ${ours} and ${theirs}, stream ${stream} and keys ${prefix}:*`);
    if (CPU_PROFILES) progress(`CPU profiles are in ${resolve(CPU_PROFILES)}/${id}-*/ (the largest file in each is the main thread's)`);
  }
}

// ---------------------------------------------------------------------------------------------
// The report

/**
 * Other processes using this share of a core or more during a measurement disturb its figures:
 * those still running at its end are named; CPU time nobody in the table accounts for (processes
 * that came and went meanwhile, and the kernel's own work) shows in the `other` column.
 */
const DISTURBED_CORES = 0.15;
const disturbance = (cpu: CpuUse | null) =>
  Math.max((cpu?.others ?? []).reduce((sum, other) => sum + other.cores, 0), cpu?.cores.other ?? 0);

/**
 * A sign-in measurement's CPU per sign-in, in ms, by where it went: the server's threads besides its
 * event loop (where it hashes), its event loop, and the rest of its stack (the gateway and Redis are
 * Tollgate's alone). Null without /proc.
 */
function signInCpu({ figures, cpu }: Measurement, server: "auth" | "better-auth") {
  if (!cpu || figures.rps === 0) return null;
  const ms = (cores: number) => (cores * 1000) / figures.rps;
  const eventLoop = cpu.mainThreadCores[server] ?? 0;
  const stack = server === "auth" ? { gateway: ms(cpu.cores.gateway ?? 0), redis: ms(cpu.cores.redis ?? 0) } : { gateway: null, redis: null };
  const parts = { threads: ms((cpu.cores[server] ?? 0) - eventLoop), eventLoop: ms(eventLoop), postgres: ms(cpu.cores.postgres ?? 0), ...stack };
  const outsideHashing = parts.eventLoop + parts.postgres + (parts.gateway ?? 0) + (parts.redis ?? 0);
  return { ...parts, outsideHashing, total: parts.threads + outsideHashing };
}

interface ReportInput {
  t: Measured;
  b: Measured;
  hashes: HashTimes;
  versions: { postgres: string; redis: string };
}

function report({ t, b, hashes, versions }: ReportInput): string {
  const { cost, otherCost, scryptMs } = hashes;
  const bcryptMs = (c: number) => hashes.bcryptMs.get(c) ?? NaN;
  /** A verdict on figures with failed requests is void; one on disturbed measurements says so. */
  const verdict = (met: boolean, ...measurements: Measurement[]) => {
    if (measurements.some((m) => m.figures.failures > 0)) return "BROKEN (failed requests)";
    const outcome = met ? "met" : "MISSED";
    return measurements.some((m) => disturbance(m.cpu) >= DISTURBED_CORES) ? `${outcome} (disturbed, see above)` : outcome;
  };
  const cell = (f: Figures) =>
    `${Math.round(f.rps).toLocaleString("en-US").padStart(7)}${[f.p50, f.p99, f.max].map((value) => (value < 10 ? value.toFixed(1) : `${Math.round(value)}`).padStart(6)).join("")}`;
  const row = (label: string, ours: Figures, theirs: Figures) => {
    const broken = [ours, theirs].filter((f) => f.failures > 0).map((f) => f.failureKinds);
    const ratio = `${(ours.rps / theirs.rps).toFixed(2)}×`.padStart(9);
    return `  ${label.padEnd(40)}${cell(ours)}   ${cell(theirs)}${ratio}${broken.length ? `   BROKEN: ${broken.join("; ")}` : ""}`;
  };
  const ceiling = (hashMs: number) => ((HASH_THREADS * 1000) / hashMs).toFixed(1);

  const getSessionRatio = t.getSession.figures.rps / b.getSession.figures.rps;
  const underLoadFactor = t.both.getSession.p99 / t.getSession.figures.p99;
  // Sign-in at each cost, against better-auth; at equal work by log-log interpolation between two
  // costs (sign-in is hash-bound, so req/s goes as 1/hash work), or as measured when one matches.
  // The work is what hashing cost in the servers during the measurement: the CPU of their threads
  // besides the event loop, per sign-in. One hash timed in the bench's own process before the servers
  // start is kept beside it, and used without /proc: on a machine others share, a hash's wall time
  // there moved by half between runs (and scrypt, which needs 16 MB a hash, costs more CPU with four
  // at once than alone), enough to move the interpolated ratio by a fifth.
  const theirHashing = signInCpu(b.signIn, "better-auth")?.threads ?? null;
  const signIns = [{ cost, measured: t.signIn }, ...(otherCost !== null && t.signInOtherCost ? [{ cost: otherCost, measured: t.signInOtherCost }] : [])].map((entry) => {
    const hashing = signInCpu(entry.measured, "auth")?.threads ?? null;
    const timedWork = bcryptMs(entry.cost) / scryptMs;
    const measuredWork = hashing !== null && theirHashing !== null ? hashing / theirHashing : null;
    return { ...entry, figures: entry.measured.figures, ratio: entry.measured.figures.rps / b.signIn.figures.rps, timedWork, measuredWork, work: measuredWork ?? timedWork };
  });
  const [first, second] = signIns;
  const interpolated = (work: (entry: (typeof signIns)[number]) => number) =>
    first && second
      ? Math.exp(Math.log(second.ratio) + ((0 - Math.log(work(second))) * (Math.log(first.ratio) - Math.log(second.ratio))) / (Math.log(work(first)) - Math.log(work(second))))
      : (first?.ratio ?? NaN);
  const equalWorkRatio = interpolated((entry) => entry.work);
  const equalTimedWorkRatio = interpolated((entry) => entry.timedWork);
  const workSource = signIns.every((entry) => entry.measuredWork !== null) ? "by the servers' hashing CPU" : "by one hash's time";
  const signInMeasurements = [...signIns.map((entry) => entry.measured), b.signIn];
  const underLoad = { figures: t.both.getSession, cpu: t.both.cpu };

  const cpuColumns = ["gateway", "auth", "better-auth", "postgres", "redis", "autocannon", "other"];
  const phases = [
    { label: "Tollgate get-session", cpu: t.getSession.cpu, rps: t.getSession.figures.rps },
    ...signIns.map((entry, index) => ({
      label: `Tollgate sign-in${signIns.length > 1 ? `, bcrypt ${entry.cost}` : ""}`,
      cpu: index === 0 ? t.signIn.cpu : (t.signInOtherCost?.cpu ?? null),
      rps: entry.figures.rps,
    })),
    { label: "Tollgate get-session + sign-in", cpu: t.both.cpu, rps: t.both.getSession.rps + t.both.signIn.rps },
    { label: "better-auth get-session", cpu: b.getSession.cpu, rps: b.getSession.figures.rps },
    { label: "better-auth sign-in", cpu: b.signIn.cpu, rps: b.signIn.figures.rps },
    { label: "better-auth get-session + sign-in", cpu: b.both.cpu, rps: b.both.getSession.rps + b.both.signIn.rps },
  ];
  const cpuRow = ({ label, cpu, rps }: { label: string; cpu: CpuUse | null; rps: number }) => {
    if (!cpu) return `  ${label.padEnd(36)}(no /proc here)`;
    const cores = cpuColumns.map((column) => `${Math.round((cpu.cores[column] ?? 0) * 100)}`.padStart(column.length + 2));
    return `  ${label.padEnd(36)}${cores.join("")}${`${Math.round(cpu.machineCores * 100)}`.padStart(9)}${`${Math.round((cpu.machineCores * 1e6) / rps)}`.padStart(9)}`;
  };
  const signInCpuRows = [
    ...signIns.map((entry) => ({ label: `Tollgate${signIns.length > 1 ? `, bcrypt ${entry.cost}` : ""}`, parts: signInCpu(entry.measured, "auth") })),
    { label: "better-auth", parts: signInCpu(b.signIn, "better-auth") },
  ];
  const theirs = signInCpuRows.at(-1)?.parts;
  const cpuRatios = signIns.map((entry, index) => {
    const ours = signInCpuRows[index]?.parts;
    return ours && theirs ? `${(theirs.total / (ours.outsideHashing + theirs.threads)).toFixed(2)}× (bcrypt ${entry.cost})` : "?";
  });
  const msCell = (value: number | null) => (value === null ? "-" : value.toFixed(1)).padStart(10);
  const signInCpuTable = signInCpuRows
    .map(({ label, parts }) =>
      parts
        ? `  ${label.padEnd(28)}${[parts.threads, parts.eventLoop, parts.gateway, parts.postgres, parts.redis, parts.total, parts.outsideHashing].map(msCell).join("")}`
        : `  ${label.padEnd(28)}(no /proc here)`,
    )
    .join("\n");

  const disturbed = phases
    .filter((phase) => disturbance(phase.cpu) >= DISTURBED_CORES)
    .map((phase) => {
      const named = (phase.cpu?.others ?? []).map((other) => `pid ${other.pid} ${other.command} (${Math.round(other.cores * 100)} %)`);
      return `  ! ${phase.label}: ${named.length > 0 ? named.join("; ") : `${Math.round((phase.cpu?.cores.other ?? 0) * 100)} % by processes gone by its end`}`;
    });
  const line = (label: string, value: string, outcome: string) => `  ${label.padEnd(64)}${value.padEnd(26)}${outcome}`;

  return `
auth bench — ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? "?"}), node ${process.version}, Postgres ${versions.postgres}, Redis ${versions.redis}
autocannon in the bench's process, ${CONNECTIONS} connections per run, ${SECONDS} s per measurement${ROUNDS > 1 ? ` (${ROUNDS} rounds, Tollgate and better-auth taking turns)` : ""}, ${WARM_UP_SECONDS} s warm-ups;
servers with NODE_ENV=production, LOG_LEVEL=warn, the gateway's rate limits off

password hashing, one hash (median of ${HASH_SAMPLES}, servers not yet started)
  better-auth scrypt (N=16384, r=16, p=1)   ${scryptMs.toFixed(0).padStart(5)} ms
${[...hashes.bcryptMs]
  .map(([c, hashMs]) => `  Tollgate bcrypt, cost ${String(c).padEnd(19)}${hashMs.toFixed(0).padStart(5)} ms   ${(hashMs / scryptMs).toFixed(2)}× scrypt${c === cost ? "   ← BCRYPT_COST" : c === otherCost ? "   ← second sign-in user" : ""}`)
  .join("\n")}
  bcrypt ${cost} ${Math.abs(Math.log(bcryptMs(cost) / scryptMs)) <= Math.log(EQUAL_WORK_TOLERANCE) ? "is" : "is not"} within ${EQUAL_WORK_TOLERANCE}× of scrypt's time${otherCost === null ? "" : `; sign-in is also measured at ${otherCost}, on scrypt's other side, and interpolated`}
  sign-in ceiling if hash-bound (${HASH_THREADS} hashes at once): ${signIns.map((entry) => `bcrypt ${entry.cost} ${ceiling(bcryptMs(entry.cost))}/s`).join(", ")}, scrypt ${ceiling(scryptMs)}/s

                                              Tollgate (gateway → auth)         better-auth            ratio
                                             req/s   p50   p99   max      req/s   p50   p99   max   (req/s)
${row("get-session, signed in", t.getSession.figures, b.getSession.figures)}
${signIns.map((entry) => row(`sign-in/email${signIns.length > 1 ? `, bcrypt ${entry.cost}` : ""}`, entry.figures, b.signIn.figures)).join("\n")}
${row("get-session while sign-in is saturated", t.both.getSession, b.both.getSession)}
${row(`  sign-in/email meanwhile${signIns.length > 1 ? `, bcrypt ${cost}` : ""}`, t.both.signIn, b.both.signIn)}
  latencies in ms, of every response; a request counts only with a 2xx status and the right body

CPU, % of one core                      ${cpuColumns.map((column) => column.padStart(column.length + 2)).join("")}  machine   µs/req
${phases.map(cpuRow).join("\n")}
  machine: every process on the ${availableParallelism()} CPUs (${availableParallelism() * 100} at most); µs/req: the machine's CPU time per request served

CPU per sign-in, ms                 threads event loop   gateway  postgres     redis     total  outside hashing
${signInCpuTable}
  threads: the server's threads other than its event loop (libuv's pool, which hashes, and V8's helpers);
  outside hashing: everything else the sign-in cost. Other work on the machine slows every thread alike
  but does not add to these, so they move less than req/s. Sign-in at equal hash work judged by CPU
  (better-auth's CPU per sign-in over Tollgate's outside hashing plus better-auth's threads): ${cpuRatios.join(", ")}
${disturbed.length > 0 ? `  other processes used ≥ ${DISTURBED_CORES * 100} % of a core during these measurements; their figures are disturbed:\n${disturbed.join("\n")}\n` : ""}
targets
${line(`get-session ≥ ${TARGETS.getSessionRatio}× better-auth's req/s`, `${getSessionRatio.toFixed(2)}×`, verdict(getSessionRatio >= TARGETS.getSessionRatio, t.getSession, b.getSession))}
${line(`get-session p99 ≤ ${TARGETS.getSessionP99Ms} ms`, formatMs(t.getSession.figures.p99), verdict(t.getSession.figures.p99 <= TARGETS.getSessionP99Ms, t.getSession))}
${signIns.map((entry) => line(`sign-in at bcrypt ${entry.cost} (${entry.work.toFixed(2)}× the hash work) / better-auth's`, `${entry.ratio.toFixed(2)}×`, signIns.length > 1 ? "" : verdict(entry.ratio >= TARGETS.signInRatio, ...signInMeasurements))).join("\n")}
${signIns.length > 1 ? `${line(`sign-in ≥ ${TARGETS.signInRatio}× better-auth's at equal hash work (interpolated)`, `${equalWorkRatio.toFixed(2)}×`, verdict(equalWorkRatio >= TARGETS.signInRatio, ...signInMeasurements))}\n${line("  the same, by one hash's time in the bench's process", `${equalTimedWorkRatio.toFixed(2)}×`, "")}\n  hash work judged ${workSource}\n` : ""}${line(`get-session p99 under sign-in load ≤ ${TARGETS.underLoadP99Factor}× idle`, `${formatMs(t.both.getSession.p99)} vs ${formatMs(t.getSession.figures.p99)} (${underLoadFactor.toFixed(1)}×)`, verdict(underLoadFactor <= TARGETS.underLoadP99Factor, t.getSession, underLoad))}

per request
  Tollgate get-session     the gateway alone: cookie signature (HMAC), one Redis GET of the cached session,
                           the answer rendered from it; auth is asked (over NATS) only on a cache miss or
                           when the session's expiry is due to slide
  better-auth get-session  one process: cookie signature, the session and its user read from Postgres
  Tollgate sign-in         gateway (origin check, proxy with a signed identity token) → auth: user and
                           credential account read, bcrypt compare on libuv's pool, session inserted
  better-auth sign-in      one process: user and account read, scrypt on libuv's pool, session inserted
`;
}

main().catch((error: unknown) => {
  if (interrupted) {
    process.exitCode = 130;
    return;
  }
  console.error(error);
  process.exitCode = 1;
});
