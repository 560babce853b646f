import { PollingWorker, workBatch, type BatchedItems } from "@tollgate/kit";
import { upcomingCharge } from "../flows/renew-period.js";
import { tellSubscriber } from "../subscriptions/service.js";
import { dueReminders, markReminded, REMINDER_WORKER, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { Parts } from "../parts.js";

const BATCH = 50;

/**
 * Reminds customers before they are charged, of what the period will charge (its discount, prorations
 * and tax; not usage, unknown until then): three days before a trial ends, a week before a yearly
 * plan renews (unless it is canceled), once a period, on each seller's clock. Reminders are taken in
 * batches (FOR UPDATE SKIP LOCKED, so two replicas never send one twice) and the mail is asked for in
 * the transaction that marks the period reminded; a subscription that cannot be reminded is set aside
 * for its seller after a few passes, and everyone else's reminders go on.
 */
export class SubscriptionReminders extends PollingWorker {
  private readonly reminders: BatchedItems<SubscriptionRow>;

  constructor(private readonly parts: Pick<Parts, "db" | "units" | "failures" | "logger" | "config">) {
    super({ intervalMs: 60_000, logger: parts.logger, failure: "reminding customers of trials ending and renewals failed" });
    this.reminders = {
      worker: REMINDER_WORKER,
      due: dueReminders,
      keyOf: (subscription) => subscription.id,
      organizationOf: (subscription) => subscription.organization_id,
      work: async (unit, due) => {
        for (const subscription of due) {
          unit.change(markReminded(unit.db, subscription));
          const notice = subscription.status === "trialing" ? "trial_ending" : "renewal_upcoming";
          await tellSubscriber(unit, parts.config, subscription, { notice, charge: await upcomingCharge(unit.db, subscription) });
        }
      },
    };
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => workBatch(this.parts, this.reminders, BATCH, passOver));
  }
}
