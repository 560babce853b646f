import { PollingWorker, type Logger, type Units } from "@tollgate/kit";
import { overdueCheckouts } from "./checkouts.sql.js";
import { expire, type CheckoutSettings } from "./service.js";

/** Expires open checkouts past their time, every minute, a batch at a time. */
export class CheckoutExpirySweep extends PollingWorker {
  constructor(private readonly desk: CheckoutSettings & { units: Units; logger: Logger }) {
    super({ intervalMs: 60_000, logger: desk.logger, failure: "expiring checkouts failed" });
  }

  protected pass(): Promise<void> {
    return this.drain(100, () =>
      this.desk.units.run(
        async (unit) => {
          const overdue = await overdueCheckouts(unit.db, 100);
          await expire(this.desk, unit, overdue);
          return overdue.length;
        },
        { batch: true },
      ),
    );
  }
}
