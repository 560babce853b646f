import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, createLogger, Metrics, migrate, WorkFailures, type Knex, type WorkFailureRow } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";

const SCHEMA = "set_aside_test";
let db: Knex;
let metrics: Metrics;
let failures: WorkFailures;

const item = (id: string, organizationId = "org_a") => ({ worker: "measuring", item: id, organizationId });
const setAside = () =>
  db<WorkFailureRow>("set_aside_work").whereNotNull("set_aside_at").orderBy("item").select<Pick<WorkFailureRow, "worker" | "item" | "organization_id" | "reason" | "failures">[]>("worker", "item", "organization_id", "reason", "failures");

beforeAll(async () => {
  const environment = await createTestEnvironment();
  await migrate({ url: environment.databaseUrl, schema: SCHEMA }, {});
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 2 });
  metrics = new Metrics("set-aside-test");
  failures = new WorkFailures({ db, logger: createLogger({ service: "set-aside-test", level: "silent" }), metrics });
});

afterAll(async () => {
  await db?.destroy();
});

beforeEach(async () => {
  await db("set_aside_work").delete();
});

describe("work failures", () => {
  it("retry an item until its bound, then set it aside with its last reason, counted for operators", async () => {
    expect(await failures.failed(item("e1"), new Error("first"), { maxFailures: 3 })).toBe(false);
    expect(await failures.failed(item("e1"), new Error("second"), { maxFailures: 3 })).toBe(false);
    expect(await setAside()).toEqual([]);
    expect(await failures.failed(item("e1"), new Error("value out of range: overflow"), { maxFailures: 3 })).toBe(true);
    expect(await setAside()).toEqual([{ worker: "measuring", item: "e1", organization_id: "org_a", reason: "value out of range: overflow", failures: 3 }]);
    const counted = await metrics.workSetAside.get();
    expect(counted.values).toEqual([expect.objectContaining({ labels: { worker: "measuring" }, value: 1 })]);
  });

  it("keep a stored reason free of NUL, and forget an item's failures once it succeeds", async () => {
    await failures.failed(item("e2"), new Error("bad \u0000 byte"), { maxFailures: 1 });
    expect((await setAside())[0]?.reason).toBe("bad  byte");
    await failures.succeeded("measuring", ["e2"]);
    expect(await db("set_aside_work").pluck("item")).toEqual([]);
  });

  it("give a failed query's reason as Postgres says it, without the statement before it", async () => {
    const refused: unknown = await db.raw("select 1 / (? - 1) as ratio", [1]).catch((error: unknown) => error);
    await failures.failed(item("e6"), refused, { maxFailures: 1 });
    expect((await setAside())[0]?.reason).toBe("division by zero");
  });

  it("never count a failure for want of Postgres against the item", async () => {
    const unreachable = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    await expect(failures.failed(item("e3"), unreachable)).rejects.toBe(unreachable);
    expect(await db("set_aside_work").pluck("item")).toEqual([]);
  });

  it("exclude set-aside items from a worker's claims, and only that worker's", async () => {
    await db.raw("create table if not exists items (id text primary key)");
    await db("items").delete();
    await db("items").insert([{ id: "e4" }, { id: "e5" }]);
    await failures.failed(item("e4"), new Error("poison"), { maxFailures: 1 });
    const claimable = (worker: string) => {
      const condition = WorkFailures.notSetAside(worker, "items.id");
      return db("items").whereRaw(condition.sql, condition.bindings).orderBy("id").pluck("id");
    };
    expect(await claimable("measuring")).toEqual(["e5"]);
    expect(await claimable("another")).toEqual(["e4", "e5"]);
  });
});
