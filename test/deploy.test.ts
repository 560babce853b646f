import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { loadServiceConfig, serviceConfigSchema } from "@tollgate/kit";
import { PrivateRedisServer } from "@tollgate/kit/testing";
import { authService } from "@tollgate/auth";
import { organizationService } from "@tollgate/organization";
import { billingService } from "@tollgate/billing";
import { webhookDispatcherService } from "@tollgate/webhook-dispatcher";
import { gatewayEnv, loadGatewayConfig } from "../gateway/src/config.js";
import { deploymentSecrets } from "../launcher/src/config.js";
import { NATS_AUTHORIZATION_FILE, natsAuthorization, natsPasswordVariable } from "../launcher/src/nats-authorization.js";
import { compose, composeRedisArguments, interpolate, mayTouch, redisUsers } from "./compose.js";
import { baseImage, DEPLOYABLES, effectiveLines, read, root, stages } from "./dockerfile.js";

// No Docker engine runs where the tests do, so these check what `docker compose up --build` relies on.

/** What `npm run secrets` writes to the .env file compose reads: every secret compose asks for must be among them. */
const hostEnvironment: Record<string, string> = { ...deploymentSecrets() };
function environmentOf(service: string): Record<string, string> {
  const environment = compose.services[service]?.environment ?? {};
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(value, hostEnvironment)]));
}

/** Each service's configuration, as the service itself loads it from an environment. */
const SERVICES: Record<string, (environment: Record<string, string>) => { DATABASE_URL: string; NATS_URL: string; REDIS_URL: string; REDIS_PREFIX: string; HOST: string; PORT: number; SHUTDOWN_TIMEOUT_MS: number; SHUTDOWN_DRAIN_MS: number }> = {
  auth: (environment) => loadServiceConfig(authService, environment),
  organization: (environment) => loadServiceConfig(organizationService, environment),
  billing: (environment) => loadServiceConfig(billingService, environment),
  "webhook-dispatcher": (environment) => loadServiceConfig(webhookDispatcherService, environment),
};

/** The names each deployable's config schema declares: all it reads. */
const DECLARED: Record<string, string[]> = {
  ...Object.fromEntries(
    Object.entries({ auth: authService, organization: organizationService, billing: billingService, "webhook-dispatcher": webhookDispatcherService }).map(([name, definition]) => [
      name,
      Object.keys(serviceConfigSchema(definition).shape),
    ]),
  ),
  gateway: Object.keys(gatewayEnv.shape),
};

describe("Dockerfile", () => {
  it("builds every deployable as a target that runs as the unprivileged node user", () => {
    for (const deployable of DEPLOYABLES) {
      const lines = effectiveLines(deployable);
      expect(lines.length, `stage ${deployable}`).toBeGreaterThan(0);
      expect(lines.filter((line) => line.startsWith("USER ")).at(-1)).toBe("USER node");
      const command = lines.filter((line) => line.startsWith("CMD ")).at(-1) ?? "";
      const entry = (JSON.parse(command.slice(4)) as string[])[1] ?? "";
      expect(existsSync(root(entry.replace("/dist/", "/src/").replace(/\.js$/, ".ts"))), `${deployable} runs ${entry}`).toBe(true);
    }
  });

  it("copies every workspace's package.json before each npm ci", () => {
    const { workspaces } = JSON.parse(read("package.json")) as { workspaces: string[] };
    const installing = [...stages].filter(([, stage]) => stage.lines.some((line) => /^RUN .*npm ci/.test(line))).map(([name]) => name);
    expect(installing).toEqual(expect.arrayContaining(["build", ...DEPLOYABLES.map((deployable) => `${deployable}-deps`)]));
    for (const stage of installing) {
      const lines = effectiveLines(stage);
      const install = lines.findIndex((line) => /^RUN .*npm ci/.test(line));
      for (const workspace of workspaces) {
        const copied = lines.slice(0, install).some((line) => line.startsWith("COPY ") && line.includes(`${workspace}/package.json`));
        expect(copied, `${stage} copies ${workspace}/package.json`).toBe(true);
      }
    }
  });

  it("gives each deployable the production dependencies of its own workspace alone", () => {
    for (const deployable of DEPLOYABLES) {
      const lines = effectiveLines(deployable);
      const entry = (JSON.parse(lines.filter((line) => line.startsWith("CMD ")).at(-1)?.slice(4) ?? "[]") as string[])[1] ?? "";
      const workspace = entry.slice(0, entry.indexOf("/dist/"));
      const install = stages.get(`${deployable}-deps`)?.lines.filter((line) => /^RUN .*npm ci/.test(line)) ?? [];
      expect(install, deployable).toEqual([`RUN npm ci --omit=dev --workspace ${workspace} --include-workspace-root=false`]);
      const dependencies = lines.filter((line) => line.startsWith("COPY --from=") && !line.startsWith("COPY --from=build "));
      expect(dependencies, deployable).toEqual([`COPY --from=${deployable}-deps /app ./`]);
    }
  });

  it("runs on a Node.js LTS release, the one package.json's engines asks for", () => {
    const { engines } = JSON.parse(read("package.json")) as { engines: { node: string } };
    for (const deployable of DEPLOYABLES) {
      const [, major] = /^node:(\d+)-bookworm-slim$/.exec(baseImage(deployable)) ?? [];
      // Even-numbered majors are the LTS lines; 20 reached its end in April 2026.
      expect(Number(major) % 2, deployable).toBe(0);
      expect(Number(major), deployable).toBeGreaterThanOrEqual(22);
      expect(engines.node).toBe(`>=${major}`);
    }
  });
});

/** Whether .dockerignore keeps `path` out of the build context (Docker's rules: the last matching line wins, `!` lets back in). */
function dockerIgnores(path: string): boolean {
  const patterns = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const matches = (pattern: string, candidate: string) => {
    // `**/` is any folders or none, `**` anything, `*` and `?` within one path segment.
    const expression = pattern
      .replace(/^\//, "")
      .split("**/")
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*\*/g, "\uE000")
          .replace(/\*/g, "[^/]*")
          .replace(/\?/g, "[^/]")
          .replace(/\uE000/g, ".*"),
      )
      .join("(.*/)?");
    return new RegExp(`^${expression}$`).test(candidate);
  };
  // A path is left out when it, or a folder it is in, is.
  const parts = path.split("/");
  const candidates = parts.map((_, index) => parts.slice(0, index + 1).join("/"));
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    if (candidates.some((candidate) => matches(negated ? pattern.slice(1) : pattern, candidate))) ignored = !negated;
  }
  return ignored;
}

describe(".dockerignore", () => {
  it("leaves secrets, local state, installed and built output and version control out of the build context", () => {
    for (const path of [".tollgate/secrets.json", ".env", ".env.production", "services/auth/.env", "node_modules/zod/package.json", "services/kit/node_modules/x/index.js", "gateway/dist/main.js", "web/dist/index.html", ".git/HEAD", "services/kit/test/config.test.ts", "k8s/base/auth.yaml", "bench/auth/main.ts"]) {
      expect(dockerIgnores(path), path).toBe(true);
    }
  });

  it("keeps everything the Dockerfile copies", () => {
    const copied = [...stages.values()]
      .flatMap((stage) => stage.lines)
      .filter((line) => line.startsWith("COPY ") && !line.startsWith("COPY --from="))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    expect(copied).toContain("bench/package.json");
    for (const path of copied) expect(dockerIgnores(path), path).toBe(false);
    for (const path of ["services/auth/src/main.ts", "web/src/main.tsx", "proto/src/index.ts", "launcher/src/main.ts", "gateway/src/main.ts"]) {
      expect(dockerIgnores(path), path).toBe(false);
    }
  });
});

describe("docker-compose.yml", () => {
  it("runs Postgres, NATS with JetStream and Redis with health checks", () => {
    expect(compose.services.postgres?.image).toMatch(/^postgres:15/);
    expect(compose.services.nats?.command).toContain("-js");
    expect(compose.services.redis?.image).toMatch(/^redis:7/);
    for (const name of ["postgres", "nats", "redis"]) expect(compose.services[name]?.healthcheck, name).toBeDefined();
  });

  it("builds each deployable from its own Dockerfile target and waits for healthy dependencies", () => {
    for (const deployable of DEPLOYABLES) {
      const service = compose.services[deployable];
      expect(service?.build).toEqual({ context: ".", target: deployable });
      for (const [dependency, { condition }] of Object.entries(service?.depends_on ?? {})) {
        expect(compose.services[dependency], `${deployable} depends on ${dependency}`).toBeDefined();
        expect(condition).toBe("service_healthy");
      }
    }
  });

  it("gives every service an environment its own configuration accepts, on the database compose runs", () => {
    const postgres = environmentOf("postgres");
    for (const [name, loadConfig] of Object.entries(SERVICES)) {
      const config = loadConfig(environmentOf(name));
      const database = new URL(config.DATABASE_URL);
      expect(database.hostname).toBe("postgres");
      expect(database.username).toBe(postgres.POSTGRES_USER);
      expect(database.password).toBe(postgres.POSTGRES_PASSWORD);
      expect(database.pathname).toBe(`/${postgres.POSTGRES_DB}`);
      expect(new URL(config.NATS_URL).hostname).toBe("nats");
    }
    expect(new URL(SERVICES.billing?.(environmentOf("billing")).REDIS_URL ?? "").hostname).toBe("redis");
    expect(new URL(loadGatewayConfig(environmentOf("gateway")).REDIS_URL).hostname).toBe("redis");
  });

  it("restarts the data stores, and gives each deployable longer to stop than the kit takes", () => {
    for (const name of ["postgres", "nats", "redis", ...DEPLOYABLES]) expect(compose.services[name]?.restart, name).toBe("unless-stopped");
    for (const deployable of DEPLOYABLES) {
      const service = compose.services[deployable];
      const config = SERVICES[deployable]?.(environmentOf(deployable)) ?? loadGatewayConfig(environmentOf(deployable));
      const shutdownMs = ("SHUTDOWN_DRAIN_MS" in config ? config.SHUTDOWN_DRAIN_MS : 0) + config.SHUTDOWN_TIMEOUT_MS;
      // The kit exits on its own 5 s after draining and SHUTDOWN_TIMEOUT_MS; compose's SIGKILL must come later.
      expect(Number(/^(\d+)s$/.exec(service?.stop_grace_period ?? "")?.[1]) * 1000, deployable).toBeGreaterThanOrEqual(shutdownMs + 5_000);
      expect(service?.container_name, `${deployable} can run as several containers`).toBeUndefined();
    }
  });

  it("points the gateway at each service's name and the port it listens on, and publishes only the gateway", () => {
    const gateway = loadGatewayConfig(environmentOf("gateway"));
    const upstreams = {
      auth: gateway.AUTH_URL,
      organization: gateway.ORGANIZATION_URL,
      billing: gateway.BILLING_URL,
      "webhook-dispatcher": gateway.WEBHOOKS_URL,
    };
    for (const [name, loadConfig] of Object.entries(SERVICES)) {
      const { PORT } = loadConfig(environmentOf(name));
      expect(upstreams[name as keyof typeof upstreams]).toBe(`http://${name}:${PORT}`);
    }
    const published = Object.entries(compose.services).filter(([, service]) => service.ports?.length).map(([name]) => name);
    expect(published).toEqual(["gateway"]);
    expect(compose.services.gateway?.ports).toEqual([`\${PORT:-3000}:${gateway.PORT}`]);
  });

  it("gives each process only settings its config schema declares, so only the secrets it uses, and services an address the gateway can reach", () => {
    for (const name of DEPLOYABLES) expect(Object.keys(environmentOf(name)).filter((variable) => !DECLARED[name]?.includes(variable)), name).toEqual([]);
    const held = Object.fromEntries(DEPLOYABLES.map((name) => [name, Object.keys(hostEnvironment).filter((secret) => secret in environmentOf(name)).sort()]));
    expect(held).toEqual({
      auth: ["AUTH_SECRET", "IDENTITY_VERIFY_KEYS"],
      organization: ["IDENTITY_VERIFY_KEYS"],
      billing: ["FILE_URL_SECRET", "IDENTITY_VERIFY_KEYS"],
      "webhook-dispatcher": ["IDENTITY_VERIFY_KEYS", "WEBHOOK_SECRET_KEYS"],
      gateway: ["AUTH_SECRET", "IDENTITY_SIGNING_KEY"],
    });
    for (const [name, loadConfig] of Object.entries(SERVICES)) expect(loadConfig(environmentOf(name)).HOST, name).toBe("0.0.0.0");
  });

  it("lets each process use NATS only as a user of its own, allowed only what proto/src/bus-access.ts gives it", () => {
    const nats = compose.services.nats;
    const file = nats?.command?.[nats.command.indexOf("-c") + 1] ?? "";
    const mounted = nats?.volumes?.find((volume) => volume.endsWith(`:${file}:ro`))?.split(":")[0] ?? "";
    expect(root(mounted)).toBe(NATS_AUTHORIZATION_FILE);
    const server = environmentOf("nats");
    for (const name of DEPLOYABLES) {
      const environment = environmentOf(name);
      const password = hostEnvironment[natsPasswordVariable(name)];
      // Its user is its name (the kit's), with its own password, which the server reads by the same name.
      expect(environment.NATS_PASSWORD, name).toBe(password);
      expect(server[natsPasswordVariable(name)], name).toBe(password);
      expect(new URL(environment.NATS_URL ?? "").username, name).toBe("");
    }
    expect(new Set(DEPLOYABLES.map((name) => environmentOf(name).NATS_PASSWORD)).size).toBe(DEPLOYABLES.length);
    const { NATS_PREFIX } = loadGatewayConfig(environmentOf("gateway"));
    expect(read(mounted), "npm run nats-config writes it anew").toBe(natsAuthorization(NATS_PREFIX));
  });

  it("lets only the gateway and billing into Redis, each as its own user with its password, and billing not near the gateway's keys", () => {
    const users = redisUsers(composeRedisArguments(hostEnvironment));
    expect([...users.keys()].sort()).toEqual(["billing", "default", "gateway"]);
    expect(users.get("default")).toEqual(["off", "resetpass"]);
    const using = DEPLOYABLES.filter((name) => "REDIS_URL" in environmentOf(name));
    expect(using.sort()).toEqual(["billing", "gateway"]);
    const gateway = loadGatewayConfig(environmentOf("gateway"));
    for (const name of using) {
      const url = new URL(environmentOf(name).REDIS_URL ?? "");
      const rules = users.get(name) ?? [];
      expect(url.username, name).toBe(name);
      expect(rules, name).toEqual(expect.arrayContaining(["on", `>${url.password}`, "resetchannels", "-@all"]));
      expect(url.password.length, name).toBeGreaterThanOrEqual(32);
    }
    expect(new URL(environmentOf("gateway").REDIS_URL ?? "").password).not.toBe(new URL(environmentOf("billing").REDIS_URL ?? "").password);
    const key = (name: string) => `${gateway.REDIS_PREFIX}${name}:x`;
    const gatewayKeys = ["bearer", "session", "user-sessions", "rate"].map(key);
    for (const stored of gatewayKeys) expect(mayTouch(users.get("gateway") ?? [], stored), stored).toBe(true);
    for (const stored of gatewayKeys) expect(mayTouch(users.get("billing") ?? [], stored), stored).toBe(false);
    expect(mayTouch(users.get("billing") ?? [], key("idempotency"))).toBe(true);
    expect(SERVICES.billing?.(environmentOf("billing"))).toMatchObject({ REDIS_PREFIX: gateway.REDIS_PREFIX });
    expect(interpolate(compose.services.redis?.healthcheck?.test.join(" ") ?? "", hostEnvironment)).toContain(`--user gateway --pass ${hostEnvironment.REDIS_GATEWAY_PASSWORD}`);
  });

  it("starts a Redis that refuses anyone without a password, and billing on the gateway's keys", async () => {
    const redis = await PrivateRedisServer.start(composeRedisArguments(hostEnvironment));
    // RESP2 and no INFO on connecting, so that a client without a password connects and its commands are refused one by one.
    const as = (user?: string) =>
      new Redis(redis.url, { username: user, password: user && hostEnvironment[`REDIS_${user.toUpperCase()}_PASSWORD`], lazyConnect: true, protocol: 2, enableReadyCheck: false });
    const [anonymous, gateway, billing] = [as(), as("gateway"), as("billing")];
    try {
      await Promise.all([anonymous.connect(), gateway.connect(), billing.connect()]);
      await expect(anonymous.get("tollgate:bearer:x")).rejects.toThrow(/NOAUTH/);
      await expect(anonymous.auth("default", "")).rejects.toThrow(/WRONGPASS/);
      expect(await gateway.set("tollgate:bearer:x", "sealed")).toBe("OK");
      await expect(billing.set("tollgate:bearer:x", "forged")).rejects.toThrow(/NOPERM/);
      await expect(billing.get("tollgate:session:x")).rejects.toThrow(/NOPERM/);
      expect(await billing.set("tollgate:idempotency:x", "{}", "EX", 60, "NX")).toBe("OK");
      await expect(gateway.flushall()).rejects.toThrow(/NOPERM/);
    } finally {
      for (const client of [anonymous, gateway, billing]) client.disconnect();
      await redis.stop();
    }
  });

  it("refuses to start without each secret rather than running with a weak default", () => {
    for (const secret of Object.keys(hostEnvironment)) {
      const { [secret]: _missing, ...rest } = hostEnvironment;
      expect(() => DEPLOYABLES.forEach((name) => Object.values(compose.services[name]?.environment ?? {}).forEach((value) => interpolate(value, rest))), secret).toThrow(new RegExp(secret));
    }
  });
});
