import { failureReason, isDatabaseUnreachable, type Knex } from "../db/connection.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics.js";
import { countFailure, forgetFailures, notSetAsideSql, type WorkFailure } from "./set-aside.sql.js";

/** How many times an item may fail before it is set aside, unless a worker says otherwise. */
export const DEFAULT_MAX_FAILURES = 5;

/**
 * What background workers do with an item that fails: count it, and past a bound set it aside, so
 * one seller's poison item never holds back anyone else's work. A set-aside item is logged and
 * counted for operators (`work_set_aside_total`) and listed for its seller with its reason, until
 * the seller asks for it to be tried again.
 *
 * A failure for want of Postgres is nobody's item's fault: it is never counted, and the caller's
 * pass fails as a whole, to be tried again.
 */
export class WorkFailures {
  constructor(private readonly deps: { db: Knex; logger: Logger; metrics: Metrics }) {}

  /**
   * Counts the item's failure (in a statement of its own, outside the transaction that failed);
   * true when the item is now set aside. Rethrows when Postgres itself is away.
   */
  async failed(failure: Omit<WorkFailure, "reason">, error: unknown, options: { maxFailures?: number } = {}): Promise<boolean> {
    if (isDatabaseUnreachable(error)) throw error;
    const row = await countFailure(this.deps.db, { ...failure, reason: failureReason(error) }, options.maxFailures ?? DEFAULT_MAX_FAILURES);
    const context = { err: error, worker: failure.worker, item: failure.item, organizationId: failure.organizationId, failures: row.failures };
    if (row.set_aside_at === null) {
      this.deps.logger.warn(context, "a work item failed; it is tried again");
      return false;
    }
    this.deps.logger.error(context, "a work item kept failing and is set aside; everything else goes on");
    this.deps.metrics.workSetAside.inc({ worker: failure.worker });
    return true;
  }

  /** Forgets the failures of items that have now succeeded. */
  succeeded(worker: string, items: string[]): Promise<void> {
    return forgetFailures(this.deps.db, worker, items);
  }

  /** The condition (SQL over `keyColumn`) of an item `worker` has not set aside, for its claims. */
  static notSetAside = notSetAsideSql;
}
