import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { regrantPurchase } from "../benefit-grants/granting.js";
import { seatHoldings } from "../customer-seats/service.js";
import { findCustomer } from "../customers/service.js";
import { findDiscount } from "../discounts/service.js";
import { discountForPeriod } from "../discounts/rules.js";
import { addInterval } from "../calendar/intervals.js";
import type { OrderLine } from "../orders/lines.js";
import { findOrder, orderTotal, placeOrder, settleOrder, type OrderDraft } from "../orders/service.js";
import { chargeKeptCard, chargeOfOrder, recordCharge } from "../payments/service.js";
import type { PriceRow } from "../products/prices.js";
import type { ProductWithParts } from "../products/products.sql.js";
import { findProduct } from "../products/service.js";
import { billableProrations, periodLeft, remainingTimeLine, unusedTimeLine } from "../subscriptions/proration.js";
import { announceSubscription, chargeOrderAt, chargeSettled, draftFor, fallPastDue, subscriptionTaxTerms, switchPlan, tellSubscriber } from "../subscriptions/service.js";
import type { ClaimedSubscription, SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { UnderClaim } from "./renew-period.js";

/** What a plan change works with: the settings. */

/**
 * A plan change's charge now: an order of `lines`, opened with the change and charged to the kept
 * card once the change has committed — never while the subscription's row is locked. The
 * subscription names the order and is due at once, so the renewal worker charges it (the caller asks
 * it to at once; after a crash, its next pass does).
 */
async function invoiceChange(unit: UnitOfWork, subscription: SubscriptionRow, draft: OrderDraft, now: Date): Promise<SubscriptionRow> {
  const order = await placeOrder(unit, { ...draft, billing_reason: "subscription_update" }, "pending");
  return chargeOrderAt(unit, subscription, order, now);
}

/**
 * Moves a subscription to another product now, as Polar does. During a trial nothing is billed and
 * the trial goes on. At the same interval, what is left of the period is prorated: a credit for the
 * old plan and a charge for the new one, either invoiced at once (charged to the kept card; a net
 * credit waits for the next renewal) or added to the next renewal's order, as the proration
 * behaviour says. At another interval a new period starts now and is invoiced at once, less the
 * credit for the old plan's unused time. Benefits follow the new product.
 */
export async function changeProduct(
  billing: Pick<Parts, "config">,
  unit: UnitOfWork,
  subscription: SubscriptionRow,
  target: { product: ProductWithParts; price: PriceRow; amount: number; behaviour: "invoice" | "prorate"; now: Date },
): Promise<SubscriptionRow> {
  const { db } = unit;
  const { product, price, amount, behaviour, now } = target;
  const interval = product.recurring_interval ?? subscription.recurring_interval;
  const intervalCount = product.recurring_interval_count ?? 1;
  const intervalChanged = interval !== subscription.recurring_interval || intervalCount !== subscription.recurring_interval_count;
  const plan = { product_id: product.id, product_price_id: price.id, amount, recurring_interval: interval, recurring_interval_count: intervalCount };
  let changed: SubscriptionRow;
  // What the change charges now gets its receipt; a change that charges nothing is told of on its own.
  let chargedNow = false;
  if (subscription.status === "trialing") {
    changed = await switchPlan(unit, subscription, plan);
  } else {
    const fraction = periodLeft(subscription, now);
    const unused = unusedTimeLine(subscription, (await findProduct(db, subscription.product_id))?.name, fraction);
    if (intervalChanged) {
      // The old period ends now: its waiting prorations are billed with the new one's first order.
      const end = addInterval(now, interval, intervalCount);
      const discount = discountForPeriod(subscription, subscription.discount_id ? ((await findDiscount(db, subscription.discount_id)) ?? null) : null, now);
      const { billed, leftover } = billableProrations(amount - discount.amount, [unused, ...subscription.pending_prorations]);
      changed = await switchPlan(unit, subscription, { ...plan, current_period_start: now, current_period_end: end, next_action_at: end, pending_prorations: leftover, discount_applied_at: discount.appliedAt });
      changed = await invoiceChange(unit, changed, draftFor(changed, product, price, { amount, discount_amount: discount.amount }, await subscriptionTaxTerms(db, changed, price), billed), now);
      chargedNow = true;
    } else {
      const prorations: OrderLine[] = [remainingTimeLine(product.name, price, amount, fraction), unused];
      const net = prorations.reduce((sum, line) => sum + line.amount, 0);
      const invoiceNow = behaviour === "invoice" && net > 0;
      changed = await switchPlan(unit, subscription, { ...plan, pending_prorations: invoiceNow ? subscription.pending_prorations : [...subscription.pending_prorations, ...prorations] });
      if (invoiceNow) changed = await invoiceChange(unit, changed, { ...draftFor(changed, product, price, { amount: 0, discount_amount: 0 }, await subscriptionTaxTerms(db, changed, price)), lines: prorations }, now);
      chargedNow = invoiceNow;
    }
  }
  const customer = await findCustomer(unit.db, subscription.customer_id);
  if (!customer) throw new Error(`subscription ${subscription.id} has lost its customer`);
  await regrantPurchase(unit, { customer, benefits: product.benefits, now, source: { subscription_id: subscription.id }, ...(await seatHoldings(unit.db, { subscription_id: subscription.id }, changed.seats)) });
  await announceSubscription(unit, billing.config, changed, "subscription.updated");
  if (!chargedNow) await tellSubscriber(unit, billing.config, changed, { notice: "plan_changed" });
  return changed;
}

/**
 * The order a plan change (or the end of the subscription) opened, charged to the kept card under
 * the order's own key, outside any transaction; then, under the claim, the payment recorded. Paid, a
 * running subscription goes on to its period's end; declined, it falls past due and dunning retries
 * the order, while an ended one leaves its last order unpaid.
 */
export async function chargeChangeOrder(billing: Pick<Parts, "db" | "config" | "processor">, subscription: ClaimedSubscription, orderId: string, underClaim: UnderClaim): Promise<void> {
  const { db, config } = billing;
  const order = await findOrder(db, orderId);
  if (!order) throw new Error(`subscription ${subscription.id} lost the order ${orderId} it was to charge`);
  const total = orderTotal(order);
  const outcome = order.status === "pending" ? await chargeKeptCard(billing.processor, subscription.payment_method_id, { customerId: subscription.customer_id, amount: total, currency: order.currency, idempotencyKey: `order:${order.id}` }) : null;
  const changedAt = subscription.next_action_at;
  await underClaim(async (unit, current) => {
    if (outcome) recordCharge(unit, config, chargeOfOrder(order, total, null), outcome);
    const paid = order.status !== "pending" || !outcome || outcome.status === "succeeded";
    if (paid && order.status === "pending") await settleOrder(unit, order, "paid");
    // An ended subscription leaves its last order unpaid.
    if (paid || current.ended_at) {
      await chargeSettled(unit, current);
      return;
    }
    await fallPastDue(unit, config, current, changedAt);
  });
}
