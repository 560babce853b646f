import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, createLogger, Metrics, migrate, Outbox, Units, WorkFailures, workBatch, type BatchedItems, type Knex, type WorkFailureRow } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";
import { busNames } from "@tollgate/proto";

const SCHEMA = "batches_test";
let db: Knex;
let units: Units;
let failures: WorkFailures;

interface DueItem {
  id: string;
  organization_id: string;
}

/** Items due in `due_items`, done by setting `done`; a row that says `poison` cannot be done (a check refuses it). */
const dueItems: BatchedItems<DueItem> = {
  worker: "doing",
  due: (trx, { limit, passOver, only }) => {
    const notSetAside = WorkFailures.notSetAside("doing", "due_items.id");
    const due = trx<DueItem & { done: boolean }>("due_items").where({ done: false }).whereRaw(notSetAside.sql, notSetAside.bindings).whereNotIn("id", passOver);
    if (only) void due.where({ id: only });
    return due.orderBy("id").limit(limit).forUpdate().skipLocked().select("id", "organization_id");
  },
  keyOf: (item) => item.id,
  organizationOf: (item) => item.organization_id,
  work: (unit, items) => {
    unit.change(unit.db("due_items").whereIn("id", items.map((item) => item.id)).update({ done: true }));
  },
};

const done = () => db("due_items").where({ done: true }).orderBy("id").pluck("id");
const setAside = () => db<WorkFailureRow>("set_aside_work").whereNotNull("set_aside_at").select("item", "organization_id", "failures");

beforeAll(async () => {
  const environment = await createTestEnvironment();
  await migrate({ url: environment.databaseUrl, schema: SCHEMA }, {});
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 2 });
  const logger = createLogger({ service: "batches-test", level: "silent" });
  units = new Units(db, new Outbox("batches-test", SCHEMA, busNames(environment.natsPrefix)), logger);
  failures = new WorkFailures({ db, logger, metrics: new Metrics("batches-test") });
  await db.raw("create table due_items (id text primary key, organization_id text not null, poison boolean not null default false, done boolean not null default false, check (not (poison and done)))");
});

afterAll(async () => {
  await db?.destroy();
});

beforeEach(async () => {
  await db("due_items").delete();
  await db("set_aside_work").delete();
});

describe("work in batches", () => {
  it("do a batch in one go, and forget the failures of its items", async () => {
    await db("due_items").insert([{ id: "a", organization_id: "org_a" }, { id: "b", organization_id: "org_b" }]);
    await failures.failed({ worker: "doing", item: "a", organizationId: "org_a" }, new Error("once"));
    expect(await workBatch({ db, units, failures }, dueItems, 10, new Set())).toBe(2);
    expect(await done()).toEqual(["a", "b"]);
    expect(await db("set_aside_work").pluck("item")).toEqual([]);
  });

  it("do a failed batch one item at a time: the poison item fails alone, is passed over for the rest of the pass, and is set aside after its tries", async () => {
    await db("due_items").insert([
      { id: "a", organization_id: "org_a", poison: true },
      { id: "b", organization_id: "org_b" },
      { id: "c", organization_id: "org_b" },
    ]);
    const passOver = new Set<string>();
    expect(await workBatch({ db, units, failures }, dueItems, 2, passOver)).toBe(2);
    expect(await done()).toEqual(["b"]);
    expect([...passOver]).toEqual(["a"]);
    expect(await workBatch({ db, units, failures }, dueItems, 2, passOver)).toBe(1);
    expect(await done()).toEqual(["b", "c"]);

    for (let pass = 2; pass <= 5; pass++) await workBatch({ db, units, failures }, dueItems, 2, new Set());
    expect(await setAside()).toEqual([{ item: "a", organization_id: "org_a", failures: 5 }]);
    expect(await workBatch({ db, units, failures }, dueItems, 2, new Set())).toBe(0);
  });
});
