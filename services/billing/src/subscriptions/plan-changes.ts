import type { UnitOfWork } from "@tollgate/kit";
import type { BillingParts } from "../billing.js";
import { grantBenefits, revokeBenefits } from "../benefits/granting.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { discountForPeriod } from "../discounts/rules.js";
import type { OrderLine } from "../orders/lines.js";
import { openOrder, type OrderDraft } from "../orders/service.js";
import type { PriceRow } from "../products/prices.js";
import { findProduct, type ProductRow } from "../products/products.sql.js";
import { addInterval } from "../calendar/intervals.js";
import { billableProrations, periodLeft, remainingTimeLine, unusedTimeLine } from "./proration.js";
import { announceSubscription, draftFor } from "./service.js";
import { updateSubscription, type SubscriptionRow } from "./subscriptions.sql.js";

/** What a plan change works with: the settings. */
type PlanChangeParts = Pick<BillingParts, "config">;

/**
 * A plan change's charge now: an order of `lines`, opened with the change and charged to the kept
 * card once the change has committed — never while the subscription's row is locked. The
 * subscription names the order and is due at once, so the renewal worker charges it (the caller asks
 * it to at once; after a crash, its next pass does).
 */
async function invoiceChange(unit: UnitOfWork, subscription: SubscriptionRow, draft: OrderDraft, now: Date): Promise<SubscriptionRow> {
  const order = await openOrder(unit, { ...draft, billing_reason: "subscription_update" });
  return updateSubscription(unit.db, subscription.id, { charge_order_id: order.id, next_action_at: now });
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
  billing: PlanChangeParts,
  unit: UnitOfWork,
  subscription: SubscriptionRow,
  target: { product: ProductRow; price: PriceRow; amount: number; behaviour: "invoice" | "prorate"; now: Date },
): Promise<SubscriptionRow> {
  const { db } = unit;
  const { product, price, amount, behaviour, now } = target;
  const interval = product.recurring_interval ?? subscription.recurring_interval;
  const intervalCount = product.recurring_interval_count ?? 1;
  const intervalChanged = interval !== subscription.recurring_interval || intervalCount !== subscription.recurring_interval_count;
  const plan = { product_id: product.id, product_price_id: price.id, amount, recurring_interval: interval, recurring_interval_count: intervalCount };
  let changed: SubscriptionRow;
  if (subscription.status === "trialing") {
    changed = await updateSubscription(db, subscription.id, plan);
  } else {
    const fraction = periodLeft(subscription, now);
    const unused = unusedTimeLine(subscription, (await findProduct(db, subscription.product_id))?.name, fraction);
    if (intervalChanged) {
      // The old period ends now: its waiting prorations are billed with the new one's first order.
      const end = addInterval(now, interval, intervalCount);
      const discount = discountForPeriod(subscription, subscription.discount_id ? ((await findDiscount(db, subscription.discount_id)) ?? null) : null, now);
      const { billed, leftover } = billableProrations(amount - discount.amount, [unused, ...subscription.pending_prorations]);
      changed = await updateSubscription(db, subscription.id, { ...plan, current_period_start: now, current_period_end: end, next_action_at: end, pending_prorations: leftover, discount_applied_at: discount.appliedAt });
      changed = await invoiceChange(unit, changed, draftFor(changed, product, price, { amount, discount_amount: discount.amount, tax_amount: 0 }, billed), now);
    } else {
      const prorations: OrderLine[] = [remainingTimeLine(product.name, price, amount, fraction), unused];
      const net = prorations.reduce((sum, line) => sum + line.amount, 0);
      const invoiceNow = behaviour === "invoice" && net > 0;
      changed = await updateSubscription(db, subscription.id, { ...plan, pending_prorations: invoiceNow ? subscription.pending_prorations : [...subscription.pending_prorations, ...prorations] });
      if (invoiceNow) changed = await invoiceChange(unit, changed, { ...draftFor(changed, product, price, { amount: 0, discount_amount: 0, tax_amount: 0 }), lines: prorations }, now);
    }
  }
  await revokeBenefits(unit, billing.config, { subscription_id: subscription.id }, now);
  await grantBenefits(unit, billing.config, { organizationId: subscription.organization_id, customerId: subscription.customer_id, productId: product.id, now, source: { subscription_id: subscription.id } });
  await announceSubscription(unit, billing.config, changed, "subscription.updated");
  return changed;
}
