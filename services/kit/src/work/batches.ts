import type { UnitOfWork, Units } from "../bus/unit-of-work.js";
import { isDatabaseUnreachable, type Knex } from "../db/connection.js";
import type { WorkFailures } from "./set-aside.js";

/** Due items a worker takes a batch at a time, as `workBatch` needs to know them. */
export interface BatchedItems<Item> {
  /** The worker's name in `set_aside_work`. */
  worker: string;
  /**
   * Up to `limit` due items, locked (FOR UPDATE SKIP LOCKED) in `db`'s transaction: none set aside,
   * none of `passOver`, and only the one keyed `only` when it is given.
   */
  due(db: Knex, which: { limit: number; passOver: string[]; only?: string }): Promise<Item[]>;
  keyOf(item: Item): string;
  /** The seller the item belongs to, who sees it once it is set aside. */
  organizationOf(item: Item): string | null;
  /** What is done with due items, in the unit that took them. */
  work(unit: UnitOfWork, items: Item[]): Promise<void> | void;
}

/**
 * One batch of due items, worked on in one unit of work (one transaction, as cheap as a batch can
 * be). A batch that fails is done again an item at a time, each in a unit of its own, so one item
 * that cannot be done (a poison item) fails alone: its failure is counted, and past the bound it is
 * set aside, while every other item of the batch is done. An item that failed is added to
 * `passOver`, so the pass's next batches leave it to a later pass. How many items the batch took.
 */
export async function workBatch<Item>(deps: { db: Knex; units: Units; failures: WorkFailures }, items: BatchedItems<Item>, limit: number, passOver: Set<string>): Promise<number> {
  const { units, failures } = deps;
  let done: string[];
  try {
    done = await units.run(
      async (unit) => {
        const due = await items.due(unit.db, { limit, passOver: [...passOver] });
        await items.work(unit, due);
        return due.map((item) => items.keyOf(item));
      },
      { batch: true },
    );
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw error;
    return workOneByOne(deps, items, limit, passOver);
  }
  await failures.succeeded(items.worker, done);
  return done.length;
}

/** The batch that failed, each item in a unit of its own (read again there, locked). */
async function workOneByOne<Item>(deps: { db: Knex; units: Units; failures: WorkFailures }, items: BatchedItems<Item>, limit: number, passOver: Set<string>): Promise<number> {
  const { db, units, failures } = deps;
  // Outside a transaction, so nothing stays locked: which items the batch was.
  const batch = await items.due(db, { limit, passOver: [...passOver] });
  const done: string[] = [];
  for (const item of batch) {
    const key = items.keyOf(item);
    try {
      const worked = await units.run(async (unit) => {
        const [still] = await items.due(unit.db, { limit: 1, passOver: [], only: key });
        if (still) await items.work(unit, [still]);
        return still !== undefined;
      });
      if (worked) done.push(key);
    } catch (error) {
      passOver.add(key);
      await failures.failed({ worker: items.worker, item: key, organizationId: items.organizationOf(item) }, error);
    }
  }
  await failures.succeeded(items.worker, done);
  return batch.length;
}
