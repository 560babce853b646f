import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineEvent, type EventDefinition, type EventEnvelope } from "@tollgate/proto";
import {
  connectBus,
  createDatabase,
  createLogger,
  ensureEventStream,
  Metrics,
  migrate,
  Outbox,
  OutboxRelay,
  type BusConnection,
  type Knex,
} from "@tollgate/kit";
import { createTestEnvironment, publishedEvents, spawnTypeScript, type TestEnvironment } from "@tollgate/kit/testing";

const itemCreated = defineEvent("test.item_created", z.object({ item: z.number().int() }));
const itemShipped = defineEvent("test.item_shipped", z.object({ item: z.number().int() }));
const SCHEMA = "outbox_test";

let environment: TestEnvironment;
let db: Knex;
let bus: BusConnection;
let outbox: Outbox;
const logger = createLogger({ service: "outbox-test", level: "silent" });

beforeAll(async () => {
  environment = await createTestEnvironment();
  await migrate({ url: environment.databaseUrl, schema: SCHEMA }, {});
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 5 });
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "outbox-test" });
  await ensureEventStream(bus);
  outbox = new Outbox("outbox-test", SCHEMA, bus.names);
});

afterAll(async () => {
  await bus?.nc.close();
  await db?.destroy();
});

function relay(options: { pollIntervalMs?: number } = {}): OutboxRelay {
  return new OutboxRelay({
    db,
    databaseUrl: environment.databaseUrl,
    schema: SCHEMA,
    bus,
    logger,
    metrics: new Metrics("outbox-test"),
    pollIntervalMs: options.pollIntervalMs ?? 100,
  });
}

/** Writes events of each definition, all with `data`, in the caller's transaction, as a unit of work does at its end. */
async function emitEach(trx: Knex.Transaction, events: EventDefinition<string, z.ZodType<{ item: number }>>[], data: { item: number }): Promise<EventEnvelope[]> {
  const envelopes = outbox.envelopes(events.map((event) => ({ event, data })));
  await outbox.write(trx, [], envelopes);
  return envelopes;
}

async function emit(trx: Knex.Transaction, event: EventDefinition<string, z.ZodType<{ item: number }>>, data: { item: number }): Promise<EventEnvelope> {
  const [envelope] = await emitEach(trx, [event], data);
  if (!envelope) throw new Error("no envelope was written");
  return envelope;
}

const streamEvents = () => publishedEvents(bus);

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pendingCount = async () => (await db("outbox").whereNull("published_at").count<{ count: number }[]>({ count: "*" }))[0]?.count;
const streamCount = async () => (await bus.jsm.streams.info(bus.names.eventStream)).state.messages;

async function clear(): Promise<void> {
  await db("outbox").delete();
  await bus.jsm.streams.purge(bus.names.eventStream);
}

describe("transactional outbox", () => {
  it("publishes an event once its transaction commits, woken by NOTIFY rather than the poll", async () => {
    await clear();
    const running = relay({ pollIntervalMs: 60_000 });
    await running.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the start-up drain finish
      const envelope = await db.transaction((trx) => emit(trx, itemCreated, { item: 1 }));
      const events = await eventually(streamEvents, (found) => found.length === 1, 5_000);
      expect(events).toEqual([envelope]);
      expect(envelope).toMatchObject({ type: "test.item_created", source: "outbox-test", data: { item: 1 } });
      expect(await pendingCount()).toBe(0);
    } finally {
      await running.stop();
    }
  });

  it("writes the events one change makes in one go, published in the order given", async () => {
    await clear();
    const running = relay();
    await running.start();
    try {
      const envelopes = await db.transaction((trx) => emitEach(trx, [itemCreated, itemShipped], { item: 7 }));
      const events = await eventually(streamEvents, (found) => found.length === 2, 5_000);
      expect(events).toEqual(envelopes);
      expect(events.map((event) => event.type)).toEqual(["test.item_created", "test.item_shipped"]);
      await expect(db.transaction((trx) => emitEach(trx, [itemCreated, itemShipped], { item: 0.5 }))).rejects.toThrow();
      // The relay marks what it published just after publishing it: on a busy machine, a moment after
      // the stream shows it. A refused change that had written anything would stay pending for good.
      expect(await eventually(pendingCount, (count) => Number(count) === 0, 5_000)).toBe(0);
    } finally {
      await running.stop();
    }
  });

  it("writes changes and the events announcing them in one statement: all of them, or none when a part fails", async () => {
    await clear();
    await db.schema.createTable("items", (table) => {
      table.integer("id").primary();
      table.text("state").notNullable();
    });
    const running = relay();
    await running.start();
    try {
      await db("items").insert({ id: 1, state: "new" });
      // No transaction: the statement alone is atomic.
      const [shipped] = outbox.envelopes([{ event: itemShipped, data: { item: 1 } }]);
      const counts = await outbox.write(db, [db("items").where({ id: 1 }).update({ state: "shipped" }), db("items").insert({ id: 2, state: "new" }), db("items").where({ id: 99 }).delete()], shipped ? [shipped] : []);
      expect(counts).toEqual([1, 1, 0]);
      expect(await db("items").orderBy("id")).toEqual([
        { id: 1, state: "shipped" },
        { id: 2, state: "new" },
      ]);
      expect(await eventually(streamEvents, (found) => found.length === 1, 5_000)).toEqual([shipped]);

      // Item 2 exists already: the insert fails, so the update beside it and the event are not written either.
      const failing = outbox.envelopes([{ event: itemCreated, data: { item: 2 } }]);
      await expect(outbox.write(db, [db("items").where({ id: 1 }).update({ state: "returned" }), db("items").insert({ id: 2, state: "new" })], failing)).rejects.toThrow(/duplicate key/);
      expect(await db("items").where({ id: 1 }).first()).toEqual({ id: 1, state: "shipped" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await streamEvents()).toEqual([shipped]);
      expect(await db("outbox").count<{ count: number }[]>({ count: "*" })).toEqual([{ count: 1 }]);
    } finally {
      await running.stop();
      await db.schema.dropTable("items");
    }
  });

  it("listens again after losing its LISTEN connection, so NOTIFY keeps waking it", async () => {
    await clear();
    const running = relay({ pollIntervalMs: 60_000 });
    await running.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const terminated = await db.raw<{ rows: unknown[] }>(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = ?",
        [`listen "${SCHEMA}_outbox"`],
      );
      expect(terminated.rows).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await db.transaction((trx) => emit(trx, itemCreated, { item: 3 }));
      const events = await eventually(streamEvents, (found) => found.length === 1, 5_000);
      expect(events.map((event) => event.data)).toEqual([{ item: 3 }]);
    } finally {
      await running.stop();
    }
  });

  it("never publishes an event whose transaction rolled back", async () => {
    await clear();
    const running = relay();
    await running.start();
    try {
      await expect(
        db.transaction(async (trx) => {
          await emit(trx, itemCreated, { item: 666 });
          throw new Error("the state change failed");
        }),
      ).rejects.toThrow("the state change failed");
      const committed = await db.transaction((trx) => emit(trx, itemCreated, { item: 2 }));
      await eventually(pendingCount, (count) => count === 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await streamEvents()).map((event) => event.data)).toEqual([{ item: 2 }]);
      expect((await db("outbox").select("id")).map((row: { id: string }) => row.id)).toEqual([committed.id]);
    } finally {
      await running.stop();
    }
  });

  it("rejects event data that does not match its schema before anything is written", async () => {
    await clear();
    await expect(
      db.transaction((trx) => emit(trx, itemCreated, { item: 1.5 })),
    ).rejects.toThrow(/expected int/i);
    expect(await pendingCount()).toBe(0);
  });

  it("publishes every committed event exactly once when the relay is killed mid-batch and restarted", async () => {
    await clear();
    const total = 1_200; // three batches of 500, 500 and 200
    await db.transaction(async (trx) => {
      for (let item = 0; item < total; item++) await emit(trx, itemCreated, { item });
    });
    const ids = (await db("outbox").orderBy("seq").select<{ id: string; seq: number }[]>("id", "seq")).map((row) => row.id);

    // Hold a row of the second batch so the relay publishes that batch and then waits to mark it.
    const held = await db.transaction();
    await held("outbox").where({ id: ids[700] }).forUpdate().select("seq");

    const doomed = spawnTypeScript(fileURLToPath(new URL("./fixtures/relay-process.ts", import.meta.url)), {
      env: { DATABASE_URL: environment.databaseUrl, NATS_URL: environment.natsUrl, NATS_PREFIX: environment.natsPrefix, SCHEMA },
    });
    await doomed.waitFor(/relay started/);
    expect(await eventually(streamCount, (count) => count === 1_000)).toBe(1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The crash happens here: batch two is in JetStream but not marked in the outbox.
    expect(await streamCount()).toBe(1_000);
    expect(await pendingCount()).toBe(700);
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    await held.rollback();

    const restarted = relay();
    await restarted.start();
    try {
      expect(await eventually(pendingCount, (count) => count === 0)).toBe(0);
      const published = await streamEvents();
      expect(published).toHaveLength(total);
      expect(published.map((event) => event.id)).toEqual(ids);
    } finally {
      await restarted.stop();
    }
  });

  it("keeps relaying with two replicas running, each event once and in commit order", async () => {
    await clear();
    const replicas = [relay(), relay()];
    await Promise.all(replicas.map((replica) => replica.start()));
    try {
      const emitted: string[] = [];
      for (let batch = 0; batch < 20; batch++) {
        await db.transaction(async (trx) => {
          for (let offset = 0; offset < 5; offset++) emitted.push((await emit(trx, itemCreated, { item: batch * 5 + offset })).id);
        });
      }
      expect(await eventually(pendingCount, (count) => count === 0)).toBe(0);
      const ordered = (await db("outbox").orderBy("seq").select<{ id: string }[]>("id")).map((row) => row.id);
      expect((await streamEvents()).map((event) => event.id)).toEqual(ordered);
      expect(new Set(ordered)).toEqual(new Set(emitted));
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
