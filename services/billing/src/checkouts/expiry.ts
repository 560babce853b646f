import { PollingWorker, workBatch, type BatchedItems } from "@tollgate/kit";
import { EXPIRY_WORKER, overdueCheckouts, type CheckoutRow } from "./checkouts.sql.js";
import { expire } from "./service.js";
import type { Parts } from "../parts.js";

const BATCH = 100;

/**
 * Expires open checkouts past their time, every minute, a batch at a time; a checkout that cannot
 * be expired is set aside for its seller after a few passes, and every other is expired.
 */
export class CheckoutExpirySweep extends PollingWorker {
  private readonly overdue: BatchedItems<CheckoutRow>;

  constructor(private readonly parts: Pick<Parts, "db" | "units" | "failures" | "logger" | "config">) {
    super({ intervalMs: 60_000, logger: parts.logger, failure: "expiring checkouts failed" });
    this.overdue = {
      worker: EXPIRY_WORKER,
      due: overdueCheckouts,
      keyOf: (checkout) => checkout.id,
      organizationOf: (checkout) => checkout.organization_id,
      work: (unit, overdue) => expire(parts, unit, overdue),
    };
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => workBatch(this.parts, this.overdue, BATCH, passOver));
  }
}
