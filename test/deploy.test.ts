import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { generateIdentityKeys, loadServiceConfig } from "@tollgate/kit";
import { authService } from "@tollgate/auth";
import { organizationService } from "@tollgate/organization";
import { billingService } from "@tollgate/billing";
import { webhookDispatcherService } from "@tollgate/webhook-dispatcher";
import { loadGatewayConfig } from "../gateway/src/config.js";

// No Docker engine runs where the tests do, so these check what `docker compose up --build` relies on.

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const read = (path: string) => readFileSync(root(path), "utf8");

const Compose = z.object({
  services: z.record(
    z.string(),
    z.object({
      image: z.string().optional(),
      command: z.array(z.string()).optional(),
      build: z.object({ context: z.string(), target: z.string() }).optional(),
      environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      ports: z.array(z.string()).optional(),
      depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
      healthcheck: z.object({ test: z.array(z.string()) }).optional(),
    }),
  ),
});
const compose = Compose.parse(parse(read("docker-compose.yml"), { merge: true }));

/** The Dockerfile's stages: name, base, and the instructions inside. */
function dockerStages(text: string): Map<string, { from: string; lines: string[] }> {
  const stages = new Map<string, { from: string; lines: string[] }>();
  let current: string[] | null = null;
  for (const line of text.replace(/\\\n/g, " ").split("\n").map((l) => l.trim())) {
    const from = /^FROM\s+(\S+)\s+AS\s+(\S+)$/i.exec(line);
    if (from?.[1] && from[2]) {
      current = [];
      stages.set(from[2], { from: from[1], lines: current });
    } else if (current && line && !line.startsWith("#")) current.push(line);
  }
  return stages;
}
const stages = dockerStages(read("Dockerfile"));

/** Every instruction that applies to a stage, its bases' first. */
function effectiveLines(stage: string): string[] {
  const found = stages.get(stage);
  if (!found) return [];
  return [...effectiveLines(found.from), ...found.lines];
}

/** Resolves compose's `${NAME}`, `${NAME:-default}` and `${NAME:?message}` against `variables`. */
function interpolate(value: string | number, variables: Record<string, string>): string {
  return String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    const given = variables[name];
    if (given !== undefined && given !== "") return given;
    if (kind === "-") return rest ?? "";
    throw new Error(`compose needs ${name}: ${rest ?? "not set"}`);
  });
}

const identityKeys = generateIdentityKeys();
/** What `npm run secrets` writes to the .env file compose reads. */
const hostEnvironment = {
  AUTH_SECRET: "a".repeat(44),
  IDENTITY_SIGNING_KEY: identityKeys.signingKey,
  IDENTITY_VERIFY_KEYS: identityKeys.verifyKey,
  FILE_URL_SECRET: "f".repeat(44),
  WEBHOOK_SECRET_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
  NATS_PASSWORD: "n".repeat(32),
};
function environmentOf(service: string): Record<string, string> {
  const environment = compose.services[service]?.environment ?? {};
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(value, hostEnvironment)]));
}

/** Each service's configuration, as the service itself loads it from an environment. */
const SERVICES: Record<string, (environment: Record<string, string>) => { DATABASE_URL: string; NATS_URL: string; REDIS_URL: string; HOST: string; PORT: number }> = {
  auth: (environment) => loadServiceConfig(authService, environment),
  organization: (environment) => loadServiceConfig(organizationService, environment),
  billing: (environment) => loadServiceConfig(billingService, environment),
  "webhook-dispatcher": (environment) => loadServiceConfig(webhookDispatcherService, environment),
};
const DEPLOYABLES = [...Object.keys(SERVICES), "gateway"];

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
    for (const stage of ["build", "deps"]) {
      const lines = effectiveLines(stage);
      const install = lines.findIndex((line) => /^RUN .*npm ci/.test(line));
      expect(install, `${stage} runs npm ci`).toBeGreaterThan(0);
      for (const workspace of workspaces) {
        const copied = lines.slice(0, install).some((line) => line.startsWith("COPY ") && line.includes(`${workspace}/package.json`));
        expect(copied, `${stage} copies ${workspace}/package.json`).toBe(true);
      }
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
      expect(new URL(config.REDIS_URL).hostname).toBe("redis");
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

  it("gives each process only the secrets it uses, and services an address the gateway can reach", () => {
    const SECRETS = ["AUTH_SECRET", "IDENTITY_SIGNING_KEY", "FILE_URL_SECRET", "WEBHOOK_SECRET_KEYS"];
    const held = Object.fromEntries(DEPLOYABLES.map((name) => [name, SECRETS.filter((secret) => secret in environmentOf(name)).sort()]));
    expect(held).toEqual({
      auth: ["AUTH_SECRET"],
      organization: [],
      billing: ["FILE_URL_SECRET"],
      "webhook-dispatcher": ["WEBHOOK_SECRET_KEYS"],
      gateway: ["AUTH_SECRET", "IDENTITY_SIGNING_KEY"],
    });
    for (const [name, loadConfig] of Object.entries(SERVICES)) expect(loadConfig(environmentOf(name)).HOST, name).toBe("0.0.0.0");
  });

  it("lets only the services, with the password, use NATS", () => {
    const command = compose.services.nats?.command ?? [];
    const password = interpolate(command[command.indexOf("--pass") + 1] ?? "", hostEnvironment);
    expect(command[command.indexOf("--user") + 1]).toBe("tollgate");
    expect(password).toBe(hostEnvironment.NATS_PASSWORD);
    for (const name of DEPLOYABLES) {
      const url = new URL(environmentOf(name).NATS_URL ?? "");
      expect([url.username, url.password], name).toEqual(["tollgate", password]);
    }
  });

  it("refuses to start without each secret rather than running with a weak default", () => {
    for (const secret of Object.keys(hostEnvironment)) {
      const { [secret]: _missing, ...rest } = hostEnvironment as Record<string, string>;
      expect(() => DEPLOYABLES.forEach((name) => Object.values(compose.services[name]?.environment ?? {}).forEach((value) => interpolate(value, rest))), secret).toThrow(new RegExp(secret));
    }
  });
});
