import type { Knex } from "../db/connection.js";
import { storableText } from "../db/storable-text.js";

/**
 * A background work item that failed: counted while it is retried, and set aside (`set_aside_at`)
 * once it has failed too often, so the worker passes it over and every other item goes on.
 */
export interface WorkFailureRow {
  /** A bigint, which the kit reads as a number. */
  id: number;
  /** The worker that failed on it (`webhook_delivery`, `usage_measurement`, a consumer's name …). */
  worker: string;
  /** The item's own id in that worker's table. */
  item: string;
  /** The seller it belongs to, when it belongs to one: they see it and can act on it. */
  organization_id: string | null;
  /** Why its last try failed. */
  reason: string;
  failures: number;
  first_failed_at: Date;
  last_failed_at: Date;
  set_aside_at: Date | null;
}

export interface WorkFailure {
  worker: string;
  item: string;
  organizationId: string | null;
  reason: string;
}

/** A reason is read by people: keep it short, and storable. */
const storableReason = (reason: string) => storableText(reason.slice(0, 1000));

/**
 * Counts a failure of the item and sets it aside when this one is its `maxFailures`th (1: at once);
 * the row as it now stands.
 */
export async function countFailure(db: Knex, failure: WorkFailure, maxFailures: number): Promise<WorkFailureRow> {
  const { rows } = await db.raw<{ rows: WorkFailureRow[] }>(
    `insert into set_aside_work as work (worker, item, organization_id, reason, failures, set_aside_at)
     values (?, ?, ?, ?, 1, case when 1 >= ? then now() end)
     on conflict (worker, item) do update
     set reason = excluded.reason, failures = work.failures + 1, last_failed_at = now(),
         set_aside_at = coalesce(work.set_aside_at, case when work.failures + 1 >= ? then now() end)
     returning *`,
    [failure.worker, failure.item, failure.organizationId, storableReason(failure.reason), maxFailures, maxFailures],
  );
  const [row] = rows;
  if (!row) throw new Error("counting a work failure returned no row");
  return row;
}

/** Forgets an item's failures: it succeeded after all, or its seller asked for it to be tried again. */
export async function forgetFailures(db: Knex, worker: string, items: string[]): Promise<void> {
  if (items.length === 0) return;
  await db("set_aside_work").where({ worker }).whereIn("item", items).delete();
}

/** The condition (SQL over `keyColumn`, e.g. `event.id`) of an item `worker` has not set aside. */
export const notSetAsideSql = (worker: string, keyColumn: string): { sql: string; bindings: string[] } => ({
  sql: `not exists (select 1 from set_aside_work aside where aside.worker = ? and aside.item = ${keyColumn} and aside.set_aside_at is not null)`,
  bindings: [worker],
});

/** The items set aside for the organizations, newest first, a page at a time. */
export function setAsideOf(db: Knex, organizationIds: string[]): Knex.QueryBuilder {
  return db<WorkFailureRow>("set_aside_work").whereIn("organization_id", organizationIds).whereNotNull("set_aside_at").select("*");
}

/** One set-aside item of the organizations, if there is one. */
export async function findSetAside(db: Knex, organizationIds: string[], id: string): Promise<WorkFailureRow | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  return setAsideOf(db, organizationIds).where({ id }).first<WorkFailureRow | undefined>();
}
