import { setTimeout as sleep } from "node:timers/promises";
import { PollingWorker, type Statement, type UnitOfWork, type Units } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { chargeChangeOrder } from "../flows/charge-change.js";
import { renewPeriod, retryRenewal, type UnderClaim } from "../flows/renew-period.js";
import { pauseAtPeriodEnd, revoke } from "./service.js";
import { claimDueSubscriptions, dueButHeld, dueHeldUntil, releaseClaim, renewalKeeper, RENEWAL_WORKER, settleClaim, type ClaimedSubscription, type SubscriptionRow } from "./subscriptions.sql.js";

/**
 * How long a subscription stays held after its replica last said it was still renewing it (a
 * LeaseKeeper says so while it is): one that dies lets it go within this; the retry charges under
 * the same idempotency key.
 */
const LEASE_MS = 5_000;
const BATCH = 10;
/** How often catching up looks again for a due subscription another replica holds. */
const HELD_POLL_MS = 50;
/** What a pass looks at: every seller's subscriptions. */
const EVERY_SUBSCRIPTION: Statement = { sql: "true", bindings: [] };

/**
 * Renews subscriptions, charges the orders plan changes opened, ends canceled ones and retries
 * past-due charges when their moment comes in the seller's clock. Each due subscription is claimed
 * with a lease and handed to its flow (flows/renew-period.ts, flows/charge-change.ts): its card is
 * charged outside any transaction, then one unit of work, taken only while the claim still holds the
 * subscription at the moment it was claimed for, settles what the charge did. Times come from the schedule,
 * not the clock, so a service that was down catches up period by period, each once.
 *
 * A subscription whose due moment fails holds nobody else back: its failure is counted, it is let go
 * to be tried again at the next pass, and past the bound it is set aside for its seller to see.
 */
export class SubscriptionRenewals extends PollingWorker {
  private readonly renewing: ReturnType<typeof renewalKeeper>;

  constructor(
    private readonly billing: Pick<Parts, "db" | "config" | "processor" | "logger" | "failures">,
    private readonly units: Units,
    /** How long a claim holds a subscription; shorter where a retry must come soon (a staged crash). */
    private readonly leaseMs = LEASE_MS,
  ) {
    super({ intervalMs: 10_000, logger: billing.logger, failure: "renewing subscriptions failed" });
    this.renewing = renewalKeeper(billing.db, leaseMs, billing.logger);
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => this.advanceDue(passOver));
    // A due subscription another replica holds is looked at again as soon as its lease can have run
    // out, rather than at the next poll: that replica may have died.
    const heldUntil = await dueHeldUntil(this.billing.db, EVERY_SUBSCRIPTION, [...passOver]);
    if (heldUntil) setTimeout(() => this.wake(), Math.max(0, heldUntil.getTime() - Date.now()) + HELD_POLL_MS).unref();
  }

  /**
   * Brings one seller's subscriptions up to their clock (after the test clock moved), waiting for any
   * another replica holds rather than skipping them, so everything due has happened when this returns.
   */
  catchUp(organizationId: string): Promise<void> {
    return this.asked(() => this.bringUpToDate({ sql: "item.organization_id = ?", bindings: [organizationId] }));
  }

  /** Renews one subscription now if it is due (a trial ended now), waiting for a replica that holds it. */
  renewNow(subscriptionId: string): Promise<void> {
    return this.asked(() => this.bringUpToDate({ sql: "item.id = ?", bindings: [subscriptionId] }));
  }

  /** Tries each subscription `where` picks that is due once (one that fails is left to the next pass). */
  private async bringUpToDate(where: Statement): Promise<void> {
    const passOver = new Set<string>();
    for (;;) {
      if ((await this.advanceDue(passOver, where)) > 0) continue;
      if (!(await dueButHeld(this.billing.db, where, [...passOver]))) return;
      await sleep(HELD_POLL_MS);
    }
  }

  /**
   * Claims due subscriptions and advances each, one after another, each on its own: one that fails
   * is counted and added to `passOver`. How many there were.
   */
  private async advanceDue(passOver: Set<string>, where?: Statement): Promise<number> {
    const { db, failures } = this.billing;
    const due = await claimDueSubscriptions(db, { limit: BATCH, leaseMs: this.leaseMs, passOver: [...passOver], where });
    const advanced: string[] = [];
    await this.renewing.whileHolding(due, async () => {
      for (const subscription of due) {
        try {
          await this.advance(subscription);
          advanced.push(subscription.id);
        } catch (error) {
          passOver.add(subscription.id);
          // The processor down is no fault of the subscription's: it waits for the next pass, uncounted.
          if (this.billing.processor.isUnavailable(error)) this.billing.logger.warn({ err: error, subscriptionId: subscription.id }, "the payment processor is unavailable; the renewal waits for it");
          else await failures.failed({ worker: RENEWAL_WORKER, item: subscription.id, organizationId: subscription.organization_id }, error);
          // Let go at once: the next pass tries it again, and nobody waits out its lease meanwhile.
          await releaseClaim(db, subscription);
        }
      }
    });
    await failures.succeeded(RENEWAL_WORKER, advanced);
    return due.length;
  }

  /**
   * What the subscription's due moment does, once: charge the order a plan change (or the end of
   * the subscription) opened, end a canceled subscription, renew it, or retry a past-due charge.
   */
  private async advance(subscription: ClaimedSubscription): Promise<void> {
    const underClaim: UnderClaim = (work) => this.settle(subscription, work);
    if (subscription.charge_order_id) return chargeChangeOrder(this.billing, subscription, subscription.charge_order_id, underClaim);
    if (subscription.status === "past_due") return retryRenewal(this.billing, subscription, underClaim);
    if (subscription.cancel_at_period_end) {
      await this.settle(subscription, async (unit, current) => {
        await revoke(unit, this.billing.config, current, current.current_period_end, { billUsage: true });
      });
      return;
    }
    if (subscription.pause_at_period_end) {
      await this.settle(subscription, async (unit, current) => {
        await pauseAtPeriodEnd(unit, this.billing.config, current);
      });
      return;
    }
    await renewPeriod(this.billing, subscription, underClaim);
  }

  /** Runs `work` in one unit of work if the claim still holds the subscription at the moment it was claimed for. */
  private settle(claimed: ClaimedSubscription, work: (unit: UnitOfWork, current: SubscriptionRow) => Promise<void>): Promise<void> {
    return this.units.run(async (unit) => {
      const current = await settleClaim(unit.db, claimed);
      if (current) await work(unit, current);
    });
  }
}
