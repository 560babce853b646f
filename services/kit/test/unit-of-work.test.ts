import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEvent } from "@tollgate/proto";
import { connectBus, createDatabase, createLogger, migrate, Outbox, Units, type BusConnection, type Knex } from "@tollgate/kit";
import { createTestEnvironment, type TestEnvironment } from "@tollgate/kit/testing";

const itemMade = defineEvent("test.item_made", z.object({ item: z.number().int() }));
const itemPriced = defineEvent("test.item_priced", z.object({ item: z.number().int() }));
const SCHEMA = "unit_of_work_test";

let environment: TestEnvironment;
let db: Knex;
let bus: BusConnection;
let units: Units;

beforeAll(async () => {
  environment = await createTestEnvironment();
  await migrate({ url: environment.databaseUrl, schema: SCHEMA }, {});
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 3 });
  await db.schema.createTable("items", (table) => {
    table.integer("id").primary();
    table.text("state").notNullable();
  });
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "unit-of-work-test" });
  units = new Units(db, new Outbox("unit-of-work-test", SCHEMA, bus.names), createLogger({ service: "unit-of-work-test", level: "silent" }));
});

afterAll(async () => {
  await bus?.nc.close();
  await db?.destroy();
});

const outboxTypes = async () => (await db("outbox").select("envelope").orderBy("seq")).map((row: { envelope: { type: string; data: unknown } }) => [row.envelope.type, row.envelope.data]);
const items = () => db("items").select("id", "state").orderBy("id");

describe("a unit of work", () => {
  it("commits its queries, gathered changes and events together, then runs what waits for the commit", async () => {
    let woken = 0;
    const answer = await units.run(async (unit) => {
      await unit.db("items").insert({ id: 1, state: "made" });
      unit.change(unit.db("items").insert({ id: 2, state: "made" })).announce([itemMade, itemPriced], { item: 2 });
      unit.afterCommit(() => (woken += 1));
      expect(woken).toBe(0);
      return "done";
    });
    expect(answer).toBe("done");
    expect(woken).toBe(1);
    expect(await items()).toEqual([{ id: 1, state: "made" }, { id: 2, state: "made" }]);
    expect(await outboxTypes()).toEqual([["test.item_made", { item: 2 }], ["test.item_priced", { item: 2 }]]);
  });

  it("runs queries sent side by side one after another on its transaction, without pg's warning", async () => {
    const warnings: string[] = [];
    const noted = (warning: Error) => warnings.push(warning.message);
    process.on("warning", noted);
    try {
      const answers = await units.run((unit) =>
        Promise.all([
          unit.db.raw<{ rows: { n: number }[] }>("select pg_sleep(0.05), 1 as n").then(({ rows }) => rows[0]?.n),
          unit.db.raw<{ rows: { n: number }[] }>("select 2 as n").then(({ rows }) => rows[0]?.n),
          unit.db("items").count<{ count: string }[]>("* as count").then(([row]) => Number(row?.count)),
        ]),
      );
      expect(answers).toEqual([1, 2, 2]);
      // One of them failing fails the unit, as it would one after another.
      await expect(units.run((unit) => Promise.all([unit.db.raw("select pg_sleep(0.05)"), unit.db.raw("select 1 / 0"), unit.db.raw("select 1")]))).rejects.toThrow("division by zero");
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes("already executing a query"))).toEqual([]);
    } finally {
      process.off("warning", noted);
    }
  });

  it("leaves nothing behind, and wakes nothing, when it fails", async () => {
    let woken = 0;
    await expect(
      units.run(async (unit) => {
        await unit.db("items").insert({ id: 3, state: "made" });
        unit.change(unit.db("items").insert({ id: 4, state: "made" })).announce(itemMade, { item: 4 });
        await unit.write();
        unit.afterCommit(() => (woken += 1));
        throw new Error("the rule said no");
      }),
    ).rejects.toThrow("the rule said no");
    expect(woken).toBe(0);
    expect((await items()).map((item: { id: number }) => item.id)).toEqual([1, 2]);
    expect(await outboxTypes()).toHaveLength(2);
  });

  it("lets a step read back what it wrote with write(), and reports the rows each change touched", async () => {
    await units.run(async (unit) => {
      const counts = await unit.change(unit.db("items").where({ state: "made" }).update({ state: "priced" }), unit.db("items").where({ id: 99 }).delete()).write();
      expect(counts).toEqual([2, 0]);
      expect(await unit.db("items").where({ state: "priced" }).select("id")).toHaveLength(2);
    });
  });

  it("without a transaction, writes what it gathered in one statement, which commits whole or not at all", async () => {
    await units.run(
      (unit) => {
        unit.change(unit.db("items").insert({ id: 5, state: "made" })).announce(itemMade, { item: 5 });
        return Promise.resolve();
      },
      { transaction: false },
    );
    expect((await items()).map((item: { id: number }) => item.id)).toEqual([1, 2, 5]);
    // The second insert breaks the key: neither row nor event is written.
    await expect(
      units.run(
        (unit) => {
          unit.change(unit.db("items").insert({ id: 6, state: "made" }), unit.db("items").insert({ id: 5, state: "again" })).announce(itemMade, { item: 6 });
          return Promise.resolve();
        },
        { transaction: false },
      ),
    ).rejects.toThrow(/duplicate key/);
    expect((await items()).map((item: { id: number }) => item.id)).toEqual([1, 2, 5]);
    expect(await outboxTypes()).toHaveLength(3);
  });
});
