import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claim, claimStatement, createDatabase, createLogger, LeaseKeeper, release, whileHeld, type Knex, type Lease } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";

const SCHEMA = "leases_test";
let db: Knex;

interface JobRow {
  id: string;
  run_at: Date;
  leased_until: Date | null;
  attempts: number;
  done: boolean;
}

const jobs: Lease = { table: "jobs", key: "id", pending: (alias) => `not ${alias}.done` };
const LEASE_MS = 30_000;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

beforeAll(async () => {
  const environment = await createTestEnvironment();
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 4 });
  await db.raw("create schema if not exists ??", [SCHEMA]);
  await db.schema.withSchema(SCHEMA).createTable("jobs", (table) => {
    table.text("id").primary();
    table.timestamp("run_at", { useTz: true }).notNullable();
    table.timestamp("leased_until", { useTz: true });
    table.integer("attempts").notNullable().defaultTo(0);
    table.boolean("done").notNullable().defaultTo(false);
  });
});

afterAll(async () => {
  await db?.destroy();
});

beforeEach(async () => {
  await db("jobs").delete();
});

const claimJobs = (limit: number) => claim<JobRow>(db, jobs, { limit, leaseMs: LEASE_MS });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logger = createLogger({ service: "leases-test", level: "silent" });

describe("leases", () => {
  it("claim due items oldest first, count the claim, and leave future and held items alone", async () => {
    await db("jobs").insert([
      { id: "later", run_at: new Date(Date.now() + 60_000) },
      { id: "second", run_at: ago(10) },
      { id: "first", run_at: ago(20) },
      { id: "held", run_at: ago(30), leased_until: new Date(Date.now() + 60_000), attempts: 1 },
      { id: "finished", run_at: ago(40), done: true },
    ]);
    const claimed = await claimJobs(1);
    expect(claimed.map((job) => [job.id, job.attempts])).toEqual([["first", 1]]);
    expect(claimed[0]?.leased_until?.getTime()).toBeGreaterThan(Date.now() + LEASE_MS - 5_000);
    expect((await claimJobs(10)).map((job) => job.id)).toEqual(["second"]);
    expect(await claimJobs(10)).toEqual([]);
  });

  it("let a replica claim side by side with another without taking the same item", async () => {
    await db("jobs").insert(Array.from({ length: 20 }, (_, index) => ({ id: `job-${index}`, run_at: ago(index) })));
    const rounds = await Promise.all([claimJobs(7), claimJobs(7), claimJobs(7)]);
    const ids = rounds.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(20);
  });

  it("give an item whose lease ran out to the next claim, and settle only the claim that holds it", async () => {
    await db("jobs").insert({ id: "job", run_at: ago(5) });
    const [first] = await claimJobs(1);
    if (!first) throw new Error("nothing claimed");
    // The first replica stalls past its lease; a second claims the job again.
    await db("jobs").where({ id: "job" }).update({ leased_until: ago(1) });
    const [second] = await claimJobs(1);
    expect(second?.attempts).toBe(2);
    const settle = (mark: number) => whileHeld(jobs, db("jobs").update({ done: true, leased_until: null }), { key: "job", mark });
    expect(await settle(first.attempts)).toBe(0);
    expect(await settle(2)).toBe(1);
    expect(await settle(2)).toBe(0);
  });

  it("release unsent items as if they had not been claimed, unless claimed again since", async () => {
    await db("jobs").insert([
      { id: "unsent", run_at: ago(5) },
      { id: "moved-on", run_at: ago(4) },
    ]);
    const claimed = await claimJobs(2);
    await db("jobs").where({ id: "moved-on" }).update({ attempts: 5 });
    await release(db, jobs, claimed.map((job) => ({ key: job.id, mark: job.attempts })));
    const rows = await db<JobRow>("jobs").orderBy("id");
    expect(rows.map((job) => [job.id, job.attempts, job.leased_until === null])).toEqual([
      ["moved-on", 5, false],
      ["unsent", 0, true],
    ]);
  });

  it("tell one claim from the next by its lease's end on a table that counts no claims", async () => {
    const uncounted: Lease = { table: "jobs", key: "id", attempts: null, pending: (alias) => `not ${alias}.done` };
    await db("jobs").insert({ id: "job", run_at: ago(5) });
    const [first] = await claim<JobRow>(db, uncounted, { limit: 1, leaseMs: LEASE_MS });
    if (!first?.leased_until) throw new Error("nothing claimed");
    expect(first.attempts).toBe(0);
    await db("jobs").where({ id: "job" }).update({ leased_until: ago(1) });
    const [second] = await claim<JobRow>(db, uncounted, { limit: 1, leaseMs: LEASE_MS });
    if (!second?.leased_until) throw new Error("not claimed again");
    const settle = (mark: Date) => whileHeld(uncounted, db("jobs").update({ done: true, leased_until: null }), { key: "job", mark });
    expect(await settle(first.leased_until)).toBe(0);
    expect(await settle(second.leased_until)).toBe(1);
  });

  it("embed the claim in a larger statement, narrowed by the caller", async () => {
    await db("jobs").insert([
      { id: "a-1", run_at: ago(3) },
      { id: "b-1", run_at: ago(2) },
    ]);
    const claimOfB = claimStatement(jobs, { limit: 5, leaseMs: LEASE_MS, where: { sql: "item.id like ?", bindings: ["b-%"] }, returning: "item.id" });
    const { rows } = await db.raw<{ rows: { id: string; upper: string }[] }>(`with claimed as (${claimOfB.sql}) select id, upper(id) as upper from claimed`, claimOfB.bindings);
    expect(rows).toEqual([{ id: "b-1", upper: "B-1" }]);
  });

  it("keep an item held for as long as its work goes on past a short lease, and let it go within the lease once the work ends", async () => {
    const leaseMs = 1_000;
    await db("jobs").insert({ id: "slow", run_at: ago(5) });
    const [claimed] = await claim<JobRow>(db, jobs, { limit: 1, leaseMs });
    if (!claimed) throw new Error("nothing claimed");
    const keeper = new LeaseKeeper<JobRow>({ db, lease: jobs, leaseMs, logger, claimOf: (job) => ({ key: job.id, mark: job.attempts }) });
    // Another replica looks for work all the while: how long it took to take the job, if it did.
    const takenBySomeoneElse = async (within: number) => {
      const started = Date.now();
      while (Date.now() - started < within) {
        if ((await claimJobs(1)).length > 0) return Date.now() - started;
        await sleep(50);
      }
      return null;
    };
    expect(await keeper.whileHolding([claimed], () => takenBySomeoneElse(2.5 * leaseMs))).toBeNull();
    expect(await takenBySomeoneElse(3 * leaseMs)).toBeLessThan(leaseMs + 500);
    const [row] = await db<JobRow>("jobs").where({ id: "slow" });
    expect(row?.attempts).toBe(2);
  });

  it("extend only the claims that still hold their items", async () => {
    await db("jobs").insert([
      { id: "kept", run_at: ago(5) },
      { id: "taken", run_at: ago(4) },
      { id: "settled", run_at: ago(3) },
    ]);
    const claimed = await claim<JobRow>(db, jobs, { limit: 3, leaseMs: 1_000 });
    // Since the claim: "taken" was claimed again by another replica, "settled" was settled.
    await db("jobs").where({ id: "taken" }).update({ attempts: 5 });
    await db("jobs").where({ id: "settled" }).update({ done: true, leased_until: null });
    const before = await db<JobRow>("jobs").orderBy("id");
    const keeper = new LeaseKeeper<JobRow>({ db, lease: jobs, leaseMs: 1_000, logger, claimOf: (job) => ({ key: job.id, mark: job.attempts }) });
    await keeper.whileHolding(claimed, () => sleep(500));
    const after = await db<JobRow>("jobs").orderBy("id");
    const leaseEnds = (rows: JobRow[]) => Object.fromEntries(rows.map((job) => [job.id, job.leased_until?.getTime() ?? null]));
    expect(leaseEnds(after).kept).toBeGreaterThan(leaseEnds(before).kept ?? Infinity);
    expect(leaseEnds(after).taken).toBe(leaseEnds(before).taken);
    expect(leaseEnds(after).settled).toBeNull();
    expect(after.map((job) => job.attempts)).toEqual(before.map((job) => job.attempts));
  });

  it("refuse to keep a lease that counts no claims, whose end tells one claim from the next", () => {
    const uncounted: Lease = { table: "jobs", key: "id", attempts: null };
    expect(() => new LeaseKeeper<JobRow>({ db, lease: uncounted, leaseMs: 1_000, logger, claimOf: (job) => ({ key: job.id, mark: job.attempts }) })).toThrow(/counts no claims/);
  });
});
