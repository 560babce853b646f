import { PollingWorker } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { sellerNowSql } from "../test-clock/clock.js";
import { advance } from "./lifecycle.js";
import type { SubscriptionRow } from "./subscriptions.sql.js";

/**
 * Renews subscriptions, ends canceled ones and retries past-due charges when their moment comes in
 * the seller's clock. Each due subscription is taken in its own transaction with FOR UPDATE SKIP
 * LOCKED, so replicas share the work and none is advanced twice.
 */
export class SubscriptionCycles extends PollingWorker {
  constructor(private readonly billing: Billing) {
    super({ intervalMs: 10_000, logger: billing.logger, failure: "renewing subscriptions failed" });
  }

  protected async pass(): Promise<void> {
    while (!this.stopping && (await this.advanceOne(null))) ;
  }

  /**
   * Brings one seller's subscriptions up to their clock (after the test clock moved), waiting for any
   * the worker holds rather than skipping them, so everything due has happened when this returns.
   */
  async catchUp(organizationId: string): Promise<void> {
    while (await this.advanceOne(organizationId)) ;
  }

  /** Advances the subscription due first, if any is; whether one was. */
  private advanceOne(organizationId: string | null): Promise<boolean> {
    return this.billing.db.transaction(async (trx) => {
      const due = trx("subscriptions as subscription")
        .join("organizations as seller", "seller.id", "subscription.organization_id")
        .whereNotNull("subscription.next_action_at")
        .whereRaw(`subscription.next_action_at <= ${sellerNowSql("seller")}`)
        .orderBy("subscription.next_action_at")
        .limit(1)
        .select<SubscriptionRow[]>("subscription.*")
        .forUpdate("subscription");
      const [subscription] = organizationId ? await due.where("subscription.organization_id", organizationId) : await due.skipLocked();
      if (!subscription) return false;
      await advance(this.billing, trx, subscription);
      return true;
    });
  }
}
