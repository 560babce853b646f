import { ConfigError, StartupError } from "@tollgate/kit";
import { verifyKeyOf } from "@tollgate/kit";
import { freshSecrets, loadLauncherConfig, type LauncherConfig, type Secrets } from "./config.js";
import { linePrinter } from "./output.js";
import { freePorts, waitUntilReady } from "./ports.js";
import { preflight } from "./preflight.js";
import { Supervisor } from "./supervisor.js";

interface ServiceProcess {
  name: string;
  /** Package export of its entry point. */
  entry: string;
  /** The gateway's variable that points at it. */
  urlVariable: string;
  /** The launcher's secrets it is given: only those it uses. */
  secrets: readonly (keyof Secrets)[];
}

const SERVICES: readonly ServiceProcess[] = [
  { name: "auth", entry: "@tollgate/auth/main", urlVariable: "AUTH_URL", secrets: ["AUTH_SECRET"] },
  { name: "organization", entry: "@tollgate/organization/main", urlVariable: "ORGANIZATION_URL", secrets: [] },
  { name: "billing", entry: "@tollgate/billing/main", urlVariable: "BILLING_URL", secrets: ["FILE_URL_SECRET"] },
  { name: "webhook-dispatcher", entry: "@tollgate/webhook-dispatcher/main", urlVariable: "WEBHOOKS_URL", secrets: ["WEBHOOK_SECRET_KEYS"] },
];
const GATEWAY_SECRETS: readonly (keyof Secrets)[] = ["AUTH_SECRET", "IDENTITY_SIGNING_KEY"];

const say = linePrinter("tollgate", 0, "pretty");
const announce = (msg: string) => say(JSON.stringify({ level: 30, time: Date.now(), msg }));

/**
 * What every process is started with: the settings they share, and of the secrets only `own`. Secrets
 * the operator's shell holds for one process (a provider's client secret, the S3 key, SMTP_URL) are
 * not handed to the others either, so no process can read more than it needs.
 */
function environmentFor(config: LauncherConfig, own: readonly (keyof Secrets)[], ownPattern: RegExp | null): Record<string, string> {
  const inherited = Object.entries(process.env).filter(([name]) => !SECRET_VARIABLE.test(name) || ownPattern?.test(name));
  const secrets = Object.fromEntries(own.map((name) => [name, config[name]]));
  return {
    ...(Object.fromEntries(inherited) as Record<string, string>),
    DATABASE_URL: config.DATABASE_URL,
    NATS_URL: config.NATS_URL,
    REDIS_URL: config.REDIS_URL,
    LOG_LEVEL: config.LOG_LEVEL,
    IDENTITY_VERIFY_KEYS: config.IDENTITY_VERIFY_KEYS,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    ...secrets,
  };
}

/** Names that hold secrets; only a process that owns one (OWN_SECRETS) inherits it from the launcher's environment. */
const SECRET_VARIABLE = /SECRET|PASSWORD|TOKEN|_KEYS?$|^SMTP_URL$|^IDENTITY_SIGNING_KEY$/;
/** The secret settings each process may inherit from the operator's shell, besides the launcher's own. */
const OWN_SECRETS: Record<string, RegExp> = {
  auth: /^(AUTH_SECRET|TOKEN_ENCRYPTION_KEYS|SMTP_URL|[A-Z]+_CLIENT_SECRET)$/,
  billing: /^(FILE_URL_SECRET|S3_SECRET_ACCESS_KEY)$/,
  "webhook-dispatcher": /^WEBHOOK_SECRET_KEYS$/,
  gateway: /^(AUTH_SECRET|IDENTITY_SIGNING_KEY)$/,
};

/** `npm run secrets`: a fresh set, as lines for an .env file beside docker-compose.yml. */
function printSecrets(): number {
  const secrets = freshSecrets();
  const lines = { ...secrets, IDENTITY_VERIFY_KEYS: verifyKeyOf(secrets.IDENTITY_SIGNING_KEY) };
  process.stdout.write(Object.entries(lines).map(([name, value]) => `${name}=${value}\n`).join(""));
  return 0;
}

/**
 * `start` (default): check dependencies, migrate every schema, run every service and the gateway
 * until Ctrl-C or SIGTERM. `migrate`: the first two steps only. Resolves with the exit code.
 */
async function main(command: string): Promise<number> {
  if (command === "secrets") return printSecrets();
  if (command !== "start" && command !== "migrate") {
    process.stderr.write(`tollgate: unknown command "${command}"; expected start, migrate or secrets\n`);
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
      code: await supervisor.run({ name: service.name, entry: service.entry, args: ["migrate"], env: environmentFor(config, service.secrets, OWN_SECRETS[service.name] ?? null) }),
    })),
  );
  const failed = migrations.filter(({ code }) => code !== 0).map(({ service }) => service);
  if (failed.length > 0) throw new StartupError(`migrating ${failed.join(", ")} failed; see the output above`);
  if (command === "migrate" || stopping) {
    stop(0);
    return finished;
  }

  const gatewayEnv: Record<string, string> = { ...environmentFor(config, GATEWAY_SECRETS, OWN_SECRETS.gateway ?? null), PORT: String(config.PORT) };
  const children = [];
  const ports = await freePorts(SERVICES.length, new Set([config.PORT]));
  for (const [service, port] of SERVICES.map((service, index) => [service, ports[index] ?? 0] as const)) {
    gatewayEnv[service.urlVariable] = `http://127.0.0.1:${port}`;
    const child = supervisor.start({ name: service.name, entry: service.entry, env: { ...environmentFor(config, service.secrets, OWN_SECRETS[service.name] ?? null), PORT: String(port) } });
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
