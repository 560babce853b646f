import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, StartupError } from "@tollgate/kit";
import { deploymentSecrets, loadLauncherConfig } from "./config.js";
import { environmentFor, GATEWAY, launcherValues, SERVICES, unreadSettings } from "./environments.js";
import { NATS_AUTHORIZATION_FILE, natsAuthorization } from "./nats-authorization.js";
import { linePrinter } from "./output.js";
import { freePorts } from "./ports.js";
import { preflight } from "./preflight.js";
import { Supervisor } from "./supervisor.js";

/**
 * How long a replica stopping on SIGTERM goes on serving while its /readyz says 503 (SHUTDOWN_DRAIN_MS):
 * three of the gateway's readiness checks, so it has stopped sending requests there before the port closes.
 */
const REPLICA_DRAIN_MS = 3_000;

const say = linePrinter("tollgate", 0, "pretty");
const announce = (msg: string) => say(JSON.stringify({ level: 30, time: Date.now(), msg }));
const warn = (msg: string) => say(JSON.stringify({ level: 40, time: Date.now(), msg }));

/**
 * `npm run secrets [file]`: a fresh set of every secret docker compose and Kubernetes ask for, written
 * as `NAME=value` lines to `.env` (or the file named), readable by its owner alone. Written, not
 * printed: npm's own lines on standard output would end up in the file. An existing file is kept.
 */
function writeSecrets(file = ".env"): number {
  const lines = deploymentSecrets();
  try {
    writeFileSync(file, Object.entries(lines).map(([name, value]) => `${name}=${value}\n`).join(""), { mode: 0o600, flag: "wx" });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
    process.stderr.write(`tollgate: ${exists ? `${file} exists already; move it away first (its secrets may be in use)` : `cannot write ${file}: ${String(error)}`}\n`);
    return exists ? 73 : 74;
  }
  process.stdout.write(`Wrote a fresh set of secrets to ${path.resolve(file)} (readable by you alone): ${Object.keys(lines).join(", ")}\n`);
  return 0;
}

/** `npm run nats-config`: writes the NATS server's users and permissions for NATS_PREFIX (tollgate unless set) anew. */
function writeNatsConfig(): number {
  writeFileSync(NATS_AUTHORIZATION_FILE, natsAuthorization(process.env.NATS_PREFIX ?? "tollgate"));
  process.stdout.write(`Wrote the NATS users and permissions to ${NATS_AUTHORIZATION_FILE}\n`);
  return 0;
}

/** The command (`start` when none is given) and the options given with it; null, having said why, when they make no sense. */
function commandLine(args: string[]): { command: string; file: string | undefined; replicas: string | undefined } | null {
  try {
    const { positionals, values } = parseArgs({ args, options: { replicas: { type: "string" } }, allowPositionals: true });
    return { command: positionals[0] ?? "start", file: positionals[1], replicas: values.replicas };
  } catch (error) {
    process.stderr.write(`tollgate: ${error instanceof Error ? error.message : String(error)}; usage: tollgate [start|migrate|secrets|nats-config] [--replicas N]\n`);
    return null;
  }
}

/**
 * `start` (default): check dependencies, migrate every schema, run every service (REPLICAS processes
 * of each) and the gateway until Ctrl-C or SIGTERM. `migrate`: the first two steps only. Resolves
 * with the exit code.
 */
async function main(args: string[]): Promise<number> {
  const given = commandLine(args);
  if (!given) return 64;
  const { command } = given;
  if (command === "secrets") return writeSecrets(given.file);
  if (command === "nats-config") return writeNatsConfig();
  if (command !== "start" && command !== "migrate") {
    process.stderr.write(`tollgate: unknown command "${command}"; expected start, migrate, secrets or nats-config\n`);
    return 64;
  }
  const config = loadLauncherConfig(given.replicas === undefined ? process.env : { ...process.env, REPLICAS: given.replicas });

  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const supervisor = new Supervisor(config.LOG_FORMAT, announce);
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    void supervisor.stopAll().then((clean) => finish(clean ? code : Math.max(code, 1)));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    announce(`${signal} received; stopping every process`);
    stop(0);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  // Each process gets what its config schema declares; a setting meant for us that none declares is said, not lost.
  for (const { name, nearest } of unreadSettings(process.env)) warn(`${name} is set but no process reads it${nearest ? `; did you mean ${nearest}?` : ""}`);
  const values = launcherValues(config, process.env);

  announce("checking Postgres, NATS and Redis");
  await preflight(config);
  const migrations = await Promise.all(
    SERVICES.map(async (service) => ({
      service: service.name,
      code: await supervisor.run({ name: service.name, entry: service.entry, args: ["migrate"], env: environmentFor(service.migrate, values) }),
    })),
  );
  const failed = migrations.filter(({ code }) => code !== 0).map(({ service }) => service);
  if (failed.length > 0) throw new StartupError(`migrating ${failed.join(", ")} failed; see the output above`);
  if (command === "migrate" || stopping) {
    stop(0);
    return finished;
  }

  const gatewayEnv: Record<string, string> = { ...environmentFor(GATEWAY.serve, values), PORT: String(config.PORT) };
  const servers = [];
  const ports = await freePorts(SERVICES.length * config.REPLICAS, new Set([config.PORT]));
  for (const [index, service] of SERVICES.entries()) {
    const urls = ports.slice(index * config.REPLICAS, (index + 1) * config.REPLICAS).map((port) => `http://127.0.0.1:${port}`);
    // The gateway balances over every replica's URL.
    gatewayEnv[service.urlVariable] = urls.join(",");
    const env = environmentFor(service.serve, values, service.libraryVariables);
    // A replica stopping alone (a restart) must not take requests down with it; one process has nobody to hand over to.
    if (config.REPLICAS > 1) env.SHUTDOWN_DRAIN_MS ??= String(REPLICA_DRAIN_MS);
    for (const [replica, url] of urls.entries()) {
      const name = config.REPLICAS > 1 ? `${service.name}#${replica + 1}` : service.name;
      servers.push(supervisor.serve({ name, entry: service.entry, url, env: { ...env, PORT: new URL(url).port } }));
    }
  }
  servers.push(supervisor.serve({ name: GATEWAY.name, entry: GATEWAY.entry, url: `http://127.0.0.1:${config.PORT}`, env: gatewayEnv }));

  Promise.all(servers).then(
    () => announce(`Tollgate is ready at http://localhost:${config.PORT} (Ctrl-C stops it)`),
    (error: unknown) => {
      if (stopping) return;
      announce(`Tollgate did not become ready: ${error instanceof Error ? error.message : String(error)}`);
      stop(1);
    },
  );
  return finished;
}

const args = process.argv.slice(2);
main(args).then(
  (code) => {
    // Only what ran processes has stopped; `secrets` said what it did.
    if (args[0] !== "secrets" && args[0] !== "nats-config") announce(code === 0 ? "stopped" : `stopped with exit code ${code}`);
    process.exit(code);
  },
  (error: unknown) => {
    const lines =
      error instanceof ConfigError
        ? ["cannot start, the configuration is invalid:", ...error.problems]
        : error instanceof StartupError
          ? ["cannot start:", ...error.message.split("\n")]
          : [error instanceof Error ? (error.stack ?? error.message) : String(error)];
    process.stderr.write(`tollgate: ${lines[0]}\n${lines.slice(1).map((line) => `  ${line}\n`).join("")}`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
