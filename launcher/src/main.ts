import { ConfigError, StartupError } from "@tollgate/kit";
import { loadLauncherConfig, type LauncherConfig } from "./config.js";
import { linePrinter } from "./output.js";
import { freePorts, waitUntilReady } from "./ports.js";
import { preflight } from "./preflight.js";
import { Supervisor } from "./supervisor.js";

/** Every service, with the gateway variable that points at it. */
const SERVICES = [
  { name: "auth", entry: "@tollgate/auth/main", urlVariable: "AUTH_URL" },
  { name: "organization", entry: "@tollgate/organization/main", urlVariable: "ORGANIZATION_URL" },
  { name: "billing", entry: "@tollgate/billing/main", urlVariable: "BILLING_URL" },
  { name: "webhook-dispatcher", entry: "@tollgate/webhook-dispatcher/main", urlVariable: "WEBHOOKS_URL" },
] as const;

const say = linePrinter("tollgate", 0, "pretty");
const announce = (msg: string) => say(JSON.stringify({ level: 30, time: Date.now(), msg }));

function sharedEnv(config: LauncherConfig): Record<string, string> {
  return {
    DATABASE_URL: config.DATABASE_URL,
    NATS_URL: config.NATS_URL,
    REDIS_URL: config.REDIS_URL,
    LOG_LEVEL: config.LOG_LEVEL,
    IDENTITY_TOKEN_SECRET: config.IDENTITY_TOKEN_SECRET,
    AUTH_SECRET: config.AUTH_SECRET,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
  };
}

/**
 * `start` (default): check dependencies, migrate every schema, run every service and the gateway
 * until Ctrl-C or SIGTERM. `migrate`: the first two steps only. Resolves with the exit code.
 */
async function main(command: string): Promise<number> {
  if (command !== "start" && command !== "migrate") {
    process.stderr.write(`tollgate: unknown command "${command}"; expected start or migrate\n`);
    return 64;
  }
  const config = loadLauncherConfig();

  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const supervisor = new Supervisor(config.LOG_FORMAT, (name, code) => {
    announce(`${name} exited unexpectedly (code ${code}); stopping Tollgate`);
    stop(1);
  });
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

  announce("checking Postgres, NATS and Redis");
  await preflight(config);
  const migrations = await Promise.all(
    SERVICES.map(async (service) => ({
      service: service.name,
      code: await supervisor.run({ name: service.name, entry: service.entry, args: ["migrate"], env: sharedEnv(config) }),
    })),
  );
  const failed = migrations.filter(({ code }) => code !== 0).map(({ service }) => service);
  if (failed.length > 0) throw new StartupError(`migrating ${failed.join(", ")} failed; see the output above`);
  if (command === "migrate" || stopping) {
    stop(0);
    return finished;
  }

  const gatewayEnv: Record<string, string> = { ...sharedEnv(config), PORT: String(config.PORT) };
  const children = [];
  const ports = await freePorts(SERVICES.length, new Set([config.PORT]));
  for (const [service, port] of SERVICES.map((service, index) => [service, ports[index] ?? 0] as const)) {
    gatewayEnv[service.urlVariable] = `http://127.0.0.1:${port}`;
    const child = supervisor.start({ name: service.name, entry: service.entry, env: { ...sharedEnv(config), PORT: String(port) } });
    children.push({ url: `http://127.0.0.1:${port}`, child });
  }
  const gateway = supervisor.start({ name: "gateway", entry: "@tollgate/gateway/main", env: gatewayEnv });
  children.push({ url: `http://127.0.0.1:${config.PORT}`, child: gateway });

  Promise.all(children.map(({ url, child }) => waitUntilReady(url, () => child.child.exitCode === null && !stopping))).then(
    () => announce(`Tollgate is ready at http://localhost:${config.PORT} (Ctrl-C stops it)`),
    (error: unknown) => {
      if (stopping) return;
      announce(`Tollgate did not become ready: ${error instanceof Error ? error.message : String(error)}`);
      stop(1);
    },
  );
  return finished;
}

main(process.argv[2] ?? "start").then(
  (code) => {
    announce(code === 0 ? "stopped" : `stopped with exit code ${code}`);
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
