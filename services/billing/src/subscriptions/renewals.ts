import { setTimeout as sleep } from "node:timers/promises";
import { PollingWorker, type Statement, type UnitOfWork, type Units } from "@tollgate/kit";
import type { BillingParts } from "../billing.js";
import { cycleBenefits } from "../benefits/granting.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { discountForPeriod } from "../discounts/rules.js";
import { findOrder, orders, type OrderRow } from "../orders/orders.sql.js";
import { markOrderPaid, openOrder, voidOrder, type OrderDraft } from "../orders/service.js";
import { recordPayment } from "../payments/payments.sql.js";
import type { PaymentOutcome, PaymentProcessor } from "../payments/processor.js";
import { findPrice, findProduct } from "../products/products.sql.js";
import { addInterval } from "../calendar/intervals.js";
import { firstRetryAt, retryAt } from "./dunning.js";
import { billableProrations } from "./proration.js";
import { announceSubscription, draftFor, revoke } from "./service.js";
import { periodUsage, startNextPeriod } from "./usage.js";
import { claimDueSubscriptions, dueButHeld, dueHeldUntil, keepRenewalUsage, releaseClaim, renewalKeeper, RENEWAL_WORKER, settleClaim, updateSubscription, type ClaimedSubscription, type PeriodUsage, type SubscriptionRow } from "./subscriptions.sql.js";

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

/** Charges the subscription's kept card; null when there is nothing to charge. Without a card, declined. */
export async function chargeKeptCard(processor: PaymentProcessor, subscription: Pick<SubscriptionRow, "payment_method_id">, charge: { amount: number; currency: string; idempotencyKey: string }): Promise<PaymentOutcome | null> {
  if (charge.amount === 0) return null;
  if (!subscription.payment_method_id) return { status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "No card is kept for this subscription." };
  return processor.chargeSaved({ ...charge, paymentMethodId: subscription.payment_method_id });
}

/**
 * The idempotency key of a subscription's charge for the period starting at `periodStart` (and of a
 * dunning retry of it): a retry after a crash asks the processor again under the same key, so the
 * period is charged once.
 */
const renewalKey = (subscription: Pick<SubscriptionRow, "id">, periodStart: Date, retry?: number) =>
  `renewal:${subscription.id}:${periodStart.toISOString()}${retry === undefined ? "" : `:retry:${retry}`}`;

/** The total an order charges. */
const totalOf = (order: Pick<OrderRow, "subtotal_amount" | "discount_amount" | "tax_amount">) => order.subtotal_amount - order.discount_amount + order.tax_amount;

/**
 * Renews subscriptions, charges the orders plan changes opened, ends canceled ones and retries
 * past-due charges when their moment comes in the seller's clock. Each due subscription is claimed with a lease; its card is charged outside any
 * transaction under a key derived from the subscription and the period; then one unit of work, taken
 * only while the claim still holds the subscription at the moment it was claimed for, records the
 * payment, places the order, moves the period on and announces it. Times come from the schedule,
 * not the clock, so a service that was down catches up period by period, each once.
 *
 * A subscription whose due moment fails holds nobody else back: its failure is counted, it is let go
 * to be tried again at the next pass, and past the bound it is set aside for its seller to see.
 */
export class SubscriptionRenewals extends PollingWorker {
  private readonly renewing: ReturnType<typeof renewalKeeper>;

  constructor(
    private readonly billing: Pick<BillingParts, "db" | "config" | "processor" | "logger" | "failures">,
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
          await failures.failed({ worker: RENEWAL_WORKER, item: subscription.id, organizationId: subscription.organization_id }, error);
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
    if (subscription.charge_order_id) return this.chargeChange(subscription, subscription.charge_order_id);
    if (subscription.status === "past_due") return this.retryPastDue(subscription);
    if (subscription.cancel_at_period_end) {
      await this.settle(subscription, async (unit, current) => {
        await revoke(unit, this.billing.config, current, current.current_period_end, { billUsage: true });
      });
      return;
    }
    await this.renew(subscription);
  }

  /** Runs `work` in one unit of work if the claim still holds the subscription at the moment it was claimed for. */
  private settle(claimed: ClaimedSubscription, work: (unit: UnitOfWork, current: SubscriptionRow) => Promise<void>): Promise<void> {
    return this.units.run(async (unit) => {
      const current = await settleClaim(unit.db, claimed);
      if (current) await work(unit, current);
    });
  }

  /** A new period: its order charged to the kept card; paid, the subscription goes on, else it falls past due. */
  private async renew(subscription: ClaimedSubscription): Promise<void> {
    const { db, config } = this.billing;
    const [product, price, discountRow] = await Promise.all([
      findProduct(db, subscription.product_id),
      findPrice(db, subscription.product_price_id),
      subscription.discount_id ? findDiscount(db, subscription.discount_id) : undefined,
    ]);
    if (!product || !price) throw new Error(`subscription ${subscription.id} has lost its product or price`);
    const start = subscription.current_period_end;
    const end = addInterval(start, subscription.recurring_interval, subscription.recurring_interval_count);
    const discount = discountForPeriod(subscription, discountRow ?? null, start);
    const { billed, leftover } = billableProrations(subscription.amount - discount.amount, subscription.pending_prorations);
    // The usage of the period that ended is billed with it, as read before the first try to charge.
    const usage = subscription.renewal_usage ?? (await this.keepUsage(subscription));
    if (!usage) return;
    const draft: OrderDraft = draftFor(subscription, product, price, { amount: subscription.amount, discount_amount: discount.amount, tax_amount: 0 }, [...billed, ...usage.lines]);
    const total = totalOf({ subtotal_amount: draft.lines.reduce((sum, line) => sum + line.amount, 0), discount_amount: draft.discount_amount, tax_amount: draft.tax_amount });
    const outcome = await chargeKeptCard(this.billing.processor, subscription, { amount: total, currency: subscription.currency, idempotencyKey: renewalKey(subscription, start) });
    await this.settle(subscription, async (unit, current) => {
      const order = await openOrder(unit, draft);
      const cycled = await updateSubscription(unit.db, current.id, {
        current_period_start: start,
        current_period_end: end,
        next_action_at: end,
        status: "active",
        pending_prorations: leftover,
        discount_applied_at: discount.appliedAt,
        renewal_usage: null,
      });
      await startNextPeriod(unit.db, usage);
      if (outcome) unit.change(recordPayment(unit.db, { organization_id: order.organization_id, checkout_id: null, order_id: order.id, processor: config.PAYMENT_PROCESSOR, amount: total, currency: order.currency }, outcome));
      if (!outcome || outcome.status === "succeeded") {
        await markOrderPaid(unit, order);
        await announceSubscription(unit, config, cycled, ...(current.status === "trialing" ? (["subscription.updated", "subscription.active"] as const) : (["subscription.updated"] as const)));
        await cycleBenefits(unit, config, current.id);
        return;
      }
      const pastDue = await updateSubscription(unit.db, current.id, { status: "past_due", past_due_since: start, dunning_attempts: 0, next_action_at: firstRetryAt(start) });
      await announceSubscription(unit, config, pastDue, "subscription.updated", "subscription.past_due");
    });
  }

  /**
   * The usage of the period that ended, read once and kept on the subscription under the claim:
   * a retry after a crash between the charge and the settling bills the same lines for the same
   * amount under the same key. Null when the claim no longer holds the subscription.
   */
  private async keepUsage(subscription: ClaimedSubscription): Promise<PeriodUsage | null> {
    const usage = await periodUsage(this.billing.db, subscription);
    return (await keepRenewalUsage(this.billing.db, subscription, usage)) ? usage : null;
  }

  /**
   * The order a plan change (or the end of the subscription) opened, charged to the kept card under
   * the order's own key: paid, a running subscription goes on to its period's end; declined, it falls
   * past due and dunning retries the order, while an ended one leaves its last order unpaid.
   */
  private async chargeChange(subscription: ClaimedSubscription, orderId: string): Promise<void> {
    const { db, config } = this.billing;
    const order = await findOrder(db, orderId);
    if (!order) throw new Error(`subscription ${subscription.id} lost the order ${orderId} it was to charge`);
    const total = totalOf(order);
    const outcome = order.status === "pending" ? await chargeKeptCard(this.billing.processor, subscription, { amount: total, currency: order.currency, idempotencyKey: `order:${order.id}` }) : null;
    const changedAt = subscription.next_action_at;
    await this.settle(subscription, async (unit, current) => {
      if (outcome) unit.change(recordPayment(unit.db, { organization_id: order.organization_id, checkout_id: null, order_id: order.id, processor: config.PAYMENT_PROCESSOR, amount: total, currency: order.currency }, outcome));
      if (order.status !== "pending" || !outcome || outcome.status === "succeeded") {
        if (order.status === "pending") await markOrderPaid(unit, order);
        await updateSubscription(unit.db, current.id, { charge_order_id: null, next_action_at: current.ended_at ? null : current.current_period_end });
        return;
      }
      if (current.ended_at) {
        await updateSubscription(unit.db, current.id, { charge_order_id: null, next_action_at: null });
        return;
      }
      const pastDue = await updateSubscription(unit.db, current.id, { charge_order_id: null, status: "past_due", past_due_since: changedAt, dunning_attempts: 0, next_action_at: firstRetryAt(changedAt) });
      await announceSubscription(unit, config, pastDue, "subscription.updated", "subscription.past_due");
    });
  }

  /** A dunning retry of the unpaid order: paid → active again; the last one failing → revoked, the order void. */
  private async retryPastDue(subscription: ClaimedSubscription): Promise<void> {
    const { db, config } = this.billing;
    const order = await orders(db).where({ subscription_id: subscription.id, status: "pending" }).orderBy("created_at", "desc").first();
    const attempt = subscription.dunning_attempts + 1;
    const total = order ? totalOf(order) : 0;
    const outcome = order ? await chargeKeptCard(this.billing.processor, subscription, { amount: total, currency: order.currency, idempotencyKey: renewalKey(subscription, subscription.current_period_start, attempt) }) : null;
    const paid = order !== undefined && (!outcome || outcome.status === "succeeded");
    await this.settle(subscription, async (unit, current) => {
      if (order && outcome) unit.change(recordPayment(unit.db, { organization_id: order.organization_id, checkout_id: null, order_id: order.id, processor: config.PAYMENT_PROCESSOR, amount: total, currency: order.currency }, outcome));
      if (order && paid) {
        await markOrderPaid(unit, order);
        const recovered = await updateSubscription(unit.db, current.id, { status: "active", past_due_since: null, dunning_attempts: 0, next_action_at: current.current_period_end });
        await announceSubscription(unit, config, recovered, "subscription.updated", "subscription.active");
        return;
      }
      const next = current.past_due_since ? retryAt(current.past_due_since, attempt) : null;
      if (next) {
        await updateSubscription(unit.db, current.id, { dunning_attempts: attempt, next_action_at: next });
        return;
      }
      if (order) await voidOrder(unit, order);
      // Its last period went unpaid: nothing more is billed for it.
      await revoke(unit, config, await updateSubscription(unit.db, current.id, { dunning_attempts: attempt }), subscription.next_action_at, { billUsage: false });
    });
  }
}
