import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resolveSession } from "@tollgate/proto";
import { closeServer, connectBus, createDatabase, createHttpApp, createLogger, listen, Metrics, polarErrors, PollingWorker, request, respond, type BusConnection, type Knex } from "@tollgate/kit";
import { createTestEnvironment, freePort } from "@tollgate/kit/testing";

/**
 * A Postgres that is away (restarting: nothing listens, or it ends the connection under a query) is a
 * moment's outage, answered 503 as a service that does not answer over NATS is, not a 500; so is a
 * service asked over NATS whose own Postgres is away.
 */
let server: Server;
let base: string;
let nobody: Knex;
let db: Knex;
let admin: Knex;
/** A pool of its own: the connection ended under a query may still be in `db`'s for a moment. */
let other: Knex;
let bus: BusConnection;

beforeAll(async () => {
  const environment = await createTestEnvironment();
  nobody = createDatabase({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, schema: "public", poolMax: 1 });
  db = createDatabase({ url: environment.databaseUrl, schema: "public", poolMax: 1 });
  admin = createDatabase({ url: environment.databaseUrl, schema: "public", poolMax: 1 });
  other = createDatabase({ url: environment.databaseUrl, schema: "public", poolMax: 1 });
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "unreachable-database-test" });
  const logger = createLogger({ service: "unreachable", level: "silent" });
  // Another service, answering from a database that is away.
  respond(bus, resolveSession, { queue: "auth", logger }, async () => {
    await nobody.raw("select 1");
    return { session: null };
  });
  const app = createHttpApp(
    { logger, metrics: new Metrics("unreachable"), errors: polarErrors, readiness: {}, isShuttingDown: () => false },
    (app) => {
      app.get("/nothing-listening", async (_req, res) => res.json(await nobody.raw("select 1")));
      app.get("/ended-under-a-query", async (_req, res) => {
        const { rows } = await db.raw<{ rows: { pid: number }[] }>("select pg_backend_pid() as pid");
        // As a restart does to every connection: the server ends it while the query runs.
        const ended = new Promise((resolve) => setTimeout(resolve, 200)).then(() => admin.raw("select pg_terminate_backend(?)", [rows[0]?.pid ?? 0]));
        await db.raw("select pg_sleep(5)").finally(() => ended);
        res.json({ slept: true });
      });
      app.get("/asks-another-service", async (_req, res) => res.json(await request(bus, resolveSession, { token_hash: createHash("sha256").update("token").digest("hex") })));
      app.get("/wrong-query", async (_req, res) => res.json(await other.raw("select * from no_such_table")));
    },
  );
  server = await listen(app, 0, "127.0.0.1");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeServer(server, 1_000);
  await bus?.nc.close();
  await Promise.all([nobody, db, admin, other].map((knex) => knex?.destroy()));
});

it.each(["/nothing-listening", "/ended-under-a-query", "/asks-another-service"])("answers %s with 503 in the API's shape", async (path) => {
  const response = await fetch(`${base}${path}`);
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ error: "ServiceUnavailable", detail: "a service this request needs is not answering; try again shortly" });
});

it("still answers a query that is wrong with 500", async () => {
  expect((await fetch(`${base}/wrong-query`)).status).toBe(500);
});

/** A worker polling once a minute whose first pass runs `first`; it counts its passes. */
class OncePerMinute extends PollingWorker {
  passes = 0;

  constructor(private readonly first: () => Promise<unknown>) {
    super({ intervalMs: 60_000, logger: createLogger({ service: "unreachable", level: "silent" }), failure: "the pass failed" });
  }

  protected async pass(): Promise<void> {
    this.passes += 1;
    if (this.passes === 1) await this.first();
  }

  /** Work a request asks for outside the passes. */
  ask(work: () => Promise<unknown>): Promise<unknown> {
    return this.asked(work);
  }
}

it("tries a background worker's pass that failed for want of Postgres again within a second, not at its next poll; a wrong query waits for that", async () => {
  const workers = [new OncePerMinute(() => nobody.raw("select 1")), new OncePerMinute(() => other.raw("select * from no_such_table"))];
  await Promise.all(workers.map((worker) => worker.start()));
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(workers.map((worker) => worker.passes)).toEqual([2, 1]);
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
});

it("has a pass take up work a request asked for at once when it failed for want of Postgres; a wrong query is the request's alone", async () => {
  const worker = new OncePerMinute(() => Promise.resolve());
  await worker.start();
  try {
    await expect.poll(() => worker.passes).toBe(1);
    await expect(worker.ask(() => other.raw("select * from no_such_table"))).rejects.toThrow();
    await expect(worker.ask(() => nobody.raw("select 1"))).rejects.toThrow();
    await expect.poll(() => worker.passes, { timeout: 1_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(worker.passes).toBe(2);
  } finally {
    await worker.stop();
  }
});
