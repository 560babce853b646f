import { PollingWorker, workBatch, type BatchedItems, type UnitOfWork } from "@tollgate/kit";
import { findCustomer } from "../customers/service.js";
import { findProduct } from "../products/service.js";
import { dueReminders, markReminded, REMINDER_WORKER, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { Parts } from "../parts.js";
import { SWITCH_OF_NOTICE } from "./consumer.js";
import { mailCustomer } from "../customers/mail.js";

const BATCH = 50;

/** The customer of a subscription told ahead of time that its trial ends, or that its yearly plan renews. */
async function remind(unit: UnitOfWork, publicUrl: string, subscription: SubscriptionRow): Promise<void> {
  unit.change(markReminded(unit.db, subscription));
  const [customer, product] = await Promise.all([findCustomer(unit.db, subscription.customer_id), findProduct(unit.db, subscription.product_id)]);
  if (!customer || !product) return;
  const notice = subscription.status === "trialing" ? "trial_ending" : "renewal_upcoming";
  await mailCustomer(unit, publicUrl, subscription.organization_id, SWITCH_OF_NOTICE[notice], customer, (portalUrl) => ({
    kind: "subscription_notice",
    notice,
    product: product.name,
    amount: subscription.amount,
    currency: subscription.currency,
    ends_at: subscription.current_period_end.toISOString(),
    retry_at: null,
    portal_url: portalUrl,
  }));
}

/**
 * Reminds customers before they are charged: three days before a trial ends, a week before a yearly
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
        for (const subscription of due) await remind(unit, parts.config.PUBLIC_URL, subscription);
      },
    };
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => workBatch(this.parts, this.reminders, BATCH, passOver));
  }
}
