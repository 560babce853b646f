import { PollingWorker, workBatch, type BatchedItems } from "@tollgate/kit";
import { clearStateChanges, dueStateChanges, STATE_WORKER, type DueStateChange } from "../customers/customers.sql.js";
import { announceBilling } from "../events.js";
import { customerStateJson } from "./output.js";
import type { Parts } from "../parts.js";

const BATCH = 50;

/**
 * Announces customer.state_changed for customers whose state changed, once per burst: every change
 * records when it came (billing events through announceBilling, meters through the measurer), and a
 * customer's row is taken once no change has come for CUSTOMER_STATE_DEBOUNCE_MS (FOR UPDATE SKIP LOCKED,
 * so two replicas never announce one change twice). A batch takes one statement to read and one to
 * announce and clear; a customer whose state cannot be announced is set aside for its seller after a
 * few passes, and every other customer's is announced.
 */
export class CustomerStateAnnouncer extends PollingWorker {
  private readonly changes: BatchedItems<DueStateChange>;

  constructor(private readonly parts: Pick<Parts, "db" | "units" | "failures" | "logger" | "config">) {
    super({ intervalMs: Math.max(100, Math.min(1_000, parts.config.CUSTOMER_STATE_DEBOUNCE_MS / 2)), logger: parts.logger, failure: "announcing customer states failed" });
    this.changes = {
      worker: STATE_WORKER,
      due: (db, which) => dueStateChanges(db, { ...which, settleMs: parts.config.CUSTOMER_STATE_DEBOUNCE_MS }),
      keyOf: (change) => change.customer_id,
      organizationOf: (change) => change.holdings?.organization_id ?? null,
      work: (unit, due) => {
        if (due.length === 0) return;
        unit.change(clearStateChanges(unit.db, due.map((row) => row.customer_id)));
        for (const { holdings } of due) {
          if (holdings && holdings.deleted_at === null) announceBilling(unit, "customer.state_changed", holdings.organization_id, customerStateJson(holdings));
        }
      },
    };
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => workBatch(this.parts, this.changes, BATCH, passOver));
  }
}
