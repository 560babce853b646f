import { PollingWorker } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { WEBHOOK_DELIVERY } from "../deliveries/set-aside.js";
import { deleteSettledBefore } from "./events.sql.js";

const HOUR_MS = 3_600_000;
/** Events deleted per statement, so that a month's worth is not one long transaction. */
const BATCH = 1_000;

/** Deletes events (payloads and attempts with them) older than the retention period, hourly; any replica may, deleting twice is harmless. */
export class EventRetention extends PollingWorker {
  constructor(private readonly dispatcher: Parts) {
    super({ intervalMs: HOUR_MS, logger: dispatcher.logger, failure: "pruning old webhook events failed" });
  }

  protected async pass(): Promise<void> {
    const { db, config, logger, failures } = this.dispatcher;
    const cutoff = new Date(Date.now() - config.WEBHOOK_RETENTION_DAYS * 24 * HOUR_MS);
    let removed = 0;
    await this.drain(BATCH, async () => {
      const deleted = await deleteSettledBefore(db, cutoff, BATCH);
      // A set-aside event goes with the rest: its seller no longer sees it, nor can send it again.
      await failures.succeeded(WEBHOOK_DELIVERY, deleted);
      removed += deleted.length;
      return deleted.length;
    });
    if (removed > 0) logger.info({ removed, cutoff }, "pruned old webhook events");
  }
}
