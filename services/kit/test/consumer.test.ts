import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AckPolicy, DeliverPolicy } from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { defineEvent, memberAdded, type EventEnvelope } from "@tollgate/proto";
import {
  connectBus,
  createDatabase,
  createLogger,
  ensureEventStream,
  EventConsumer,
  Metrics,
  PostgresConsumerStore,
  migrate,
  on,
  Outbox,
  type BusConnection,
  type ConsumerDefinition,
  type Knex,
} from "@tollgate/kit";
import { createTestEnvironment, freePort, type TestEnvironment } from "@tollgate/kit/testing";
import { narrowestFilter } from "../src/bus/consumer.js";

const itemCreated = defineEvent("test.item_created", z.object({ item: z.number().int() }));
const itemCounted = defineEvent("test.item_counted", z.object({ item: z.number().int() }));
const SCHEMA = "consumer_test";
const logger = createLogger({ service: "consumer-test", level: "silent" });

let environment: TestEnvironment;
let db: Knex;
const connections: BusConnection[] = [];
let publisher: BusConnection;

beforeAll(async () => {
  environment = await createTestEnvironment();
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 10 });
  await migrate({ url: environment.databaseUrl, schema: SCHEMA }, {
    "0001_effects": {
      up: (knex) =>
        knex.schema.createTable("effects", (t) => {
          t.uuid("event_id").notNullable();
          t.text("replica").notNullable();
          t.integer("item").notNullable();
        }),
    },
  });
  publisher = await connect();
  await ensureEventStream(publisher);
});

afterAll(async () => {
  for (const connection of connections) await connection.nc.close();
  await db?.destroy();
});

beforeEach(async () => {
  // Every test starts new durables, which would otherwise also receive the earlier tests' events.
  await publisher.jsm.streams.purge(publisher.names.eventStream);
  await db("effects").delete();
  await db("dead_letters").delete();
});

async function connect(): Promise<BusConnection> {
  const connection = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "consumer-test" });
  connections.push(connection);
  return connection;
}

function envelope(item: number): EventEnvelope {
  return { id: randomUUID(), type: itemCreated.type, occurred_at: new Date().toISOString(), source: "test", data: { item } };
}

/** Publishes as a producer's relay would; `msgID` differs per call so a repeat is a real redelivery. */
async function publish(event: EventEnvelope | string): Promise<void> {
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  await publisher.js.publish(publisher.names.eventSubject(itemCreated.type), payload, { msgID: randomUUID() });
}

/** A consumer that records each event it applies as a row in `effects`. */
async function startConsumer(
  name: string,
  replica: string,
  options: Partial<ConsumerDefinition> & { before?: (item: number) => Promise<void> } = {},
): Promise<{ consumer: EventConsumer; metrics: Metrics }> {
  const metrics = new Metrics(`consumer-test-${replica}`);
  const consumer = new EventConsumer(
    {
      name,
      batchSize: 5,
      retryDelaysMs: [50],
      ...options,
      handlers: [
        on(itemCreated, async (event, { trx }) => {
          await options.before?.(event.data.item);
          await trx("effects").insert({ event_id: event.id, replica, item: event.data.item });
        }),
      ],
    },
    { store: new PostgresConsumerStore(db, new Outbox("consumer-test", SCHEMA, publisher.names), logger), bus: await connect(), logger, metrics },
  );
  await consumer.start();
  return { consumer, metrics };
}

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const effectCount = async () => (await db("effects").count<{ count: number }[]>({ count: "*" }))[0]?.count ?? 0;
const counterValue = async (metrics: Metrics, name: string, labels: Record<string, string>) => {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))?.value ?? 0;
};

describe("durable consumers", () => {
  it("applies an event delivered twice only once", async () => {
    const { consumer, metrics } = await startConsumer("twice", "a");
    try {
      const event = envelope(7);
      await publish(event);
      await publish(event);
      await until(async () => (await counterValue(metrics, "bus_consumer_events_total", { outcome: "duplicate" })) === 1);
      expect(await db("effects").select("event_id", "item")).toEqual([{ event_id: event.id, item: 7 }]);
      expect(await counterValue(metrics, "bus_consumer_events_total", { outcome: "applied" })).toBe(1);
    } finally {
      await consumer.stop();
    }
  });

  it("splits the work between two replicas and applies every event once", async () => {
    const slowly = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
    const replicas = await Promise.all([
      startConsumer("split", "a", { before: slowly }),
      startConsumer("split", "b", { before: slowly }),
    ]);
    try {
      const events = Array.from({ length: 200 }, (_, item) => envelope(item));
      for (const event of events) await publish(event);
      await until(async () => (await effectCount()) >= 200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = await db("effects").select<{ event_id: string; replica: string }[]>("event_id", "replica");
      expect(rows).toHaveLength(200);
      expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set(events.map((event) => event.id)));
      expect(rows.filter((row) => row.replica === "a").length).toBeGreaterThan(0);
      expect(rows.filter((row) => row.replica === "b").length).toBeGreaterThan(0);
    } finally {
      await Promise.all(replicas.map(({ consumer }) => consumer.stop()));
    }
  });

  it("retries a failing handler with backoff and applies the event once it succeeds", async () => {
    let attempts = 0;
    const { consumer, metrics } = await startConsumer("flaky", "a", {
      before: () => {
        attempts += 1;
        return attempts < 3 ? Promise.reject(new Error("downstream hiccup")) : Promise.resolve();
      },
    });
    try {
      await publish(envelope(1));
      await until(async () => (await effectCount()) === 1);
      expect(attempts).toBe(3);
      expect(await counterValue(metrics, "bus_consumer_redeliveries_total", { consumer: "flaky" })).toBe(2);
      expect(await db("dead_letters").select()).toEqual([]);
    } finally {
      await consumer.stop();
    }
  });

  it("applies the rest of a batch once each when one event in it fails", async () => {
    let failures = 0;
    const { consumer } = await startConsumer("batch", "a", {
      batchSize: 20,
      before: (item) => {
        if (item !== 3 || failures > 0) return Promise.resolve();
        failures += 1;
        return Promise.reject(new Error("item 3 fails once"));
      },
    });
    try {
      const events = Array.from({ length: 10 }, (_, item) => envelope(item));
      await Promise.all(events.map((event) => publish(event)));
      await until(async () => (await effectCount()) >= 10);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const items = (await db("effects").select<{ item: number }[]>("item")).map((row) => row.item);
      expect(items.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(failures).toBe(1);
      expect(await db("dead_letters").select()).toEqual([]);
    } finally {
      await consumer.stop();
    }
  });

  it("sets an event aside in dead_letters after its last attempt and stops redelivering it", async () => {
    let attempts = 0;
    const { consumer } = await startConsumer("doomed", "a", {
      maxDeliveries: 3,
      before: () => {
        attempts += 1;
        return Promise.reject(new Error("this event can never be applied"));
      },
    });
    try {
      const event = envelope(9);
      await publish(event);
      await until(async () => (await db("dead_letters").count<{ count: number }[]>({ count: "*" }))[0]?.count === 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(attempts).toBe(3);
      const [letter] = await db("dead_letters").select<{ consumer: string; error: string; deliveries: number; payload: string }[]>();
      expect(letter).toMatchObject({ consumer: "doomed", error: "this event can never be applied", deliveries: 3 });
      expect(JSON.parse(letter?.payload ?? "")).toEqual(event);
      expect(await effectCount()).toBe(0);
    } finally {
      await consumer.stop();
    }
  });

  it("holds events while Postgres is away instead of using up their attempts, and applies each once it is back", async () => {
    // A real connection failure, as every statement meets while Postgres restarts.
    const away = createDatabase({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, schema: SCHEMA, poolMax: 1 });
    let failures = 0;
    const { consumer, metrics } = await startConsumer("outage", "a", {
      maxDeliveries: 2,
      before: async () => {
        if (failures >= 6) return;
        failures += 1;
        await away.raw("select 1");
      },
    });
    try {
      await publish(envelope(1));
      await publish(envelope(2));
      await until(async () => (await effectCount()) === 2);
      expect(failures).toBe(6);
      expect(await db("dead_letters").select()).toEqual([]);
      expect(await counterValue(metrics, "bus_consumer_redeliveries_total", { consumer: "outage" })).toBe(0);
    } finally {
      await consumer.stop();
      await away.destroy();
    }
  });

  it("keeps an event whose handler outlasts the ack wait with its replica, telling JetStream it is still working on it", async () => {
    let calls = 0;
    const slowly = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    };
    const replicas = await Promise.all([startConsumer("slow", "a", { ackWaitMs: 1_000, before: slowly }), startConsumer("slow", "b", { ackWaitMs: 1_000, before: slowly })]);
    try {
      await publish(envelope(1));
      await until(async () => (await effectCount()) === 1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(calls).toBe(1);
      for (const [index, { metrics }] of replicas.entries()) expect(await counterValue(metrics, "bus_consumer_redeliveries_total", { consumer: "slow" }), `replica ${index}`).toBe(0);
    } finally {
      await Promise.all(replicas.map(({ consumer }) => consumer.stop()));
    }
  });

  it("gives the events a replica took and never acknowledged (it died) to another within seconds, on a durable an older release made with a 30 s ack wait", async () => {
    const stream = publisher.names.eventStream;
    await publisher.jsm.consumers.add(stream, {
      durable_name: "orphaned",
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(30_000),
      filter_subject: publisher.names.eventSubject(itemCreated.type),
    });
    const { consumer: upgraded } = await startConsumer("orphaned", "a");
    await upgraded.stop();
    for (const item of [1, 2, 3]) await publish(envelope(item));
    // A replica takes the three events and dies before acknowledging any.
    const dying = await connect();
    let taken = 0;
    for await (const message of await (await dying.js.consumers.get(stream, "orphaned")).fetch({ max_messages: 3, expires: 5_000 })) taken += message.info.deliveryCount;
    expect(taken).toBe(3);
    await dying.nc.close();
    const died = Date.now();
    const { consumer } = await startConsumer("orphaned", "b");
    try {
      await until(async () => (await effectCount()) === 3, 40_000);
      expect(Date.now() - died).toBeLessThan(10_000);
    } finally {
      await consumer.stop();
    }
  });

  it("leaves nothing to the ack wait when it stops: the events it took are applied before it goes", async () => {
    let release = () => {};
    const first = new Promise<void>((resolve) => (release = resolve));
    let begun = false;
    const stopping = await startConsumer("handover", "a", {
      batchSize: 1,
      ackWaitMs: 30_000,
      before: (item) => {
        if (item !== 0) return Promise.resolve();
        begun = true;
        return first;
      },
    });
    for (const item of [0, 1, 2, 3, 4]) await publish(envelope(item));
    // It is applying the first event, and has taken the next one meanwhile.
    await until(() => Promise.resolve(begun));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await startConsumer("handover", "b", { batchSize: 1, ackWaitMs: 30_000 });
    try {
      const stopped = stopping.consumer.stop();
      release();
      await stopped;
      const released = Date.now();
      await until(async () => (await effectCount()) === 5, 10_000);
      expect(Date.now() - released).toBeLessThan(5_000);
    } finally {
      await other.consumer.stop();
    }
  });

  it("gives handlers a unit of work: its changes and events commit with the inbox mark, and its after-commit effects run once", async () => {
    const woken: number[] = [];
    const metrics = new Metrics("consumer-test-unit");
    const consumer = new EventConsumer(
      {
        name: "unit",
        batchSize: 5,
        retryDelaysMs: [50],
        handlers: [
          on(itemCreated, (event, { unit }) => {
            unit
              .change(unit.db("effects").insert({ event_id: event.id, replica: "unit", item: event.data.item }))
              .announce(itemCounted, { item: event.data.item })
              .afterCommit(() => woken.push(event.data.item));
            return Promise.resolve();
          }),
        ],
      },
      { store: new PostgresConsumerStore(db, new Outbox("consumer-test", SCHEMA, publisher.names), logger), bus: await connect(), logger, metrics },
    );
    await consumer.start();
    try {
      const event = envelope(7);
      await publish(event);
      await publish(event);
      await until(async () => woken.length === 1 && (await effectCount()) === 1);
      const announced = await db("outbox").whereRaw("envelope->>'type' = ?", [itemCounted.type]).select("envelope");
      expect(announced.map((row: { envelope: { data: unknown } }) => row.envelope.data)).toEqual([{ item: 7 }]);
      // The repeat was a duplicate: nothing more written, nothing woken.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(woken).toEqual([7]);
    } finally {
      await consumer.stop();
    }
  });

  it("dead-letters a malformed event at once instead of retrying it", async () => {
    let attempts = 0;
    const { consumer } = await startConsumer("strict", "a", {
      before: () => {
        attempts += 1;
        return Promise.resolve();
      },
    });
    try {
      await publish("{not json");
      await publish(JSON.stringify({ ...envelope(1), data: { item: "one" } }));
      await until(async () => (await db("dead_letters").count<{ count: number }[]>({ count: "*" }))[0]?.count === 2);
      const letters = await db("dead_letters").orderBy("id").select("error", "deliveries");
      expect(letters).toEqual([
        { error: "payload is not JSON", deliveries: 1 },
        { error: expect.stringMatching(/^invalid test\.item_created data: /) as string, deliveries: 1 },
      ]);
      expect(attempts).toBe(0);
    } finally {
      await consumer.stop();
    }
  });

  it("dead-letters, never applies, another service's event that did not come on its owner's subject or names another source", async () => {
    const metrics = new Metrics("consumer-test-owners");
    const consumer = new EventConsumer(
      {
        name: "owners",
        // Two families, as a membership copy follows: a filter wide enough to hear every subject.
        handlers: [on(memberAdded, (event, { trx }) => trx("effects").insert({ event_id: event.id, replica: event.data.user_id, item: 0 })), on(itemCounted, () => Promise.resolve())],
      },
      { store: new PostgresConsumerStore(db, new Outbox("consumer-test", SCHEMA, publisher.names), logger), bus: await connect(), logger, metrics },
    );
    await consumer.start();
    const added = (userId: string, source: string): EventEnvelope => ({
      id: randomUUID(),
      type: memberAdded.type,
      occurred_at: new Date().toISOString(),
      source,
      data: { id: randomUUID(), organization_id: "org_1", user_id: userId, role: "owner" },
    });
    const publishOn = (type: string, event: EventEnvelope) => publisher.js.publish(publisher.names.eventSubject(type), JSON.stringify(event), { msgID: event.id });
    try {
      // Billing's NATS user may publish on billing's subjects only: there, a member.added is billing's forgery.
      await publishOn("billing.member.added", added("forged-on-billing-subject", "organization"));
      await publishOn(memberAdded.type, added("forged-source", "billing"));
      await publishOn(memberAdded.type, added("real-member", "organization"));
      await until(async () => (await effectCount()) === 1 && (await db("dead_letters").count<{ count: number }[]>({ count: "*" }))[0]?.count === 2);
      expect(await db("effects").pluck("replica")).toEqual(["real-member"]);
      const letters = await db("dead_letters").orderBy("id").select<{ subject: string; error: string }[]>("subject", "error");
      expect(letters).toEqual([
        {
          subject: publisher.names.eventSubject("billing.member.added"),
          error: `member.added is organization's event and arrived on ${publisher.names.eventSubject("billing.member.added")}, not on organization's subject ${publisher.names.eventSubject("member.added")}`,
        },
        { subject: publisher.names.eventSubject("member.added"), error: "member.added is organization's event but names billing as its source" },
      ]);
    } finally {
      await consumer.stop();
    }
  });
});

describe("narrowestFilter", () => {
  it("uses the exact type for one handler and the common leading tokens for several", () => {
    expect(narrowestFilter(["order.created"])).toBe("order.created");
    expect(narrowestFilter(["order.created", "order.paid"])).toBe("order.>");
    expect(narrowestFilter(["order.created", "subscription.created"])).toBe(">");
  });
});
