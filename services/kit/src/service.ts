import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Router } from "express";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { Subscription } from "@nats-io/transport-node";
import type { RequestDefinition } from "@tollgate/proto";
import { loadConfig, serviceEnv, env as envField } from "./config.js";
import { runProgram } from "./program.js";
import { createDatabase, type Knex } from "./db/connection.js";
import { migrate, pendingMigrations } from "./db/migrate.js";
import type { Migrations } from "./db/migrations.js";
import { connectBus, ensureEventStream, natsSettingsOf, type BusConnection } from "./bus/connection.js";
import { EventConsumer, PostgresConsumerStore, type ConsumerDefinition } from "./bus/consumer.js";
import { Outbox, OutboxRelay } from "./bus/outbox.js";
import { Units } from "./bus/unit-of-work.js";
import { request, respond } from "./bus/rpc.js";
import { closeServer, createHttpApp, listen, serveMetrics } from "./http/app.js";
import type { ErrorContract } from "./http/errors.js";
import { jsonBody } from "./http/body.js";
import { CHECK_RESPONSES } from "./http/endpoint.js";
import { identityVerifier, requireIdentity, type IdentityVerifier } from "./http/identity.js";
import { createLogger, type Logger } from "./logger.js";
import { Metrics } from "./metrics.js";
import { connectRedis } from "./redis.js";
import { describeStartupError } from "./startup.js";
import { WorkFailures } from "./work/set-aside.js";

export interface ServiceContext<Config> {
  config: Config;
  logger: Logger;
  db: Knex;
  bus: BusConnection;
  outbox: Outbox;
  /** Units of work over `db` and `outbox`: the one way to change state, announce it and act after commit. */
  units: Units;
  metrics: Metrics;
  /** Counts background items' failures and sets aside those that keep failing, so everyone else's work goes on. */
  failures: WorkFailures;
  /** Present when the definition sets `redis: true`. */
  redis: Redis | null;
  /** Checks identity tokens the gateway signed: every request's, and one a bus request carries as proof. */
  identity: IdentityVerifier;
  request: <Req extends z.ZodType, Res extends z.ZodType>(
    definition: RequestDefinition<Req, Res>,
    payload: z.input<Req>,
  ) => Promise<z.output<Res>>;
  respond: <Req extends z.ZodType, Res extends z.ZodType>(
    definition: RequestDefinition<Req, Res>,
    handler: (payload: z.output<Req>) => Promise<z.input<Res>>,
  ) => void;
}

type NoExtraEnv = z.ZodObject<Record<never, never>>;

/** What a service's routes, consumers, responders and workers are given: the context, and the parts its `setup` built. */
export type HookContext<Config, App> = ServiceContext<Config> & { app: App };

export interface ServiceDefinition<Env extends z.ZodObject = NoExtraEnv, App = undefined> {
  /** The NATS queue group, the event `source` and the log `service` field. */
  name: string;
  /** The Postgres schema it owns (overridable with DATABASE_SCHEMA). */
  schema: string;
  defaultPort: number;
  errors: ErrorContract;
  migrations: Migrations;
  /** Extra environment variables this service reads, on top of the common ones. */
  env?: Env;
  redis?: boolean;
  /**
   * Builds the service's own parts once, from the context, before anything else is asked of the
   * definition: the one composition root, handed to every hook below as `context.app`. It may wait
   * for what it reads once at start (Postgres's time zones, say).
   */
  setup?(context: ServiceContext<ServiceConfig<Env>>): App | Promise<App>;
  consumers?(context: HookContext<ServiceConfig<Env>, App>): ConsumerDefinition[];
  /** Registers NATS request handlers with `context.respond`. */
  responders?(context: HookContext<ServiceConfig<Env>, App>): void;
  routes?(router: Router, context: HookContext<ServiceConfig<Env>, App>): void;
  /** Background work driven from Postgres rows (mail delivery, sweeps); started and stopped with the service. */
  workers?(context: HookContext<ServiceConfig<Env>, App>): Worker[];
}

export interface Worker {
  start(): Promise<void>;
  /** Finishes the piece of work in hand, then stops. Also called on a worker that never started, harmlessly. */
  stop(): Promise<void>;
}

/** Names the Postgres schema a service owns; its own name unless DATABASE_SCHEMA says otherwise. */
const databaseSchema = (schema: string) =>
  z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, { error: "a Postgres schema name (lower-case letters, digits, underscores)" })
    .default(schema);

/** What every service's server reads: the kit's settings, its port and its schema. */
function baseConfigSchema(schema: string, defaultPort: number) {
  return z.object({ ...serviceEnv, PORT: envField.port(defaultPort), DATABASE_SCHEMA: databaseSchema(schema) });
}

/** Everything a service's server reads: every service's settings, then its own `env`. */
export function serviceConfigSchema(definition: Pick<ServiceDefinition<z.ZodObject, unknown>, "schema" | "defaultPort" | "env">) {
  return baseConfigSchema(definition.schema, definition.defaultPort).extend(definition.env?.shape ?? {});
}

/**
 * What the commands on a service's schema read (`migrate`, `wait-for-migrations`): the database and
 * how to log, and no secret, so a migration Job or an init container can be given nothing more.
 */
export function migrationConfigSchema(schema: string) {
  return z.object({ LOG_LEVEL: serviceEnv.LOG_LEVEL, DATABASE_URL: serviceEnv.DATABASE_URL, DATABASE_SCHEMA: databaseSchema(schema) });
}

/**
 * The variables a service reads, by name: serving (`serve`), and on its schema alone (`migrate`).
 * The launcher hands each process these and nothing else; the port and schema name do not change them.
 */
export function serviceSettingNames(env?: z.ZodObject): { serve: string[]; migrate: string[] } {
  return { serve: Object.keys(serviceConfigSchema({ schema: "service", defaultPort: 0, env }).shape), migrate: Object.keys(migrationConfigSchema("service").shape) };
}

export type BaseServiceConfig = z.output<ReturnType<typeof baseConfigSchema>>;
export type ServiceConfig<Env extends z.ZodObject = NoExtraEnv> = BaseServiceConfig & z.output<Env>;
export type MigrationConfig = z.output<ReturnType<typeof migrationConfigSchema>>;

export function defineService<Env extends z.ZodObject = NoExtraEnv, App = undefined>(
  definition: ServiceDefinition<Env, App>,
): ServiceDefinition<Env, App> {
  return definition;
}

export function loadServiceConfig<Env extends z.ZodObject, App>(
  definition: ServiceDefinition<Env, App>,
  environment: Record<string, string | undefined> = process.env,
): ServiceConfig<Env> {
  return loadConfig(serviceConfigSchema(definition), environment) as ServiceConfig<Env>;
}

/** The `main` of a service: `serve` (default), `migrate` or `wait-for-migrations`. */
export function runService<Env extends z.ZodObject, App>(definition: ServiceDefinition<Env, App>): void {
  const loadMigrationConfig = () => loadConfig(migrationConfigSchema(definition.schema));
  runProgram({
    name: definition.name,
    loadConfig: () => loadServiceConfig(definition),
    serve: (config, logger) => startService(definition, config, logger),
    commands: {
      migrate: { loadConfig: loadMigrationConfig, run: (config: MigrationConfig, logger) => migrateService(definition, config, logger) },
      "wait-for-migrations": { loadConfig: loadMigrationConfig, run: (config: MigrationConfig, logger) => waitForMigrations(definition, config, logger) },
    },
  });
}

export interface RunningService<Config, App = unknown> {
  url: string;
  /** Where Prometheus scrapes /metrics (METRICS_PORT), if anywhere. */
  metricsUrl: string | null;
  server: Server;
  context: HookContext<Config, App>;
  /** Graceful stop: refuse new work, finish in-flight requests and events, close connections. */
  stop(): Promise<void>;
}

/** Applies the service's migrations to its schema (the `migrate` command). */
export async function migrateService<Env extends z.ZodObject, App>(
  definition: ServiceDefinition<Env, App>,
  config: Pick<MigrationConfig, "DATABASE_URL" | "DATABASE_SCHEMA">,
  logger: Logger,
): Promise<void> {
  const applied = await migrate({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }, definition.migrations).catch(
    (error: unknown) => {
      throw describeStartupError("Postgres", config.DATABASE_URL, error);
    },
  );
  logger.info({ schema: config.DATABASE_SCHEMA, applied }, applied.length ? "migrations applied" : "schema is up to date");
}

/** How often a pod waiting for its release's migrations looks again. */
const MIGRATIONS_POLL_MS = 2_000;

/**
 * Returns once the schema has every migration this release knows (the `wait-for-migrations`
 * command). A pod's init container runs it while the release's migration Job runs, so the new
 * release never serves on the old schema; it only reads, and waits out a database that is not up yet.
 */
export async function waitForMigrations<Env extends z.ZodObject, App>(definition: ServiceDefinition<Env, App>, config: Pick<MigrationConfig, "DATABASE_URL" | "DATABASE_SCHEMA">, logger: Logger): Promise<void> {
  const schema = config.DATABASE_SCHEMA;
  for (;;) {
    const pending = await pendingMigrations({ url: config.DATABASE_URL, schema }, definition.migrations).catch((error: unknown) => {
      logger.warn({ err: describeStartupError("Postgres", config.DATABASE_URL, error) }, "cannot read the schema's migrations yet");
      return null;
    });
    if (pending?.length === 0) {
      logger.info({ schema }, "the schema has every migration of this release");
      return;
    }
    if (pending) logger.info({ schema, pending }, "waiting for migrations");
    await sleep(MIGRATIONS_POLL_MS);
  }
}

export async function startService<Env extends z.ZodObject, App>(
  definition: ServiceDefinition<Env, App>,
  config: ServiceConfig<Env>,
  logger: Logger = createLogger({ service: definition.name, level: config.LOG_LEVEL }),
): Promise<RunningService<ServiceConfig<Env>, App>> {
  const metrics = new Metrics(definition.name);
  const schema = config.DATABASE_SCHEMA;
  const cleanup: (() => Promise<unknown>)[] = [];
  const release = async () => {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => logger.warn({ err: error }, "shutdown step failed"));
  };

  try {
    await migrateService(definition, config, logger);
    const db = createDatabase({ url: config.DATABASE_URL, schema, poolMax: config.DATABASE_POOL_MAX });
    cleanup.push(() => db.destroy());

    const bus = await connectBus({ ...natsSettingsOf(config), prefix: config.NATS_PREFIX, name: definition.name }).catch(
      (error: unknown) => {
        throw describeStartupError("NATS", config.NATS_URL, error);
      },
    );
    cleanup.push(() => bus.nc.drain());
    await ensureEventStream(bus).catch((error: unknown) => {
      throw describeStartupError("NATS", config.NATS_URL, error);
    });

    const redis = definition.redis ? await connectRedis(config.REDIS_URL, config.REDIS_PREFIX, logger) : null;
    if (redis) cleanup.push(() => redis.quit());

    const subscriptions: Subscription[] = [];
    const outbox = new Outbox(definition.name, schema, bus.names);
    const base: ServiceContext<ServiceConfig<Env>> = {
      config,
      logger,
      db,
      bus,
      metrics,
      failures: new WorkFailures({ db, logger, metrics }),
      redis,
      identity: identityVerifier(config.IDENTITY_VERIFY_KEYS),
      outbox,
      units: new Units(db, outbox, logger),
      request: (requestDefinition, payload) => request(bus, requestDefinition, payload),
      respond: (requestDefinition, handler) => {
        subscriptions.push(respond(bus, requestDefinition, { queue: definition.name, logger }, handler));
      },
    };
    const context: HookContext<ServiceConfig<Env>, App> = { ...base, app: definition.setup ? await definition.setup(base) : (undefined as App) };

    const relay = new OutboxRelay({ db, databaseUrl: config.DATABASE_URL, schema, bus, logger, metrics, pollIntervalMs: config.OUTBOX_POLL_MS });
    await relay.start();
    cleanup.push(() => relay.stop());

    definition.responders?.(context);
    cleanup.push(async () => {
      for (const subscription of subscriptions) await subscription.drain();
    });

    const store = new PostgresConsumerStore(db, outbox, logger);
    const workers = definition.workers?.(context) ?? [];
    // Registered first, so workers already running are stopped if a later one fails to start.
    cleanup.push(() => Promise.all(workers.map((worker) => worker.stop())));
    for (const worker of workers) await worker.start();

    const consumers = (definition.consumers?.(context) ?? []).map((consumer) => new EventConsumer(consumer, { store, bus, logger, metrics }));
    for (const consumer of consumers) await consumer.start();
    cleanup.push(() => Promise.all(consumers.map((consumer) => consumer.stop())));

    let shuttingDown = false;
    const app = createHttpApp(
      {
        logger,
        metrics,
        errors: definition.errors,
        isShuttingDown: () => shuttingDown,
        readiness: {
          postgres: () => db.raw("select 1"),
          nats: () => bus.nc.flush(),
        },
        degradable: redis ? { redis: () => redis.ping() } : {},
      },
      (app) => {
        app.locals[CHECK_RESPONSES] = config.CHECK_RESPONSES;
        const router = Router();
        router.use(jsonBody(config.BODY_LIMIT));
        router.use(requireIdentity(context.identity, definition.errors));
        definition.routes?.(router, context);
        app.use(router);
      },
    );
    const metricsServer = await serveMetrics(metrics, config);
    if (metricsServer) cleanup.push(() => closeServer(metricsServer, 1_000));
    const server = await listen(app, config.PORT, config.HOST);
    const { port } = server.address() as AddressInfo;
    logger.info({ host: config.HOST, port, schema }, `${definition.name} is listening`);

    return {
      url: `http://127.0.0.1:${port}`,
      metricsUrl: metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics` : null,
      server,
      context,
      async stop() {
        shuttingDown = true;
        // /readyz answers 503 from here on; requests are still served until balancers have seen it.
        if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
        await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
        await release();
        logger.info(`${definition.name} stopped`);
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
