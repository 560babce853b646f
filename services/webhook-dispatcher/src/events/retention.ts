import { SerialRunner, type Worker } from "@tollgate/kit";
import type { Dispatcher } from "../dispatcher.js";
import { deleteSettledBefore } from "./events.sql.js";

const HOUR_MS = 3_600_000;

/** Deletes events (payloads and attempts with them) older than the retention period, hourly; any replica may, deleting twice is harmless. */
export class EventRetention implements Worker {
  private readonly runner: SerialRunner;

  constructor(private readonly dispatcher: Dispatcher) {
    this.runner = new SerialRunner(
      () => this.prune(),
      (error) => dispatcher.logger.error({ err: error }, "pruning old webhook events failed"),
    );
  }

  start(): Promise<void> {
    this.runner.poll(HOUR_MS);
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async prune(): Promise<void> {
    const { db, config, logger } = this.dispatcher;
    const cutoff = new Date(Date.now() - config.WEBHOOK_RETENTION_DAYS * 24 * HOUR_MS);
    const removed = await deleteSettledBefore(db, cutoff);
    if (removed > 0) logger.info({ removed, cutoff }, "pruned old webhook events");
  }
}
