/**
 * `npm run bench:auth` — signed-in get-session and sign-in/email through Tollgate's gateway, beside
 * a plain better-auth server on the same Postgres, with autocannon. Prints figures; asserts nothing.
 *
 * Env: BENCH_SECONDS (per measurement, default 10), BENCH_CONNECTIONS (default 10), DATABASE_URL
 * (any database on the server; throwaway ones are created beside it), NATS_URL, REDIS_URL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { hashPassword } from "better-auth/crypto";
import { Redis } from "ioredis";
import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { createDatabase } from "@tollgate/kit";
import { PasswordHasher } from "../../services/auth/src/credentials/passwords.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const BCRYPT_COST = Number(process.env.BCRYPT_COST ?? 11);
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const started = Date.now();
const progress = (message: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${message}`);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx plus connection errors: a figure with any is not trustworthy. */
  failures: number;
}

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const processes: ChildProcess[] = [];

/** Starts a TypeScript entry point as its own process, as the launcher runs services. */
function run(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", root(entry)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  processes.push(child);
  return child;
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Signs a user up and returns the cookie header the server set, for the signed-in requests. */
async function signUp(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(base).origin },
    body: JSON.stringify({ name: "Bench", email, password }),
  });
  if (!response.ok) throw new Error(`sign-up at ${base} answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .join("; ");
}

async function load(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

async function averageMs(times: number, work: () => Promise<unknown>): Promise<number> {
  await work();
  const begin = performance.now();
  for (let index = 0; index < times; index++) await work();
  return (performance.now() - begin) / times;
}

interface System {
  name: string;
  /** Base URL of the better-auth API. */
  api: string;
  cookie: string;
  email: string;
}

async function measure(system: System, password: string) {
  const getSession = { url: `${system.api}/get-session`, headers: { cookie: system.cookie } };
  const signIn = {
    url: `${system.api}/sign-in/email`,
    method: "POST" as const,
    headers: { "content-type": "application/json", origin: new URL(system.api).origin },
    body: JSON.stringify({ email: system.email, password }),
  };
  progress(`${system.name}: warming up`);
  await autocannon({ ...getSession, connections: CONNECTIONS, duration: 3 });
  progress(`${system.name}: get-session for ${SECONDS} s`);
  const idle = await load(getSession);
  progress(`${system.name}: sign-in/email for ${SECONDS} s`);
  const signIns = await load(signIn);
  progress(`${system.name}: get-session while sign-in is saturated`);
  const [underLoad] = await Promise.all([load(getSession), load(signIn)]);
  return { idle, signIns, underLoad };
}

async function main(): Promise<void> {
  const id = randomBytes(4).toString("hex");
  const ours = `bench_auth_${id}`;
  const theirs = `bench_better_auth_${id}`;
  const prefix = `bench_${id}`;
  const admin = createDatabase({ url: databaseUrl("postgres"), schema: "public", poolMax: 1 });
  const password = "a benchmark password";
  try {
    progress(`creating databases ${ours} and ${theirs}`);
    await admin.raw("create database ??", [ours]);
    await admin.raw("create database ??", [theirs]);

    progress(`timing one password hash each (bcrypt cost ${BCRYPT_COST} vs better-auth's scrypt)`);
    const bcryptMs = await averageMs(5, () => new PasswordHasher(BCRYPT_COST).hash(password));
    const scryptMs = await averageMs(5, () => hashPassword(password));

    const [authPort, gatewayPort, betterPort] = [await freePort(), await freePort(), await freePort()];
    const secrets = { IDENTITY_TOKEN_SECRET: randomBytes(32).toString("hex"), AUTH_SECRET: randomBytes(32).toString("hex") };
    const shared = {
      ...secrets,
      DATABASE_URL: databaseUrl(ours),
      NATS_URL,
      NATS_PREFIX: prefix,
      REDIS_URL,
      REDIS_PREFIX: `${prefix}:`,
      LOG_LEVEL: "warn",
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
    };
    progress("starting Tollgate's auth service and gateway, and a better-auth server");
    run("services/auth/src/main.ts", { ...shared, PORT: String(authPort), BCRYPT_COST: String(BCRYPT_COST) });
    run("gateway/src/main.ts", { ...shared, PORT: String(gatewayPort), AUTH_URL: `http://127.0.0.1:${authPort}`, RATE_LIMIT_ENABLED: "false" });
    run("bench/auth/better-auth-server.ts", { DATABASE_URL: databaseUrl(theirs), PORT: String(betterPort), BETTER_AUTH_SECRET: secrets.AUTH_SECRET });
    await Promise.all([waitFor(`http://127.0.0.1:${gatewayPort}/readyz`), waitFor(`http://127.0.0.1:${authPort}/readyz`), waitFor(`http://127.0.0.1:${betterPort}/api/auth/ok`)]);

    const tollgate: System = { name: "Tollgate", api: `http://127.0.0.1:${gatewayPort}/api/auth`, email: "bench@example.com", cookie: "" };
    const better: System = { name: "better-auth", api: `http://127.0.0.1:${betterPort}/api/auth`, email: "bench@example.com", cookie: "" };
    tollgate.cookie = await signUp(tollgate.api, tollgate.email, password);
    better.cookie = await signUp(better.api, better.email, password);

    const t = await measure(tollgate, password);
    const b = await measure(better, password);
    console.log(report({ t, b, bcryptMs, scryptMs }));
  } finally {
    for (const child of processes) child.kill("SIGTERM");
    await Promise.all(processes.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)))));
    await admin.raw("drop database if exists ?? with (force)", [ours]).catch(() => undefined);
    await admin.raw("drop database if exists ?? with (force)", [theirs]).catch(() => undefined);
    await admin.destroy();
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`${prefix}_events`).catch(() => undefined);
    await nc.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    progress("removed the databases, stream, keys and processes");
  }
}

type Measured = Awaited<ReturnType<typeof measure>>;

function report({ t, b, bcryptMs, scryptMs }: { t: Measured; b: Measured; bcryptMs: number; scryptMs: number }): string {
  const row = (label: string, ours: Figures, theirs: Figures) =>
    `  ${label.padEnd(34)}${Math.round(ours.rps).toLocaleString("en-US").padStart(9)}/s ${`${ours.p50}/${ours.p99} ms`.padStart(13)}` +
    `${Math.round(theirs.rps).toLocaleString("en-US").padStart(11)}/s ${`${theirs.p50}/${theirs.p99} ms`.padStart(13)}` +
    `${(ours.rps / theirs.rps).toFixed(2).padStart(9)}×${ours.failures + theirs.failures > 0 ? `   BROKEN: ${ours.failures}/${theirs.failures} failed requests` : ""}`;
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  return `
auth bench — ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s each
password hash: Tollgate bcrypt cost ${BCRYPT_COST} ${bcryptMs.toFixed(0)} ms, better-auth scrypt ${scryptMs.toFixed(0)} ms

                                        Tollgate     p50/p99     better-auth     p50/p99    ratio
${row("get-session (signed in)", t.idle, b.idle)}
${row("sign-in/email", t.signIns, b.signIns)}
${row("get-session while sign-in saturated", t.underLoad, b.underLoad)}

  get-session ≥ 10× better-auth         ${(t.idle.rps / b.idle.rps).toFixed(2)}×   ${verdict(t.idle.rps >= 10 * b.idle.rps)}
  get-session p99 ≤ 20 ms               ${t.idle.p99} ms   ${verdict(t.idle.p99 <= 20)}
  sign-in ≥ 0.9× better-auth            ${(t.signIns.rps / b.signIns.rps).toFixed(2)}×   ${verdict(t.signIns.rps >= 0.9 * b.signIns.rps)}
  get-session p99 under sign-in ≤ 2× idle  ${t.underLoad.p99} vs ${t.idle.p99} ms   ${verdict(t.underLoad.p99 <= 2 * t.idle.p99)}
`;
}

process.once("SIGINT", () => progress("interrupted; cleaning up"));
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
