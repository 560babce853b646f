import { setTimeout as sleep } from "node:timers/promises";
import { invalidField, randomId, HttpError, type Knex, type UnitOfWork, type Units } from "@tollgate/kit";
import type { BillingConfig } from "../config.js";
import type { CheckoutRow } from "../checkouts/checkouts.sql.js";
import type { Offer } from "../checkouts/pricing.js";
import { revokeBenefits } from "../benefit-grants/granting.js";
import { revokeSeatsOf } from "../customer-seats/service.js";
import { customersWithIds, type CustomerRow } from "../customers/customers.sql.js";
import { mailCustomer, SWITCH_OF_NOTICE } from "../customers/mail.js";
import { discounts, discountsWithProducts, redeemDiscount, type DiscountRow, type DiscountWithProducts } from "../discounts/discounts.sql.js";
import { announceCustomerEvent } from "../customers/announce.js";
import { productLine, type OrderLine } from "../orders/lines.js";
import { findOrder } from "../orders/orders.sql.js";
import { placeOrder, settleOrder, type OrderDraft } from "../orders/service.js";
import type { PriceRow } from "../products/prices.js";
import { pricesWithIds, productsWithParts, type ProductRow, type ProductWithParts } from "../products/products.sql.js";
import { addInterval } from "../calendar/intervals.js";
import { standingsOf } from "../customer-meters/customer-meters.sql.js";
import { metersWithIds } from "../meters/meters.sql.js";
import { findSellerIncludingDeleted } from "../organizations/organizations.sql.js";
import { taxTermsFor, type TaxTerms } from "../taxes/calculation.js";
import { subscriptionJsonOf, type MeteredPart } from "./output.js";
import { insertSubscription, keepRenewalUsage, updateSubscription, type ClaimedSubscription, type PeriodUsage, type SubscriptionChanges, type SubscriptionRow } from "./subscriptions.sql.js";
import { meteredPricesOfSubscriptions, periodUsage, startNextPeriod } from "./usage.js";
import { firstRetryAt, retryAt } from "./dunning.js";

// The reads the routes make, as the store has them: a subscription by id, a page of them.
export { findSubscription, pageOfSubscriptions } from "./subscriptions.sql.js";

/** What the subscription rules read of the service's settings. */
export type SubscriptionConfig = Pick<BillingConfig, "PUBLIC_URL" | "PAYMENT_PROCESSOR">;

/** The subscriptions' metered prices with their meters and the customers' standings on them, read for all at once. */
async function meteredPartsOf(db: Knex, rows: SubscriptionRow[]): Promise<(subscription: SubscriptionRow) => MeteredPart[]> {
  const pricesOf = await meteredPricesOfSubscriptions(db, rows);
  const meterIds = [...new Set(rows.flatMap((row) => pricesOf(row).map((price) => price.meter_id ?? "")))];
  const [meters, standings] = await Promise.all([metersWithIds(db, meterIds), standingsOf(db, [...new Set(rows.map((row) => row.customer_id))], meterIds)]);
  return (subscription) =>
    pricesOf(subscription).flatMap((price) => {
      const meter = meters.find((candidate) => candidate.id === price.meter_id);
      const standing = standings.find((candidate) => candidate.meter_id === price.meter_id && candidate.customer_id === subscription.customer_id);
      return meter && standing ? [{ price, meter, standing }] : [];
    });
}

/** Subscriptions as Polar shows them, with customer, product, discount, prices and meters, read for all at once. */
export async function shownSubscriptions(db: Knex, rows: SubscriptionRow[], publicUrl: string) {
  const ids = (pick: (row: SubscriptionRow) => string | null) => [...new Set(rows.map(pick).filter((id): id is string => id !== null))];
  const [buyers, bought, prices, discounted, meteredOf] = await Promise.all([
    customersWithIds(db, ids((row) => row.customer_id)),
    productsWithParts(db, ids((row) => row.product_id)),
    pricesWithIds(db, ids((row) => row.product_price_id)),
    discounts(db)
      .whereIn("id", ids((row) => row.discount_id))
      .then((found) => discountsWithProducts(db, found)),
    meteredPartsOf(db, rows),
  ]);
  return rows.map((subscription) => {
    const customer = buyers.find((candidate) => candidate.id === subscription.customer_id);
    const product = bought.find((candidate) => candidate.id === subscription.product_id);
    const price = prices.find((candidate) => candidate.id === subscription.product_price_id);
    if (!customer || !product || !price) throw new Error(`subscription ${subscription.id} has lost its customer, product or price`);
    const discount = discounted.find((candidate) => candidate.id === subscription.discount_id) ?? null;
    return subscriptionJsonOf(subscription, { customer, product, price, discount, metered: meteredOf(subscription) }, publicUrl);
  });
}

export async function shownSubscription(db: Knex, subscription: SubscriptionRow, publicUrl: string) {
  const [json] = await shownSubscriptions(db, [subscription], publicUrl);
  if (!json) throw new Error(`subscription ${subscription.id} could not be shown`);
  return json;
}

type SubscriptionEvent =
  | "subscription.created"
  | "subscription.active"
  | "subscription.updated"
  | "subscription.canceled"
  | "subscription.uncanceled"
  | "subscription.revoked"
  | "subscription.past_due"
  | "subscription.paused"
  | "subscription.resumed"
  | "subscription.cycled";

/** Announces a subscription's new state, once per event type, with the unit that changed it (the customer's state follows). */
export async function announceSubscription(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, ...types: SubscriptionEvent[]): Promise<void> {
  announceCustomerEvent(unit, types, subscription.organization_id, await shownSubscription(unit.db, subscription, config.PUBLIC_URL));
}

/** A charge of the subscription failed at `failedAt`: it falls past due, and dunning retries the charge. */
export async function fallPastDue(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, failedAt: Date): Promise<SubscriptionRow> {
  const pastDue = await updateSubscription(unit.db, subscription.id, { charge_order_id: null, status: "past_due", past_due_since: failedAt, dunning_attempts: 0, next_action_at: firstRetryAt(failedAt) });
  await announceSubscription(unit, config, pastDue, "subscription.updated", "subscription.past_due");
  return pastDue;
}

/**
 * The usage of the period that ended, read once and kept on the subscription under the claim: a
 * retry after a crash between the charge and the settling bills the same lines for the same amount
 * under the same key. Null when the claim no longer holds the subscription.
 */
export async function renewalUsage(db: Knex, subscription: ClaimedSubscription): Promise<PeriodUsage | null> {
  if (subscription.renewal_usage) return subscription.renewal_usage;
  const usage = await periodUsage(db, subscription);
  return (await keepRenewalUsage(db, subscription, usage)) ? usage : null;
}

/** The next period a renewal moves a subscription to, and what it carries over. */
export interface NextPeriod {
  start: Date;
  end: Date;
  /** The prorations its order did not bill, waiting for the next one. */
  leftover: OrderLine[];
  discountAppliedAt: Date | null;
  /** The usage of the period that ended (`renewalUsage`): the meters start their new period from it. */
  usage: PeriodUsage;
}

/** The subscription moves to its next period, active, and its customer meters start theirs. */
export async function advancePeriod(unit: UnitOfWork, subscription: SubscriptionRow, next: NextPeriod): Promise<SubscriptionRow> {
  const resumed = subscription.status === "paused" ? { paused_at: null, resumes_at: null } : {};
  const advanced = await updateSubscription(unit.db, subscription.id, { current_period_start: next.start, current_period_end: next.end, next_action_at: next.end, status: "active", pending_prorations: next.leftover, discount_applied_at: next.discountAppliedAt, renewal_usage: null, ...resumed });
  await startNextPeriod(unit.db, next.usage);
  return advanced;
}

/** The past-due charge was paid: active again, dunning over, on to its period's end. */
export async function recoverFromPastDue(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  const recovered = await updateSubscription(unit.db, subscription.id, { status: "active", past_due_since: null, dunning_attempts: 0, retry_trigger: null, next_action_at: subscription.current_period_end });
  await announceSubscription(unit, config, recovered, "subscription.updated", "subscription.active");
  return recovered;
}

/** A dunning retry failed: counted, and tried again at `retryAt` if another retry is left. */
export async function countFailedRetry(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, attempt: number, retryAt: Date | null): Promise<SubscriptionRow> {
  const counted = await updateSubscription(unit.db, subscription.id, { dunning_attempts: attempt, retry_trigger: null, ...(retryAt ? { next_action_at: retryAt } : {}) });
  // The last one failing ends the subscription, which says so itself (subscription.revoked).
  if (retryAt) await tellSubscriber(unit, config, counted, { notice: "retry_failed", retryAt });
  return counted;
}

/**
 * A retry the customer asked for (paying in the portal) was declined: it is not counted, and dunning
 * goes on as it was scheduled, as Polar leaves dunning be after a manual retry.
 */
export const customerRetryFailed = (unit: UnitOfWork, subscription: SubscriptionRow): Promise<SubscriptionRow> =>
  updateSubscription(unit.db, subscription.id, { retry_trigger: null, next_action_at: (subscription.past_due_since && retryAt(subscription.past_due_since, subscription.dunning_attempts)) ?? subscription.next_action_at });

/**
 * The subscription's customer told of `notice` about its plan as it now stands, under the seller's
 * switch for it: a declined retry (with when the card is tried next), a plan change that charged
 * nothing now (one that did gets its receipt), or ahead of time that its trial ends or its yearly plan
 * renews at the end of the period.
 */
export async function tellSubscriber(
  unit: UnitOfWork,
  config: SubscriptionConfig,
  subscription: SubscriptionRow,
  notice: { notice: "retry_failed"; retryAt: Date } | { notice: "plan_changed" } | { notice: "trial_ending" | "renewal_upcoming"; charge: number },
): Promise<void> {
  const [[customer], [product]] = await Promise.all([customersWithIds(unit.db, [subscription.customer_id]), productsWithParts(unit.db, [subscription.product_id])]);
  if (!customer || !product) return;
  // Told ahead of a period, the customer hears what it will charge; otherwise the plan's price.
  const ahead = "charge" in notice ? notice.charge : null;
  await mailCustomer(unit, config.PUBLIC_URL, subscription.organization_id, SWITCH_OF_NOTICE[notice.notice], customer, (portalUrl) => ({
    kind: "subscription_notice",
    notice: notice.notice,
    product: product.name,
    amount: ahead ?? subscription.amount,
    currency: subscription.currency,
    ends_at: ahead !== null ? subscription.current_period_end.toISOString() : null,
    retry_at: notice.notice === "retry_failed" ? notice.retryAt.toISOString() : null,
    portal_url: portalUrl,
  }));
}

/** The renewal worker is to charge `order` at `at`: the subscription names it until it is charged. */
export const chargeOrderAt = (unit: UnitOfWork, subscription: SubscriptionRow, order: { id: string }, at: Date): Promise<SubscriptionRow> =>
  updateSubscription(unit.db, subscription.id, { charge_order_id: order.id, next_action_at: at });

/** The order the subscription named was charged (or never will be): a running one goes on to its period's end. */
export const chargeSettled = (unit: UnitOfWork, subscription: SubscriptionRow): Promise<SubscriptionRow> =>
  updateSubscription(unit.db, subscription.id, { charge_order_id: null, next_action_at: subscription.ended_at ? null : subscription.current_period_end });

/** What a plan change sets: the plan, and for a change of interval the period it starts and the prorations it leaves. */
export type PlanChange = Pick<SubscriptionChanges, "product_id" | "product_price_id" | "amount" | "recurring_interval" | "recurring_interval_count" | "current_period_start" | "current_period_end" | "next_action_at" | "pending_prorations" | "discount_applied_at">;

/** The subscription moves to another plan (announcing it is the plan change's). */
export const switchPlan = (unit: UnitOfWork, subscription: SubscriptionRow, change: PlanChange): Promise<SubscriptionRow> => updateSubscription(unit.db, subscription.id, change);

/** Whether a checkout for this product starts with a free trial. */
export const startsWithTrial = (product: Pick<ProductRow, "trial_interval">, checkout: Pick<CheckoutRow, "allow_trial">) => product.trial_interval !== null && checkout.allow_trial;

/** What an order of a subscription charges for its plan: the plan's amount less its discount (tax comes on top, or out of it). */
export type Amounts = { amount: number; discount_amount: number };

/**
 * How the subscription's next order is taxed: its seller's registrations as they are now, at the
 * customer's billing address and with their tax number as they are now (a customer who moved is
 * taxed where they live now).
 */
export async function subscriptionTaxTerms(db: Knex, subscription: Pick<SubscriptionRow, "id" | "organization_id" | "customer_id">, price: Pick<PriceRow, "tax_behavior">): Promise<TaxTerms | null> {
  const [seller, [customer]] = await Promise.all([findSellerIncludingDeleted(db, subscription.organization_id), customersWithIds(db, [subscription.customer_id])]);
  if (!seller || !customer) throw new Error(`subscription ${subscription.id} has lost its seller or customer`);
  return taxTermsFor(seller, price, { address: customer.billing_address, taxId: customer.tax_id });
}

/** What a new subscription starts from: a checkout paid, or a seller starting a free plan. */
interface SubscriptionStart {
  organizationId: string;
  customer: CustomerRow;
  product: ProductRow;
  price: PriceRow;
  amount: number;
  seats: number | null;
  currency: string;
  checkoutId: string | null;
  discountId: string | null;
  trialEnd: Date | null;
  customFieldData: SubscriptionRow["custom_field_data"];
  metadata: SubscriptionRow["metadata"];
  paymentMethodId: string | null;
  now: Date;
}

/** A subscription starting `now` (trialing until `trialEnd`, when it has one), added to the unit's writes. */
function openSubscription(unit: UnitOfWork, start: SubscriptionStart): SubscriptionRow {
  const { product, price, now, trialEnd } = start;
  const interval = product.recurring_interval ?? "month";
  const intervalCount = product.recurring_interval_count ?? 1;
  const periodEnd = trialEnd ?? addInterval(now, interval, intervalCount);
  const subscription: SubscriptionRow = {
    id: randomId(32),
    organization_id: start.organizationId,
    customer_id: start.customer.id,
    product_id: product.id,
    product_price_id: price.id,
    checkout_id: start.checkoutId,
    discount_id: start.discountId,
    discount_applied_at: start.discountId ? now : null,
    status: trialEnd ? "trialing" : "active",
    amount: start.amount,
    seats: start.seats,
    currency: start.currency,
    recurring_interval: interval,
    recurring_interval_count: intervalCount,
    current_period_start: now,
    current_period_end: periodEnd,
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    canceled_at: null,
    started_at: now,
    ends_at: null,
    ended_at: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    payment_method_id: start.paymentMethodId,
    past_due_since: null,
    dunning_attempts: 0,
    retry_trigger: null,
    next_action_at: periodEnd,
    leased_until: null,
    charge_order_id: null,
    pending_prorations: [],
    renewal_usage: null,
    reminded_for: null,
    custom_field_data: start.customFieldData,
    metadata: start.metadata,
    created_at: new Date(),
    modified_at: null,
  };
  unit.change(insertSubscription(unit.db, subscription));
  return subscription;
}

/**
 * A subscription bought through a checkout, starting `now` (trialing, when the checkout allows the
 * product's trial), added to the unit's writes. Its first order, grants and announcement are the
 * purchase's (flows/start-subscription.ts).
 */
export function startSubscription(unit: UnitOfWork, purchase: { checkout: CheckoutRow; offer: Offer; customer: CustomerRow; paymentMethodId: string | null; now: Date }): SubscriptionRow {
  const { checkout, offer, customer, now } = purchase;
  const { product, price } = offer;
  return openSubscription(unit, {
    organizationId: checkout.organization_id,
    customer,
    product,
    price,
    amount: checkout.amount,
    seats: checkout.seats,
    currency: checkout.currency,
    checkoutId: checkout.id,
    discountId: checkout.discount_id,
    trialEnd: startsWithTrial(product, checkout) ? addInterval(now, product.trial_interval ?? "day", product.trial_interval_count ?? 1) : null,
    customFieldData: checkout.custom_field_data,
    metadata: checkout.metadata,
    paymentMethodId: purchase.paymentMethodId,
    now,
  });
}

/**
 * The free price a seller may start a subscription on without a checkout (Polar's rule): the
 * product's fixed-amount price, in the seller's currency if it has one there, must be free.
 */
export function freePlanPrice(product: ProductWithParts, currency: string): PriceRow | "not_recurring" | "not_free" {
  if (product.recurring_interval === null) return "not_recurring";
  const statics = product.prices.filter((price) => !price.is_archived && price.amount_type !== "metered_unit");
  const price = statics.find((candidate) => candidate.price_currency === currency) ?? statics[0];
  return price?.amount_type === "free" ? price : "not_free";
}

/** A free plan's subscription a seller starts for a customer (no checkout, nothing to pay), active from `now`. */
export function startFreeSubscription(unit: UnitOfWork, start: { customer: CustomerRow; product: ProductRow; price: PriceRow; metadata: SubscriptionRow["metadata"]; now: Date }): SubscriptionRow {
  return openSubscription(unit, {
    ...start,
    organizationId: start.product.organization_id,
    amount: 0,
    seats: null,
    currency: start.price.price_currency,
    checkoutId: null,
    discountId: null,
    trialEnd: null,
    customFieldData: {},
    paymentMethodId: null,
  });
}

/** The meters a subscription bills by: its product's live metered prices in its currency. */
export const billedMeterIdsOf = (product: ProductWithParts, currency: string): string[] =>
  product.prices.flatMap((candidate) => (candidate.amount_type === "metered_unit" && !candidate.is_archived && candidate.price_currency === currency && candidate.meter_id ? [candidate.meter_id] : []));

/**
 * A new subscription announced, as Polar does: subscription.created and subscription.active, shown
 * with the parts the purchase read and its meters as the customer now stands on them.
 */
export async function announceStarted(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, parts: { customer: CustomerRow; product: ProductWithParts; price: PriceRow; discount: DiscountWithProducts | null }): Promise<void> {
  const metered = billedMeterIdsOf(parts.product, subscription.currency).length > 0 ? (await meteredPartsOf(unit.db, [subscription]))(subscription) : [];
  announceCustomerEvent(unit, ["subscription.created", "subscription.active"], subscription.organization_id, subscriptionJsonOf(subscription, { ...parts, metered }, config.PUBLIC_URL));
}

/** An order of the subscription for its plan, with any proration lines waiting for it. */
export function draftFor(subscription: SubscriptionRow, product: ProductRow, price: PriceRow, amounts: Amounts, tax: TaxTerms | null, prorations: OrderLine[] = []): OrderDraft {
  return {
    organization_id: subscription.organization_id,
    customer_id: subscription.customer_id,
    subscription_id: subscription.id,
    checkout_id: null,
    discount_id: amounts.discount_amount > 0 ? subscription.discount_id : null,
    billing_reason: "subscription_cycle",
    seats: subscription.seats,
    currency: subscription.currency,
    billing_name: null,
    billing_address: null,
    custom_field_data: subscription.custom_field_data,
    metadata: subscription.metadata,
    product,
    lines: [productLine(product, price, amounts.amount, subscription.seats), ...prorations],
    discount_amount: amounts.discount_amount,
    tax,
  };
}

/** Cancels at the end of the period: the customer keeps access until then. */
export async function cancelAtPeriodEnd(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, now: Date, reason: SubscriptionRow["customer_cancellation_reason"], comment: string | null): Promise<SubscriptionRow> {
  const canceled = await updateSubscription(unit.db, subscription.id, {
    cancel_at_period_end: true,
    canceled_at: now,
    ends_at: subscription.current_period_end,
    customer_cancellation_reason: reason,
    customer_cancellation_comment: comment,
  });
  await announceSubscription(unit, config, canceled, "subscription.updated", "subscription.canceled");
  return canceled;
}

/** Takes back a cancellation before the period ends. */
export async function uncancel(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  const renewed = await updateSubscription(unit.db, subscription.id, { cancel_at_period_end: false, canceled_at: null, ends_at: null, customer_cancellation_reason: null, customer_cancellation_comment: null });
  await announceSubscription(unit, config, renewed, "subscription.updated", "subscription.uncanceled");
  return renewed;
}

const pauseNotAllowed = (detail: string) => new HttpError(403, "PauseResumeNotAllowed", detail);

/** What a pause asks for: one at the period's end (or that taken back), or a paused subscription resumed now. */
export interface PauseAsk {
  pause_at_period_end?: boolean | undefined;
  resumes_at?: Date | null | undefined;
  resume?: true | undefined;
}

/** A pause or resumption asked for by the seller or, where the seller lets them, the customer: the same rules either way. */
export async function pauseAsAsked(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, ask: PauseAsk, now: Date): Promise<SubscriptionRow> {
  stillRunning(subscription);
  if (ask.resume) return resumeNow(unit, subscription, now);
  return ask.pause_at_period_end ? schedulePause(unit, config, subscription, ask.resumes_at ?? null) : unschedulePause(unit, config, subscription);
}

/**
 * Asks for a pause when the period ends (Polar's pause_at_period_end), until `resumesAt` or until
 * resumed by hand. Only an active subscription pauses; one canceled at its period's end ends
 * instead; and one billed by usage is not paused, as its meters would go on counting what no order
 * would ever bill.
 */
export async function schedulePause(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, resumesAt: Date | null): Promise<SubscriptionRow> {
  if (subscription.status !== "active") throw pauseNotAllowed(`Only an active subscription can be paused; this one is ${subscription.status.replace("_", " ")}.`);
  if (subscription.cancel_at_period_end) throw pauseNotAllowed("This subscription ends when its period ends: take the cancellation back before pausing it.");
  if ((await meteredPricesOfSubscriptions(unit.db, [subscription]))(subscription).length > 0) throw pauseNotAllowed("A subscription billed by usage cannot be paused.");
  if (resumesAt && resumesAt <= subscription.current_period_end) throw invalidField(["resumes_at"], "The resumption must come after the current period ends", resumesAt.toISOString());
  const scheduled = await updateSubscription(unit.db, subscription.id, { pause_at_period_end: true, resumes_at: resumesAt });
  await announceSubscription(unit, config, scheduled, "subscription.updated");
  return scheduled;
}

/** Takes back a pause asked for the period's end: the subscription renews as before. */
export async function unschedulePause(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  if (!subscription.pause_at_period_end) return subscription;
  const renewing = await updateSubscription(unit.db, subscription.id, { pause_at_period_end: false, resumes_at: null });
  await announceSubscription(unit, config, renewing, "subscription.updated");
  return renewing;
}

/**
 * The period ended with a pause asked for: no order, the benefits taken back (keys stop validating),
 * and nothing due until it resumes — at resumes_at, when one was given.
 */
export async function pauseAtPeriodEnd(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  const pausedAt = subscription.current_period_end;
  const paused = await updateSubscription(unit.db, subscription.id, { status: "paused", paused_at: pausedAt, pause_at_period_end: false, next_action_at: subscription.resumes_at });
  await revokeBenefits(unit, { subscription_id: subscription.id }, pausedAt);
  await announceSubscription(unit, config, paused, "subscription.updated", "subscription.paused");
  return paused;
}

/** A paused subscription asked to resume now: due at once, for the renewal worker to start its new period and charge it. */
export async function resumeNow(unit: UnitOfWork, subscription: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
  if (subscription.status !== "paused") throw pauseNotAllowed(`Only a paused subscription can be resumed; this one is ${subscription.status.replace("_", " ")}.`);
  return updateSubscription(unit.db, subscription.id, { resumes_at: now, next_action_at: now });
}

/** How a subscription ends: why (kept as it was unless given), and whether the usage of its last period is billed. */
export interface Ending {
  reason?: SubscriptionRow["customer_cancellation_reason"];
  comment?: string | null;
  billUsage: boolean;
}

/**
 * Ends the subscription now (or at `endedAt`): canceled, ended, its benefits and seats revoked. When its usage
 * is billed (it was revoked, or reached the end it was canceled for; not when dunning gave up on it),
 * the metered usage of the period that ends is a last order, as Polar bills it (billing_reason
 * subscription_cycle), charged by the renewal worker outside this transaction; the meters start no
 * new period.
 */
export async function revoke(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, endedAt: Date, ending: Ending): Promise<SubscriptionRow> {
  const alreadyCanceled = subscription.canceled_at !== null;
  // A plan change's order not charged yet never will be.
  const uncharged = subscription.charge_order_id ? await findOrder(unit.db, subscription.charge_order_id) : undefined;
  if (uncharged?.status === "pending") await settleOrder(unit, uncharged, "void");
  // Read before the benefits are revoked: the last period's credits still count against its usage.
  const usage = ending.billUsage ? await periodUsage(unit.db, subscription, "last") : null;
  if (usage) await startNextPeriod(unit.db, usage);
  const ended = await updateSubscription(unit.db, subscription.id, {
    status: "canceled",
    charge_order_id: null,
    canceled_at: subscription.canceled_at ?? endedAt,
    ends_at: endedAt,
    ended_at: endedAt,
    next_action_at: null,
    renewal_usage: null,
    customer_cancellation_reason: ending.reason === undefined ? subscription.customer_cancellation_reason : ending.reason,
    customer_cancellation_comment: ending.comment === undefined ? subscription.customer_cancellation_comment : ending.comment,
  });
  await revokeBenefits(unit, { subscription_id: subscription.id }, endedAt);
  // Its seats are taken back with it: none is left pending, and each seat's revocation is told.
  await revokeSeatsOf(unit, { source: { subscription_id: subscription.id } });
  await announceSubscription(unit, config, ended, ...(alreadyCanceled ? (["subscription.updated", "subscription.revoked"] as const) : (["subscription.updated", "subscription.canceled", "subscription.revoked"] as const)));
  if (!usage?.used) return ended;
  const lastOrder = await placeOrder(unit, await usageOrderDraft(unit.db, subscription, usage.lines), "pending");
  return chargeOrderAt(unit, subscription, lastOrder, endedAt);
}

/** An order of the subscription for metered usage alone (its last period's). */
async function usageOrderDraft(db: Knex, subscription: SubscriptionRow, lines: OrderLine[]): Promise<OrderDraft> {
  const [[product], [price]] = await Promise.all([productsWithParts(db, [subscription.product_id]), pricesWithIds(db, [subscription.product_price_id])]);
  if (!product || !price) throw new Error(`subscription ${subscription.id} has lost its product or price`);
  return { ...draftFor(subscription, product, price, { amount: 0, discount_amount: 0 }, await subscriptionTaxTerms(db, subscription, price)), lines };
}

/** Polar's answers for changing a subscription that is not running, or is ending. */
const inactive = (subscription: SubscriptionRow) => new HttpError(403, "InactiveSubscription", `Subscription ${subscription.id} is not active.`);
const alreadyCanceled = () => new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled or will be at the end of the period.");
const isActive = (subscription: SubscriptionRow) => subscription.status === "active" || subscription.status === "trialing";

/** How often a change waiting for a renewal in flight looks again. */
const RENEWAL_POLL_MS = 50;

/**
 * Runs `change` in a unit on the subscription `lock` reads with its row locked, once no renewal holds
 * it: a renewal in flight (its lease still running) has charged for the subscription as it claimed
 * it, so the change waits for it to settle; while the row is locked no renewal can claim it.
 */
export async function changeWhenNotRenewing<Result>(units: Units, lock: (db: Knex) => Promise<SubscriptionRow>, change: (unit: UnitOfWork, subscription: SubscriptionRow) => Promise<Result>): Promise<Result> {
  for (;;) {
    const outcome = await units.run(async (unit) => {
      const subscription = await lock(unit.db);
      if (subscription.leased_until && subscription.leased_until > new Date()) return { renewing: true } as const;
      return { renewing: false, result: await change(unit, subscription) } as const;
    });
    if (!outcome.renewing) return outcome.result;
    await sleep(RENEWAL_POLL_MS);
  }
}

/** A change is refused for a subscription that has ended. */
export function stillRunning(subscription: SubscriptionRow): void {
  if (subscription.ended_at !== null) throw invalidField(["id"], "This subscription has ended", subscription.id);
}

/**
 * Applies a discount to the subscription from its next renewal on, taking a redemption of it, or
 * takes the discount away (null). The discount was checked for the subscription's product.
 */
export async function changeDiscount(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, discount: DiscountRow | null): Promise<SubscriptionRow> {
  if (discount && !(await redeemDiscount(unit.db, discount.id))) throw invalidField(["discount_id"], "This discount code has been used up.", discount.id);
  const changed = await updateSubscription(unit.db, subscription.id, { discount_id: discount?.id ?? null, discount_applied_at: null });
  await announceSubscription(unit, config, changed, "subscription.updated");
  return changed;
}

/**
 * Sets, extends or ends a trial, as Polar does: a trialing subscription's trial ends at the new
 * moment, or now, which makes it due for renewal at once (the caller renews it: charged, active);
 * an active one starts a trial running past its current period. The period ends with the trial.
 */
export async function changeTrial(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, trialEnd: Date | "now", now: Date): Promise<SubscriptionRow> {
  if (!isActive(subscription)) throw inactive(subscription);
  const ending = (end: Date) => ({ trial_end: end, current_period_end: end, next_action_at: end, ...(subscription.cancel_at_period_end ? { ends_at: end } : {}) });
  if (subscription.status === "trialing") {
    if (trialEnd === "now") return updateSubscription(unit.db, subscription.id, ending(now));
    if (trialEnd <= now) throw invalidField(["trial_end"], "The trial must end in the future, or `now`.", trialEnd.toISOString());
  } else {
    if (trialEnd === "now") throw invalidField(["trial_end"], "The subscription is not currently trialing.", trialEnd);
    // Its current period is paid for: a trial starts after it, so the customer loses nothing.
    if (trialEnd <= subscription.current_period_end) throw invalidField(["trial_end"], "Trial end must be after the current period end.", trialEnd.toISOString());
  }
  const changed = await updateSubscription(unit.db, subscription.id, { ...ending(trialEnd), status: "trialing", trial_start: subscription.trial_start ?? subscription.current_period_end });
  await announceSubscription(unit, config, changed, "subscription.updated");
  return changed;
}

/** Moves the end of the current period (the next renewal) to another moment in the future. */
export async function changePeriodEnd(unit: UnitOfWork, config: SubscriptionConfig, subscription: SubscriptionRow, end: Date, now: Date): Promise<SubscriptionRow> {
  if (subscription.ended_at !== null || subscription.cancel_at_period_end) throw alreadyCanceled();
  if (!isActive(subscription)) throw inactive(subscription);
  if (end <= now) throw invalidField(["current_billing_period_end"], "The period must end in the future.", end.toISOString());
  const changed = await updateSubscription(unit.db, subscription.id, { current_period_end: end, next_action_at: end, ...(subscription.status === "trialing" ? { trial_end: end } : {}) });
  await announceSubscription(unit, config, changed, "subscription.updated");
  return changed;
}
