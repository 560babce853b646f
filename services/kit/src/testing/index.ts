import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { inject } from "vitest";
import { IDENTITY_HEADER, type IdentityClaims } from "@tollgate/proto";
import { generateIdentityKeys, identitySigner, type IdentitySigner } from "../http/identity.js";
import { createLogger, type Logger } from "../logger.js";
import { loadServiceConfig, startService, type ServiceConfig, type ServiceDefinition, type RunningService } from "../service.js";
import { createDatabase, databaseUrl } from "./infrastructure.js";

export interface TestEnvironment {
  /** Unique to this environment: its database name, NATS prefix and the start of its Redis keys. */
  name: string;
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  redisUrl: string;
  redisPrefix: string;
  /** The gateway's signing key (IDENTITY_SIGNING_KEY) and the public key services check tokens with. */
  identityKeys: { signingKey: string; verifyKey: string };
  /** The environment variables a Tollgate process needs to run inside this environment. */
  env: Record<string, string>;
}

/**
 * A fresh database, NATS prefix and Redis key prefix on the run's servers, so a test file sees
 * only its own data. Everything is removed when the run ends.
 */
export async function createTestEnvironment(): Promise<TestEnvironment> {
  const infrastructure = inject("tollgate");
  const name = `${infrastructure.runId}_${randomBytes(4).toString("hex")}`;
  await createDatabase(infrastructure.postgresUrl, name);
  const environment = {
    name,
    databaseUrl: databaseUrl(infrastructure.postgresUrl, name),
    natsUrl: infrastructure.natsUrl,
    natsPrefix: name,
    redisUrl: infrastructure.redisUrl,
    redisPrefix: `${name}:`,
    identityKeys: generateIdentityKeys(),
  };
  return {
    ...environment,
    env: {
      DATABASE_URL: environment.databaseUrl,
      NATS_URL: environment.natsUrl,
      NATS_PREFIX: environment.natsPrefix,
      REDIS_URL: environment.redisUrl,
      REDIS_PREFIX: environment.redisPrefix,
      IDENTITY_VERIFY_KEYS: environment.identityKeys.verifyKey,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
      OUTBOX_POLL_MS: "200",
      // Every answer a test sees is one its endpoint's description allows.
      CHECK_RESPONSES: "true",
    },
  };
}

/** Where the loggers of processes started in this test file write while {@link captureLogs} is on. */
let captured: string[] | null = null;

/**
 * From now until `stop`, every service and gateway this test file starts logs everything (trace) into
 * `lines`, one JSON line each: for tests of what logs say, or must never say.
 */
export function captureLogs(): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  captured = lines;
  return {
    lines,
    stop: () => {
      captured = null;
    },
  };
}

/** The logger a process started by a test gets: its configured level, or everything into the capture. */
export function testLogger(service: string, level: string): Logger {
  const lines = captured;
  if (!lines) return createLogger({ service, level });
  return createLogger({ service, level: "trace" }, { write: (line: string) => void lines.push(line) });
}

/** Runs a service in this process on a free port, against the test environment. */
export function startTestService<Env extends z.ZodObject, App>(
  definition: ServiceDefinition<Env, App>,
  environment: TestEnvironment,
  overrides: Record<string, string> = {},
): Promise<RunningService<ServiceConfig<Env>, App>> {
  const config = loadServiceConfig(definition, { ...environment.env, PORT: "0", HOST: "127.0.0.1", ...overrides });
  return startService(definition, config, testLogger(definition.name, config.LOG_LEVEL));
}

const signers = new WeakMap<TestEnvironment["identityKeys"], IdentitySigner>();

/** The header the gateway would add, for calling a service directly. */
export function identityHeaders(environment: Pick<TestEnvironment, "identityKeys">, claims: IdentityClaims = { kind: "anonymous" }, clientAddress?: string): Record<string, string> {
  let signer = signers.get(environment.identityKeys);
  if (!signer) {
    signer = identitySigner(environment.identityKeys.signingKey);
    signers.set(environment.identityKeys, signer);
  }
  return { [IDENTITY_HEADER]: signer.sign(claims, clientAddress) };
}

export { createDatabase, databaseUrl } from "./infrastructure.js";
export type { TestInfrastructure } from "./infrastructure.js";
export { spawnTypeScript, watch, type SpawnedProcess } from "./processes.js";
export { PrivateNatsServer, type PrivateNatsOptions } from "./nats-server.js";
export { PrivateRedisServer } from "./redis-server.js";
export { PrivatePostgresCluster } from "./postgres-cluster.js";
export { freePort } from "./servers.js";
export { startEchoUpstream, type Seen } from "./echo-upstream.js";
export { publishedEvents } from "./events.js";
