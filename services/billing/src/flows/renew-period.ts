import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { cycleBenefits, regrantPurchase } from "../benefit-grants/granting.js";
import { seatHoldings } from "../customer-seats/service.js";
import { findCustomer } from "../customers/service.js";
import { findDiscount } from "../discounts/service.js";
import { discountForPeriod } from "../discounts/rules.js";
import { addInterval } from "../calendar/intervals.js";
import type { OrderLine } from "../orders/lines.js";
import { draftTotal, orderTotal, placeOrder, settleOrder, unpaidOrderOf } from "../orders/service.js";
import { chargeKeptCard, chargeOfOrder, paymentsOfOrder, recordCharge } from "../payments/service.js";
import { findPrice, productsWithParts } from "../products/service.js";
import { retryAt } from "../subscriptions/dunning.js";
import { billableProrations } from "../subscriptions/proration.js";
import { advancePeriod, announceSubscription, countFailedRetry, customerRetryFailed, draftFor, fallPastDue, recoverFromPastDue, renewalUsage, revoke, subscriptionTaxTerms } from "../subscriptions/service.js";
import type { ClaimedSubscription, SubscriptionRow } from "../subscriptions/subscriptions.sql.js";

/** What charging a subscription works with. */

/**
 * Runs `work` in one unit of work if the renewal worker's claim still holds the subscription at the
 * moment it was claimed for (`current`: the subscription as it is then); else does nothing.
 */
export type UnderClaim = (work: (unit: UnitOfWork, current: SubscriptionRow) => Promise<void>) => Promise<void>;

/**
 * The idempotency key of a subscription's charge for the period starting at `periodStart` (and of a
 * dunning retry of it): a retry after a crash asks the processor again under the same key, so the
 * period is charged once.
 */
const renewalKey = (subscription: Pick<SubscriptionRow, "id">, periodStart: Date, retry?: number) =>
  `renewal:${subscription.id}:${periodStart.toISOString()}${retry === undefined ? "" : `:retry:${retry}`}`;

/**
 * What a period starting at `start` charges, but for `usage` of the period before: the plan less the
 * discount it has then, the prorations it bills (and those it leaves for later), taxed on the
 * subscription's terms.
 */
async function periodCharge(db: Parts["db"], subscription: SubscriptionRow, start: Date, usage: OrderLine[]) {
  const [[product], price, discountRow] = await Promise.all([
    productsWithParts(db, [subscription.product_id]),
    findPrice(db, subscription.product_price_id),
    subscription.discount_id ? findDiscount(db, subscription.discount_id) : undefined,
  ]);
  if (!product || !price) throw new Error(`subscription ${subscription.id} has lost its product or price`);
  const discount = discountForPeriod(subscription, discountRow ?? null, start);
  const { billed, leftover } = billableProrations(subscription.amount - discount.amount, subscription.pending_prorations);
  const tax = await subscriptionTaxTerms(db, subscription, price);
  const draft = draftFor(subscription, product, price, { amount: subscription.amount, discount_amount: discount.amount }, tax, [...billed, ...usage]);
  return { product, discount, leftover, draft };
}

/**
 * What the subscription's next period will charge, as its customer is told ahead of it: all of it
 * but the usage, which is not known until the period before has ended.
 */
export async function upcomingCharge(db: Parts["db"], subscription: SubscriptionRow): Promise<number> {
  return draftTotal((await periodCharge(db, subscription, subscription.current_period_end, [])).draft);
}

/**
 * A new period: its order (the plan less its discount, the prorations it bills, the usage of the
 * period that ended) charged to the kept card outside any transaction; then, under the claim, the
 * order placed pending, the subscription moved to its next period and the payment recorded. Paid,
 * the order is paid, the subscription goes on and its benefits cycle; declined, it falls past due.
 * A paused subscription resuming starts its period at the moment it resumes, and paid, its benefits
 * are granted again (subscription.resumed).
 */
export async function renewPeriod(billing: Pick<Parts, "db" | "config" | "processor">, subscription: ClaimedSubscription, underClaim: UnderClaim): Promise<void> {
  const { db, config } = billing;
  const resuming = subscription.status === "paused";
  const start = resuming ? subscription.next_action_at : subscription.current_period_end;
  const end = addInterval(start, subscription.recurring_interval, subscription.recurring_interval_count);
  const usage = await renewalUsage(db, subscription);
  if (!usage) return;
  const { product, discount, leftover, draft } = await periodCharge(db, subscription, start, usage.lines);
  const total = draftTotal(draft);
  const outcome = await chargeKeptCard(billing.processor, subscription.payment_method_id, { customerId: subscription.customer_id, amount: total, currency: subscription.currency, idempotencyKey: renewalKey(subscription, start) });
  await underClaim(async (unit, current) => {
    const order = await placeOrder(unit, draft, "pending");
    const cycled = await advancePeriod(unit, current, { start, end, leftover, discountAppliedAt: discount.appliedAt, usage });
    if (outcome) recordCharge(unit, config, chargeOfOrder(order, total, "subscription_cycle"), outcome);
    if (outcome && outcome.status !== "succeeded") {
      await fallPastDue(unit, config, current, start);
      return;
    }
    await settleOrder(unit, order, "paid");
    if (resuming) {
      const customer = await findCustomer(unit.db, current.customer_id);
      if (!customer) throw new Error(`subscription ${current.id} has lost its customer`);
      await regrantPurchase(unit, { customer, benefits: product.benefits, now: start, source: { subscription_id: current.id }, ...(await seatHoldings(unit.db, { subscription_id: current.id }, current.seats)) });
      await announceSubscription(unit, config, cycled, "subscription.updated", "subscription.resumed");
      return;
    }
    await announceSubscription(unit, config, cycled, ...(current.status === "trialing" ? (["subscription.updated", "subscription.active", "subscription.cycled"] as const) : (["subscription.updated", "subscription.cycled"] as const)));
    await cycleBenefits(unit, current.id);
  });
}

/**
 * A retry of the unpaid order, by the dunning schedule or asked for (a card the customer gave, the
 * customer paying in the portal): paid → active again; the last scheduled one failing → revoked, the
 * order void. One the customer asked for in the portal that fails is not counted, and is keyed by how
 * many they asked for, so the retry the schedule makes next charges anew.
 */
export async function retryRenewal(billing: Pick<Parts, "db" | "config" | "processor">, subscription: ClaimedSubscription, underClaim: UnderClaim): Promise<void> {
  const { db, config } = billing;
  const order = await unpaidOrderOf(db, subscription.id);
  const attempt = subscription.dunning_attempts + 1;
  const trigger = subscription.retry_trigger ?? "retry_dunning";
  const asked = trigger === "retry_customer" && order ? `:customer:${(await paymentsOfOrder(db, order.id, trigger)).length}` : "";
  const total = order ? orderTotal(order) : 0;
  const outcome = order ? await chargeKeptCard(billing.processor, subscription.payment_method_id, { customerId: subscription.customer_id, amount: total, currency: order.currency, idempotencyKey: `${renewalKey(subscription, subscription.current_period_start, attempt)}${asked}` }) : null;
  const paid = order !== undefined && (!outcome || outcome.status === "succeeded");
  await underClaim(async (unit, current) => {
    if (order && outcome) recordCharge(unit, config, chargeOfOrder(order, total, trigger), outcome);
    if (order && paid) {
      await settleOrder(unit, order, "paid");
      await recoverFromPastDue(unit, config, current);
      return;
    }
    if (trigger === "retry_customer") {
      await customerRetryFailed(unit, current);
      return;
    }
    const next = current.past_due_since ? retryAt(current.past_due_since, attempt) : null;
    const counted = await countFailedRetry(unit, config, current, attempt, next);
    if (next) return;
    if (order) await settleOrder(unit, order, "void");
    // Its last period went unpaid: nothing more is billed for it.
    await revoke(unit, config, counted, subscription.next_action_at, { billUsage: false });
  });
}
