import { HttpError, invalidField, randomId, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import type { Offer } from "../checkouts/catalog.js";
import type { CheckoutRow } from "../checkouts/checkouts.sql.js";
import { discountAmountOf } from "../checkouts/pricing.js";
import { cycleBenefits, grantBenefits, grantNewPurchase, revokeBenefits } from "../benefits/granting.js";
import { scheduleStateChange, type CustomerRow } from "../customers/customers.sql.js";
import { findDiscount, redeemDiscount, type DiscountRow } from "../discounts/discounts.sql.js";
import type { DiscountJson } from "../discounts/output.js";
import { emitBillingEvent, type ChangeSet } from "../events.js";
import { orders, type OrderRow } from "../orders/orders.sql.js";
import { markOrderPaid, openOrder, placePaidOrder, productLine, voidOrder, type OrderDraft, type OrderLine } from "../orders/place.js";
import type { PriceRow } from "../products/prices.js";
import { productWithPartsJson } from "../products/output.js";
import { findProduct, type ProductRow } from "../products/products.sql.js";
import { recordPayment } from "../payments/payments.sql.js";
import { subscriptionJson, subscriptionJsonOf } from "./output.js";
import { addInterval } from "../api/dates.js";
import { insertSubscription, subscriptions, updateSubscription, type SubscriptionRow } from "./subscriptions.sql.js";

type SubscriptionEvent = "subscription.created" | "subscription.active" | "subscription.updated" | "subscription.canceled" | "subscription.uncanceled" | "subscription.revoked" | "subscription.past_due";

/** Days after the first failed renewal on which the charge is tried again; after the last, the subscription is revoked. */
export const DUNNING_DAYS = [2, 7, 14, 21];
const DAY_MS = 86_400_000;

/** Announces a subscription's new state, once per event type, in the transaction that changed it. */
export async function announceSubscription(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, ...types: SubscriptionEvent[]): Promise<void> {
  const json = await subscriptionJson(trx, subscription, billing.config.PUBLIC_URL);
  await emitBillingEvent(billing.outbox, trx, types, subscription.organization_id, json);
  await scheduleStateChange(trx, subscription.customer_id, billing.config.CUSTOMER_STATE_DEBOUNCE_MS);
}

/** Whether a checkout for this product starts with a free trial. */
export const startsWithTrial = (product: Pick<ProductRow, "trial_interval">, checkout: Pick<CheckoutRow, "allow_trial">) => product.trial_interval !== null && checkout.allow_trial;

/**
 * A subscription bought through a checkout, with its first order (paid, or nothing to pay during a
 * trial), added to `changes`: the order's events, then subscription.created and subscription.active,
 * as Polar sends them, then the grants of its benefits. The caller counted the customer's order
 * (`invoiceNumber`) and schedules their new state.
 */
export function startSubscription(
  changes: ChangeSet,
  purchase: { checkout: CheckoutRow; offer: Offer; customer: CustomerRow; amounts: Amounts; paymentMethodId: string | null; now: Date; invoiceNumber: string; discount: DiscountJson | null; publicUrl: string },
): { subscription: SubscriptionRow; order: OrderRow } {
  const { checkout, offer, customer, now, discount } = purchase;
  const { product, price } = offer;
  const interval = product.recurring_interval ?? "month";
  const intervalCount = product.recurring_interval_count ?? 1;
  const trialEnd = startsWithTrial(product, checkout) ? addInterval(now, product.trial_interval ?? "day", product.trial_interval_count ?? 1) : null;
  const periodEnd = trialEnd ?? addInterval(now, interval, intervalCount);
  const subscription: SubscriptionRow = {
    id: randomId(32),
    organization_id: checkout.organization_id,
    customer_id: customer.id,
    product_id: product.id,
    product_price_id: price.id,
    checkout_id: checkout.id,
    discount_id: checkout.discount_id,
    discount_applied_at: checkout.discount_id ? now : null,
    status: trialEnd ? "trialing" : "active",
    amount: checkout.amount,
    currency: checkout.currency,
    recurring_interval: interval,
    recurring_interval_count: intervalCount,
    current_period_start: now,
    current_period_end: periodEnd,
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: now,
    ends_at: null,
    ended_at: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    payment_method_id: purchase.paymentMethodId,
    past_due_since: null,
    dunning_attempts: 0,
    next_action_at: periodEnd,
    pending_prorations: [],
    custom_field_data: checkout.custom_field_data,
    metadata: checkout.metadata,
    created_at: new Date(),
    modified_at: null,
  };
  changes.change(insertSubscription(changes.db, subscription));
  const amounts = trialEnd ? { amount: 0, discount_amount: 0, tax_amount: 0 } : purchase.amounts;
  const order = placePaidOrder(
    changes,
    { ...draftFor(subscription, product, price, amounts), checkout_id: checkout.id, billing_reason: "subscription_create", billing_name: checkout.customer_billing_name ?? checkout.customer_name, billing_address: checkout.customer_billing_address },
    purchase.invoiceNumber,
    { customer, product, discount, subscription },
  );
  changes.announce(["subscription.created", "subscription.active"], subscription.organization_id, subscriptionJsonOf(subscription, { customer, product: productWithPartsJson(product, purchase.publicUrl), price, discount }));
  grantNewPurchase(changes, { customer, benefits: product.benefits, now, source: { subscription_id: subscription.id } });
  return { subscription, order };
}

/** What an order of a subscription charges: the plan's amount less its discount, and tax. */
type Amounts = { amount: number; discount_amount: number; tax_amount: number };

/** An order of the subscription for its plan, with any proration lines waiting for it. */
function draftFor(subscription: SubscriptionRow, product: ProductRow, price: PriceRow, amounts: Amounts, prorations: OrderLine[] = []): OrderDraft {
  return {
    organization_id: subscription.organization_id,
    customer_id: subscription.customer_id,
    subscription_id: subscription.id,
    checkout_id: null,
    discount_id: amounts.discount_amount > 0 ? subscription.discount_id : null,
    billing_reason: "subscription_cycle",
    currency: subscription.currency,
    billing_name: null,
    billing_address: null,
    custom_field_data: subscription.custom_field_data,
    metadata: subscription.metadata,
    product,
    lines: [productLine(product, price, amounts.amount), ...prorations],
    discount_amount: amounts.discount_amount,
    tax_amount: amounts.tax_amount,
  };
}

/** Cancels at the end of the period: the customer keeps access until then. */
export async function cancelAtPeriodEnd(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, now: Date, reason: SubscriptionRow["customer_cancellation_reason"], comment: string | null): Promise<SubscriptionRow> {
  const canceled = await updateSubscription(trx, subscription.id, {
    cancel_at_period_end: true,
    canceled_at: now,
    ends_at: subscription.current_period_end,
    customer_cancellation_reason: reason,
    customer_cancellation_comment: comment,
  });
  await announceSubscription(billing, trx, canceled, "subscription.updated", "subscription.canceled");
  return canceled;
}

/** Takes back a cancellation before the period ends. */
export async function uncancel(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  const renewed = await updateSubscription(trx, subscription.id, { cancel_at_period_end: false, canceled_at: null, ends_at: null, customer_cancellation_reason: null, customer_cancellation_comment: null });
  await announceSubscription(billing, trx, renewed, "subscription.updated", "subscription.uncanceled");
  return renewed;
}

/** Ends the subscription now (or at `endedAt`): canceled, ended, nothing scheduled any more. */
export async function revoke(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, endedAt: Date, reason: SubscriptionRow["customer_cancellation_reason"] = subscription.customer_cancellation_reason, comment = subscription.customer_cancellation_comment): Promise<SubscriptionRow> {
  const alreadyCanceled = subscription.canceled_at !== null;
  const ended = await updateSubscription(trx, subscription.id, {
    status: "canceled",
    canceled_at: subscription.canceled_at ?? endedAt,
    ends_at: endedAt,
    ended_at: endedAt,
    next_action_at: null,
    customer_cancellation_reason: reason,
    customer_cancellation_comment: comment,
  });
  await revokeBenefits(billing, trx, { subscription_id: subscription.id }, endedAt);
  await announceSubscription(billing, trx, ended, ...(alreadyCanceled ? (["subscription.updated", "subscription.revoked"] as const) : (["subscription.updated", "subscription.canceled", "subscription.revoked"] as const)));
  return ended;
}

/**
 * What a subscription's next due moment does, once: end a canceled subscription, renew (charging
 * the kept card for a new period's order), or retry a past-due charge. Times come from the schedule,
 * not the clock, so a service that was down catches up period by period, each once.
 */
export async function advance(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow): Promise<void> {
  const due = subscription.next_action_at;
  if (!due) return;
  if (subscription.status === "past_due") {
    await retryPastDue(billing, trx, subscription, due);
    return;
  }
  if (subscription.cancel_at_period_end) {
    await revoke(billing, trx, subscription, subscription.current_period_end);
    return;
  }
  const [product, price] = await Promise.all([findProduct(trx, subscription.product_id), trx<PriceRow>("product_prices").where({ id: subscription.product_price_id }).first()]);
  if (!product || !price) throw new Error(`subscription ${subscription.id} has lost its product or price`);
  const start = subscription.current_period_end;
  const end = addInterval(start, subscription.recurring_interval, subscription.recurring_interval_count);
  const discount = await discountOn(trx, subscription, start);
  const { billed, leftover } = billableProrations(subscription.amount - discount.amount, subscription.pending_prorations);
  const order = await openOrder(billing, trx, draftFor(subscription, product, price, { amount: subscription.amount, discount_amount: discount.amount, tax_amount: 0 }, billed));
  const cycled = await updateSubscription(trx, subscription.id, { current_period_start: start, current_period_end: end, next_action_at: end, status: "active", pending_prorations: leftover, discount_applied_at: discount.appliedAt });
  if (await charge(billing, trx, cycled, order, `order:${order.id}`)) {
    await markOrderPaid(billing, trx, order);
    await announceSubscription(billing, trx, cycled, ...(subscription.status === "trialing" ? (["subscription.updated", "subscription.active"] as const) : (["subscription.updated"] as const)));
    await cycleBenefits(billing, trx, subscription.id);
    return;
  }
  const pastDue = await updateSubscription(trx, subscription.id, { status: "past_due", past_due_since: start, dunning_attempts: 0, next_action_at: new Date(start.getTime() + (DUNNING_DAYS[0] ?? 2) * DAY_MS) });
  await announceSubscription(billing, trx, pastDue, "subscription.updated", "subscription.past_due");
}

/** A dunning retry of the unpaid renewal: paid → active again; the last one failing → revoked, the order void. */
async function retryPastDue(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, due: Date): Promise<void> {
  const order = await orders(trx).where({ subscription_id: subscription.id, status: "pending" }).orderBy("created_at", "desc").first();
  const attempt = subscription.dunning_attempts + 1;
  if (order && (await charge(billing, trx, subscription, order, `order:${order.id}:retry:${attempt}`))) {
    await markOrderPaid(billing, trx, order);
    const recovered = await updateSubscription(trx, subscription.id, { status: "active", past_due_since: null, dunning_attempts: 0, next_action_at: subscription.current_period_end });
    await announceSubscription(billing, trx, recovered, "subscription.updated", "subscription.active");
    return;
  }
  const nextDay = DUNNING_DAYS[attempt];
  if (nextDay !== undefined && subscription.past_due_since) {
    await updateSubscription(trx, subscription.id, { dunning_attempts: attempt, next_action_at: new Date(subscription.past_due_since.getTime() + nextDay * DAY_MS) });
    return;
  }
  if (order) await voidOrder(billing, trx, order);
  await revoke(billing, trx, await updateSubscription(trx, subscription.id, { dunning_attempts: attempt }), due);
}

/** Charges the kept card for an order, recording the payment either way; whether it was paid. */
async function charge(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, order: OrderRow, idempotencyKey: string): Promise<boolean> {
  const total = order.subtotal_amount - order.discount_amount + order.tax_amount;
  if (total === 0) return true;
  const outcome = subscription.payment_method_id
    ? await billing.processor.chargeSaved({ idempotencyKey, amount: total, currency: order.currency, paymentMethodId: subscription.payment_method_id })
    : ({ status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "No card is kept for this subscription." } as const);
  await recordPayment(trx, { organization_id: order.organization_id, checkout_id: null, order_id: order.id, processor: billing.config.PAYMENT_PROCESSOR, amount: total, currency: order.currency }, outcome);
  return outcome.status === "succeeded";
}

/**
 * The customer kept a new card for their subscriptions: renewals use it from now on, and a past-due
 * subscription is retried at once rather than on its next dunning day.
 */
export async function useCardForSubscriptions(trx: Knex.Transaction, customerId: string, paymentMethodId: string, now: Date): Promise<number> {
  await trx<SubscriptionRow>("subscriptions").where({ customer_id: customerId }).whereIn("status", ["active", "trialing", "past_due"]).update({ payment_method_id: paymentMethodId, modified_at: new Date() });
  return trx<SubscriptionRow>("subscriptions").where({ customer_id: customerId, status: "past_due" }).update({ next_action_at: now, modified_at: new Date() });
}

/**
 * Proration lines as an order bills them: a credit never takes the order below nothing, and what is
 * left of it waits for the next order.
 */
function billableProrations(planAmount: number, prorations: OrderLine[]): { billed: OrderLine[]; leftover: OrderLine[] } {
  let total = planAmount;
  const billed: OrderLine[] = [];
  const leftover: OrderLine[] = [];
  for (const line of prorations) {
    const amount = Math.max(line.amount, -total);
    total += amount;
    billed.push({ ...line, amount });
    if (amount !== line.amount) leftover.push({ ...line, amount: line.amount - amount });
  }
  return { billed, leftover };
}

/**
 * What the subscription's discount takes off its plan for the period starting at `periodStart`, as
 * Polar reckons it: a forever discount always, a repeating one for its months from when it was first
 * applied, a once discount on its first order only. A discount applied by an update is first
 * applied here, at the next renewal.
 */
async function discountOn(trx: Knex.Transaction, subscription: SubscriptionRow, periodStart: Date): Promise<{ amount: number; appliedAt: Date | null }> {
  const discount = subscription.discount_id ? ((await findDiscount(trx, subscription.discount_id)) ?? null) : null;
  if (!discount) return { amount: 0, appliedAt: subscription.discount_applied_at };
  const firstUse = subscription.discount_applied_at === null;
  const appliedAt = subscription.discount_applied_at ?? periodStart;
  const monthsIn = (periodStart.getTime() - appliedAt.getTime()) / (30 * DAY_MS);
  const applies = discount.duration === "forever" || (discount.duration === "repeating" && monthsIn < (discount.duration_in_months ?? 0)) || (discount.duration === "once" && firstUse);
  return { amount: applies ? discountAmountOf(discount, subscription.amount, subscription.currency) : 0, appliedAt };
}

/** A plan change's charge now: an order of `lines`, paid with the kept card, or the subscription past due. */
async function invoiceChange(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, draft: OrderDraft, now: Date): Promise<SubscriptionRow> {
  const order = await openOrder(billing, trx, { ...draft, billing_reason: "subscription_update" });
  if (await charge(billing, trx, subscription, order, `order:${order.id}`)) {
    await markOrderPaid(billing, trx, order);
    return subscription;
  }
  const pastDue = await updateSubscription(trx, subscription.id, { status: "past_due", past_due_since: now, dunning_attempts: 0, next_action_at: new Date(now.getTime() + (DUNNING_DAYS[0] ?? 2) * DAY_MS) });
  await announceSubscription(billing, trx, pastDue, "subscription.past_due");
  return pastDue;
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
  billing: Billing,
  trx: Knex.Transaction,
  subscription: SubscriptionRow,
  target: { product: ProductRow; price: PriceRow; amount: number; behaviour: "invoice" | "prorate"; now: Date },
): Promise<SubscriptionRow> {
  const { product, price, amount, behaviour, now } = target;
  const interval = product.recurring_interval ?? subscription.recurring_interval;
  const intervalCount = product.recurring_interval_count ?? 1;
  const intervalChanged = interval !== subscription.recurring_interval || intervalCount !== subscription.recurring_interval_count;
  const plan = { product_id: product.id, product_price_id: price.id, amount, recurring_interval: interval, recurring_interval_count: intervalCount };
  let changed: SubscriptionRow;
  if (subscription.status === "trialing") {
    changed = await updateSubscription(trx, subscription.id, plan);
  } else {
    const current = await findProduct(trx, subscription.product_id);
    const period = subscription.current_period_end.getTime() - subscription.current_period_start.getTime();
    const left = Math.max(0, subscription.current_period_end.getTime() - now.getTime());
    const fraction = period > 0 ? Math.min(1, left / period) : 0;
    const unused: OrderLine = { label: `Unused time on ${current?.name ?? "the previous plan"}`, amount: -Math.round(subscription.amount * fraction), proration: true, product_price_id: subscription.product_price_id };
    if (intervalChanged) {
      // The old period ends now: its waiting prorations are billed with the new one's first order.
      const end = addInterval(now, interval, intervalCount);
      const discount = await discountOn(trx, subscription, now);
      const { billed, leftover } = billableProrations(amount - discount.amount, [unused, ...subscription.pending_prorations]);
      changed = await updateSubscription(trx, subscription.id, { ...plan, current_period_start: now, current_period_end: end, next_action_at: end, pending_prorations: leftover, discount_applied_at: discount.appliedAt });
      changed = await invoiceChange(billing, trx, changed, draftFor(changed, product, price, { amount, discount_amount: discount.amount, tax_amount: 0 }, billed), now);
    } else {
      const prorations: OrderLine[] = [{ label: `Remaining time on ${product.name}`, amount: Math.round(amount * fraction), proration: true, product_price_id: price.id }, unused];
      const net = prorations.reduce((sum, line) => sum + line.amount, 0);
      const invoiceNow = behaviour === "invoice" && net > 0;
      changed = await updateSubscription(trx, subscription.id, { ...plan, pending_prorations: invoiceNow ? subscription.pending_prorations : [...subscription.pending_prorations, ...prorations] });
      if (invoiceNow) changed = await invoiceChange(billing, trx, changed, { ...draftFor(changed, product, price, { amount: 0, discount_amount: 0, tax_amount: 0 }), lines: prorations }, now);
    }
  }
  await revokeBenefits(billing, trx, { subscription_id: subscription.id }, now);
  await grantBenefits(billing, trx, { organizationId: subscription.organization_id, customerId: subscription.customer_id, productId: product.id, now, source: { subscription_id: subscription.id } });
  await announceSubscription(billing, trx, changed, "subscription.updated");
  return changed;
}

/** Polar's answers for changing a subscription that is not running, or is ending. */
const inactive = (subscription: SubscriptionRow) => new HttpError(403, "InactiveSubscription", `Subscription ${subscription.id} is not active.`);
const alreadyCanceled = () => new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled or will be at the end of the period.");
const isActive = (subscription: SubscriptionRow) => subscription.status === "active" || subscription.status === "trialing";

/**
 * Applies a discount to the subscription from its next renewal on, taking a redemption of it, or
 * takes the discount away (null). The discount was checked for the subscription's product.
 */
export async function changeDiscount(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, discount: DiscountRow | null): Promise<SubscriptionRow> {
  if (discount && !(await redeemDiscount(trx, discount.id))) throw invalidField(["discount_id"], "This discount code has been used up.", discount.id);
  const changed = await updateSubscription(trx, subscription.id, { discount_id: discount?.id ?? null, discount_applied_at: null });
  await announceSubscription(billing, trx, changed, "subscription.updated");
  return changed;
}

/**
 * Sets, extends or ends a trial, as Polar does: a trialing subscription's trial ends at the new
 * moment, or now, which renews it at once (charged, active); an active one starts a trial running
 * past its current period. The period ends with the trial.
 */
export async function changeTrial(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, trialEnd: Date | "now", now: Date): Promise<SubscriptionRow> {
  if (!isActive(subscription)) throw inactive(subscription);
  const ending = (end: Date) => ({ trial_end: end, current_period_end: end, next_action_at: end, ...(subscription.cancel_at_period_end ? { ends_at: end } : {}) });
  if (subscription.status === "trialing") {
    if (trialEnd === "now") {
      await advance(billing, trx, await updateSubscription(trx, subscription.id, ending(now)));
      const renewed = await subscriptions(trx).where({ id: subscription.id }).first();
      if (!renewed) throw new Error(`subscription ${subscription.id} is gone`);
      return renewed;
    }
    if (trialEnd <= now) throw invalidField(["trial_end"], "The trial must end in the future, or `now`.", trialEnd.toISOString());
  } else {
    if (trialEnd === "now") throw invalidField(["trial_end"], "The subscription is not currently trialing.", trialEnd);
    // Its current period is paid for: a trial starts after it, so the customer loses nothing.
    if (trialEnd <= subscription.current_period_end) throw invalidField(["trial_end"], "Trial end must be after the current period end.", trialEnd.toISOString());
  }
  const changed = await updateSubscription(trx, subscription.id, { ...ending(trialEnd), status: "trialing", trial_start: subscription.trial_start ?? subscription.current_period_end });
  await announceSubscription(billing, trx, changed, "subscription.updated");
  return changed;
}

/** Moves the end of the current period (the next renewal) to another moment in the future. */
export async function changePeriodEnd(billing: Billing, trx: Knex.Transaction, subscription: SubscriptionRow, end: Date, now: Date): Promise<SubscriptionRow> {
  if (subscription.ended_at !== null || subscription.cancel_at_period_end) throw alreadyCanceled();
  if (!isActive(subscription)) throw inactive(subscription);
  if (end <= now) throw invalidField(["current_billing_period_end"], "The period must end in the future.", end.toISOString());
  const changed = await updateSubscription(trx, subscription.id, { current_period_end: end, next_action_at: end, ...(subscription.status === "trialing" ? { trial_end: end } : {}) });
  await announceSubscription(billing, trx, changed, "subscription.updated");
  return changed;
}
