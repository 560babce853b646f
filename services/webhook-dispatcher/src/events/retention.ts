import { PollingWorker } from "@tollgate/kit";
import type { Dispatcher } from "../dispatcher.js";
import { deleteSettledBefore } from "./events.sql.js";

const HOUR_MS = 3_600_000;

/** Deletes events (payloads and attempts with them) older than the retention period, hourly; any replica may, deleting twice is harmless. */
export class EventRetention extends PollingWorker {
  constructor(private readonly dispatcher: Dispatcher) {
    super({ intervalMs: HOUR_MS, logger: dispatcher.logger, failure: "pruning old webhook events failed" });
  }

  protected async pass(): Promise<void> {
    const { db, config, logger } = this.dispatcher;
    const cutoff = new Date(Date.now() - config.WEBHOOK_RETENTION_DAYS * 24 * HOUR_MS);
    const removed = await deleteSettledBefore(db, cutoff);
    if (removed > 0) logger.info({ removed, cutoff }, "pruned old webhook events");
  }
}
