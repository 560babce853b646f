import type { z } from "zod";
import { HttpError, invalidField, notFound, pageJson, type Knex, type UnitOfWork } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { benefitsWithIds, findAnyBenefit, findCustomersGrant, pageOfCustomersGrants, type BenefitGrantRow, type CustomerGrantFilter } from "../benefits/benefits.sql.js";
import { findCustomer, lockCustomer, setDefaultPaymentMethod, updateCustomer, type CustomerChanges, type CustomerRow } from "../customers/customers.sql.js";
import { changeCustomer } from "../customers/service.js";
import { customerOf, mine } from "../customer-sessions/service.js";
import { findCustomersLicenseKey, licenseKeysWithCustomers, licenseKeyWithActivations, pageOfCustomersLicenseKeys } from "../license-keys/license-keys.sql.js";
import { licenseKeyJson, licenseKeyWithActivationsJson } from "../license-keys/output.js";
import { rotateLicenseKey } from "../license-keys/service.js";
import { findCustomersOrder, orderIdsOfCheckouts, pageOfCustomersOrders, unpaidOrderOf, type OrderRow } from "../orders/orders.sql.js";
import { shownOrders } from "../orders/service.js";
import { reviseOrderBilling } from "../invoices/service.js";
import type { OrderBillingUpdate } from "../invoices/schemas.js";
import { findSeller, findSellerBySlug } from "../organizations/organizations.sql.js";
import { customersMayPause, sellerJson, sellerSummaryJson } from "../organizations/output.js";
import { deletePaymentMethod, findCustomersPaymentMethod, otherPaymentMethodOf, pageOfPaymentMethods, savePaymentMethod } from "../payments/payments.sql.js";
import type { CardSummary, SavedCardOutcome } from "../payments/processor.js";
import { keepCard as keepPaidCard, paymentsOfOrder } from "../payments/service.js";
import { productsWithParts, publicProductIds } from "../products/products.sql.js";
import { cancelAtPeriodEnd, changeWhenNotRenewing, pauseAsAsked, shownSubscriptions, uncancel } from "../subscriptions/service.js";
import { findCustomersSubscription, liveSubscriptionsOnCard, moveToCard, pageOfCustomersSubscriptions, retryWithCard, subscriptionIdsOfCheckouts, useCard, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import { checkedTaxId } from "../taxes/tax-ids.js";
import { customerGrantJson, customerOrderJson, customerSubscriptionJson, type KeptCard } from "./output.js";
import type { CustomerBenefitGrantListQuery, CustomerBenefitGrantUpdate, CustomerOrderConfirmPayment, CustomerOrderListQuery, CustomerOrderPaymentConfirmation, CustomerOrderPaymentStatus, CustomerPortalCustomerUpdate, CustomerSubscriptionListQuery, PortalSubscriptionUpdate } from "./schemas.js";
import type { Parts } from "../parts.js";


/** Which page of a list the customer asks for. */
type PageRequest = { page: number; limit: number };

/** Polar's answer for a change the portal does not offer. */
const notOffered = (message: string) => new HttpError(403, "NotPermitted", message);

/** The seller, as the portal names it beside products and benefits. */
export async function portalOrganization(db: Knex, organizationId: string) {
  const seller = await findSeller(db, organizationId);
  if (!seller) throw notFound("Organization");
  return sellerSummaryJson(seller);
}

// The customer.

export const portalCustomer = async (db: Knex, identity: IdentityClaims): Promise<CustomerRow> => mine(await findCustomer(db, customerOf(identity).customer_id), "Customer");

/** A customer corrects how their invoices are addressed; who they are is the seller's to change. An empty billing name gives back their own. */
/**
 * The customer corrects their billing details, or chooses which of their cards is charged: the
 * default, which their running subscriptions renew with from now on (past-due ones tried again at once).
 */
export function changeBillingDetails(parts: Pick<Parts, "units" | "config"> & { wakeRenewals: () => void }, identity: IdentityClaims, body: z.output<typeof CustomerPortalCustomerUpdate>): Promise<CustomerRow> {
  const changes: CustomerChanges = {};
  if (body.billing_name !== undefined) changes.billing_name = body.billing_name || null;
  if (body.billing_address !== undefined) changes.billing_address = body.billing_address;
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const cardId = body.default_payment_method_id;
  return changeCustomer(parts, "customer.updated", async (unit) => {
    if (body.tax_id !== undefined) {
      const country = (body.billing_address === undefined ? (await findCustomer(unit.db, customerId))?.billing_address : body.billing_address)?.country;
      changes.tax_id = checkedTaxId(body.tax_id ?? null, country, ["tax_id"]);
    }
    if (cardId) {
      if (!(await findCustomersPaymentMethod(unit.db, customerId, cardId))) throw invalidField(["default_payment_method_id"], "This is not one of your cards.", cardId);
      await setDefaultPaymentMethod(unit.db, customerId, cardId);
      if ((await useCard(unit.db, customerId, cardId, await sellerNow(unit.db, organizationId))) > 0) unit.afterCommit(parts.wakeRenewals);
    }
    return updateCustomer(unit.db, customerId, changes);
  });
}

type CardKeeping = Pick<Parts, "db" | "units" | "processor"> & { wakeRenewals: () => void };

/**
 * Keeps a card the customer gave for later charges; made their default, it is the card their
 * running subscriptions renew with, and past-due ones are tried again with it at once. Their bank
 * may want them first: the page finishes that, then confirms the setup (`confirmCustomerCard`).
 */
export async function saveCustomerCard(parts: CardKeeping, identity: IdentityClaims, request: { confirmation_token_id: string; set_default: boolean }): Promise<KeptCard> {
  const customer = await portalCustomer(parts.db, identity);
  const saved = await parts.processor.saveCard({
    idempotencyKey: `card:${customer.id}:${request.confirmation_token_id}`,
    confirmationTokenId: request.confirmation_token_id,
    customer: { id: customer.id, email: customer.email, name: customer.name },
  });
  return keepCard(parts, customer, saved, request.set_default, ["confirmation_token_id"], request.confirmation_token_id);
}

/** Keeps the card of a setup the customer's bank has now checked (the answer `saveCustomerCard` gave was `requires_action`). */
export async function confirmCustomerCard(parts: CardKeeping, identity: IdentityClaims, request: { setup_intent_id: string; set_default: boolean }): Promise<KeptCard> {
  const customer = await portalCustomer(parts.db, identity);
  const saved = await parts.processor.cardSetUp(request.setup_intent_id, { id: customer.id, email: customer.email, name: customer.name });
  return keepCard(parts, customer, saved, request.set_default, ["setup_intent_id"], request.setup_intent_id);
}

async function keepCard(parts: CardKeeping, customer: CustomerRow, saved: SavedCardOutcome, setDefault: boolean, field: string[], given: string): Promise<KeptCard> {
  if (saved.status === "declined") throw invalidField(field, saved.message, given);
  if (saved.status === "requires_action") return { status: "requires_action", clientSecret: saved.clientSecret };
  const method = await parts.units.run(async (unit) => {
    const row = await savePaymentMethod(unit.db, { id: saved.paymentMethodId, customer_id: customer.id, card: saved.card });
    if (setDefault) {
      await setDefaultPaymentMethod(unit.db, customer.id, saved.paymentMethodId);
      if ((await useCard(unit.db, customer.id, saved.paymentMethodId, await sellerNow(unit.db, customer.organization_id))) > 0) unit.afterCommit(parts.wakeRenewals);
    }
    return row;
  });
  return { status: "succeeded", method, card: saved.card, isDefault: setDefault };
}

/** A page of the customer's kept cards, newest first. */
export async function customerCards(db: Knex, identity: IdentityClaims, page: { page: number; limit: number }) {
  const customer = await portalCustomer(db, identity);
  return { ...(await pageOfPaymentMethods(db, customer.id, page)), defaultId: customer.default_payment_method_id };
}

/**
 * Forgets one of the customer's cards. The invariant: a running subscription always has a card to
 * renew with, and a paused one a card to charge when it resumes. So a card such a subscription renews with can go only when another is kept; those
 * subscriptions then renew with the customer's default (or, if this was it, their newest other card),
 * which becomes the default. Checked with the customer locked, so two removals at once cannot each
 * leave the other's card as the last one and then take it too.
 */
export async function forgetCustomerCard(parts: Pick<Parts, "units" | "processor" | "logger">, identity: IdentityClaims, id: string): Promise<void> {
  const customerId = customerOf(identity).customer_id;
  await parts.units.run(async (unit) => {
    const customer = await lockCustomer(unit.db, customerId);
    const card = customer ? await findCustomersPaymentMethod(unit.db, customerId, id) : undefined;
    if (!customer || !card) throw notFound("Payment method");
    const keptDefault = customer.default_payment_method_id && customer.default_payment_method_id !== id ? customer.default_payment_method_id : null;
    const replacement = keptDefault ?? (await otherPaymentMethodOf(unit.db, customerId, id))?.id ?? null;
    if ((await liveSubscriptionsOnCard(unit.db, customerId, id)) > 0) {
      if (!replacement) throw new HttpError(400, "PaymentMethodInUseByActiveSubscription", "A running subscription renews with this card, and it is your only one: add another card first.");
      await moveToCard(unit.db, customerId, id, replacement);
    }
    if (customer.default_payment_method_id === id) await setDefaultPaymentMethod(unit.db, customerId, replacement);
    await deletePaymentMethod(unit.db, id);
  });
  // Billing no longer charges it whatever the processor answers; a card the processor still holds is
  // one nobody can use, so a failure there is logged rather than undoing the customer's removal.
  await parts.processor.forgetCard(id).catch((error: unknown) => parts.logger.warn({ err: error, paymentMethod: id }, "the processor did not let go of a removed card"));
}

// Orders.

/** The customer's orders as they see them, each product with its seller. */
async function customerOrders({ db, config }: Pick<Parts, "db" | "config">, organizationId: string, rows: OrderRow[]) {
  const [organization, shown, bought] = await Promise.all([
    portalOrganization(db, organizationId),
    shownOrders(db, rows),
    productsWithParts(db, rows.flatMap((order) => (order.product_id ? [order.product_id] : []))),
  ]);
  return shown.map((order) => customerOrderJson(order, bought.find((candidate) => candidate.id === order.product_id), organization, config.PUBLIC_URL));
}

export async function customerOrderPage(parts: Pick<Parts, "db" | "config">, identity: IdentityClaims, query: z.output<typeof CustomerOrderListQuery>) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const { rows, total } = await pageOfCustomersOrders(parts.db, [customerId], query, { ...query, sort: query.sorting });
  return pageJson(await customerOrders(parts, organizationId, rows), total, query.limit);
}

export async function customerOrder(parts: Pick<Parts, "db" | "config">, identity: IdentityClaims, id: string) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const [json] = await customerOrders(parts, organizationId, [mine(await findCustomersOrder(parts.db, id, customerId), "Order")]);
  return json;
}

/** The customer gives one of their orders the billing name and address its invoice is to carry, until the invoice is made (as the seller can). */
export async function reviseCustomerOrderBilling(parts: Pick<Parts, "db" | "units" | "config">, identity: IdentityClaims, id: string, body: z.output<typeof OrderBillingUpdate>) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const revised = await reviseOrderBilling(parts, mine(await findCustomersOrder(parts.db, id, customerId), "Order"), body);
  const [json] = await customerOrders(parts, organizationId, [revised]);
  return json;
}

/** What became of the order's latest charge, as the portal polls it: `no_payment` before any, the bank's words for a decline. */
export async function orderPaymentStatus(db: Knex, identity: IdentityClaims, id: string): Promise<z.output<typeof CustomerOrderPaymentStatus>> {
  const order = mine(await findCustomersOrder(db, id, customerOf(identity).customer_id), "Order");
  const [latest] = await paymentsOfOrder(db, order.id);
  return latest ? { status: latest.status, error: latest.decline_message } : { status: "no_payment", error: null };
}

/** How many times a customer may try to pay one order themselves, as Polar allows. */
const CUSTOMER_RETRIES = 5;

const notEligibleForRetry = (order: OrderRow) => new HttpError(422, "OrderNotEligibleForRetry", `Order ${order.id} is not eligible for payment retry.`);
const retryRefused = (message: string) => new HttpError(422, "PaymentRetryValidationError", message);

type OrderPaying = Pick<Parts, "db" | "units" | "processor"> & { renewNow: (subscriptionId: string) => Promise<void> };
type PaymentConfirmation = z.output<typeof CustomerOrderPaymentConfirmation>;

/**
 * The customer pays one of their orders awaiting payment — the order whose declined charge put its
 * subscription past due — with a new card (a confirmation token, kept for later charges) or one of
 * their kept cards. The subscription renews with that card from now on, and the dunning retry charges
 * it at once (flows/renew-period.ts, trigger retry_customer); declined, dunning goes on as scheduled.
 * A seller's draft is the seller's to charge, so it is not eligible here, as in Polar.
 */
export async function payOrderAwaitingPayment(parts: OrderPaying, identity: IdentityClaims, id: string, body: z.output<typeof CustomerOrderConfirmPayment>): Promise<PaymentConfirmation> {
  const { db } = parts;
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const order = mine(await findCustomersOrder(db, id, customerId), "Order");
  const subscription = order.subscription_id ? await findCustomersSubscription(db, order.subscription_id, customerId) : undefined;
  if (order.status !== "pending" || subscription?.status !== "past_due" || (await unpaidOrderOf(db, subscription.id))?.id !== order.id) throw notEligibleForRetry(order);
  if (!body.confirmation_token_id === !body.payment_method_id) throw retryRefused(body.confirmation_token_id ? "Only one of confirmation_token_id or payment_method_id can be provided" : "Either confirmation_token_id or payment_method_id must be provided");
  if ((await paymentsOfOrder(db, order.id, "retry_customer")).length >= CUSTOMER_RETRIES) throw new HttpError(429, "ManualRetryLimitExceeded", `Maximum number of manual payment retry attempts has been reached for order ${order.id}.`);
  const card = await cardToPayWith(parts, await portalCustomer(db, identity), body);
  if ("status" in card) return card;
  await parts.units.run(async (unit) => {
    if (card.kept) keepPaidCard(unit, customerId, card.id, card.kept);
    await unit.write();
    await retryWithCard(unit.db, subscription.id, card.id, await sellerNow(unit.db, organizationId));
  });
  await parts.renewNow(subscription.id);
  if ((await findCustomersOrder(db, order.id, customerId))?.status === "paid") return { status: "succeeded", client_secret: null, error: null };
  const [latest] = await paymentsOfOrder(db, order.id);
  return { status: "failed", client_secret: null, error: latest?.decline_message ?? "Payment failed. Please try again." };
}

/**
 * The card an order is to be paid with: one of the customer's kept cards, or the card behind a
 * confirmation token, set up for later charges (to be kept with the card shown); or, when the bank
 * refused it or wants the customer first, the answer to give.
 */
async function cardToPayWith(parts: OrderPaying, customer: CustomerRow, body: z.output<typeof CustomerOrderConfirmPayment>): Promise<{ id: string; kept?: CardSummary } | PaymentConfirmation> {
  if (body.payment_method_id) {
    const kept = await findCustomersPaymentMethod(parts.db, customer.id, body.payment_method_id);
    if (!kept) throw retryRefused("Payment method does not belong to customer");
    return { id: kept.id };
  }
  const token = body.confirmation_token_id ?? "";
  const saved = await parts.processor.saveCard({ idempotencyKey: `card:${customer.id}:${token}`, confirmationTokenId: token, customer: { id: customer.id, email: customer.email, name: customer.name } });
  if (saved.status === "declined") return { status: "failed", client_secret: null, error: saved.message };
  if (saved.status === "requires_action") return { status: "requires_action", client_secret: saved.clientSecret, error: null };
  return { id: saved.paymentMethodId, kept: saved.card };
}

// Subscriptions.

/** The customer's subscriptions as they see them. */
async function customerSubscriptions({ db, config }: Pick<Parts, "db" | "config">, organizationId: string, rows: SubscriptionRow[]) {
  const organization = await portalOrganization(db, organizationId);
  return (await shownSubscriptions(db, rows, config.PUBLIC_URL)).map((subscription) => customerSubscriptionJson(subscription, organization));
}

export async function customerSubscriptionPage(parts: Pick<Parts, "db" | "config">, identity: IdentityClaims, query: z.output<typeof CustomerSubscriptionListQuery>) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const { rows, total } = await pageOfCustomersSubscriptions(parts.db, [customerId], query, { ...query, sort: query.sorting });
  return pageJson(await customerSubscriptions(parts, organizationId, rows), total, query.limit);
}

export async function customerSubscription(parts: Pick<Parts, "db" | "config">, identity: IdentityClaims, id: string) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const [json] = await customerSubscriptions(parts, organizationId, [mine(await findCustomersSubscription(parts.db, id, customerId), "Subscription")]);
  return json;
}

const alreadyCanceled = () => new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled.");

/**
 * A change the customer makes to one of their running subscriptions, under a lock on it and once no
 * renewal is in flight for it, when the seller lets customers change theirs; the subscription as the
 * customer now sees it.
 */
function changeSubscription(parts: Pick<Parts, "units" | "config">, identity: IdentityClaims, id: string, change: (unit: UnitOfWork, subscription: SubscriptionRow, now: Date) => Promise<SubscriptionRow>) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const locked = async (db: Knex) => mine(await findCustomersSubscription(db, id, customerId, true), "Subscription");
  return changeWhenNotRenewing(parts.units, locked, async (unit, subscription) => {
    if (subscription.ended_at !== null || subscription.status === "canceled") throw alreadyCanceled();
    const seller = await findSeller(unit.db, organizationId);
    if (seller && !sellerJson(seller).subscription_settings.allow_customer_updates) throw notOffered("This seller does not let customers change their subscriptions here.");
    const changed = await change(unit, subscription, await sellerNow(unit.db, organizationId));
    const [json] = await customerSubscriptions({ db: unit.db, config: parts.config }, organizationId, [changed]);
    return json;
  });
}

/** The customer cancels at the period's end or takes that back, and pauses or resumes where the seller lets them; changing plans or seats is not offered here yet. */
export async function updateCustomerSubscription(parts: Pick<Parts, "db" | "units" | "config"> & { renewNow: (subscriptionId: string) => Promise<void> }, identity: IdentityClaims, id: string, body: z.output<typeof PortalSubscriptionUpdate>) {
  if (body.product_id !== undefined || body.seats !== undefined) throw notOffered("Changing plans from the portal is not offered yet.");
  const changed = await changeSubscription(parts, identity, id, async (unit, subscription, now) => {
    if (body.pause_at_period_end !== undefined || body.resume) {
      const seller = await findSeller(unit.db, subscription.organization_id);
      if (!seller || !customersMayPause(seller)) throw new HttpError(403, "PauseResumeNotAllowed", "This seller does not let customers pause or resume their subscriptions.");
      return pauseAsAsked(unit, parts.config, subscription, body, now);
    }
    if (body.cancel_at_period_end === true && !subscription.cancel_at_period_end) return cancelAtPeriodEnd(unit, parts.config, subscription, now, body.cancellation_reason ?? null, body.cancellation_comment ?? null);
    if (body.cancel_at_period_end === false && subscription.cancel_at_period_end) return uncancel(unit, parts.config, subscription);
    return subscription;
  });
  if (!body.resume) return changed;
  // A resumed subscription starts its period now: the renewal worker charges it before the answer, as for the seller.
  await parts.renewNow(id);
  return customerSubscription(parts, identity, id);
}

/** The customer cancels at the period's end: they keep what they paid for until then. */
export function cancelCustomerSubscription(parts: Pick<Parts, "units" | "config">, identity: IdentityClaims, id: string) {
  return changeSubscription(parts, identity, id, async (unit, subscription, now) => {
    if (subscription.cancel_at_period_end) throw alreadyCanceled();
    return cancelAtPeriodEnd(unit, parts.config, subscription, now, null, null);
  });
}

// Benefit grants, and what they give: license keys and files.

/** The customer's grants as the portal lists them, read with their benefits (deleted ones too), the customer and the seller. */
async function customerGrants(db: Knex, identity: IdentityClaims, grants: BenefitGrantRow[]) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const [customer, organization, benefits] = await Promise.all([findCustomer(db, customerId), portalOrganization(db, organizationId), benefitsWithIds(db, grants.map((grant) => grant.benefit_id))]);
  if (!customer) throw notFound("Customer");
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  return grants.flatMap((grant) => {
    const benefit = benefitById.get(grant.benefit_id);
    return benefit ? [customerGrantJson(grant, benefit, customer, organization)] : [];
  });
}

export async function customerGrantPage(db: Knex, identity: IdentityClaims, query: z.output<typeof CustomerBenefitGrantListQuery>) {
  const checkoutIds = query.checkout_id;
  const filter: CustomerGrantFilter = {
    text: query.query,
    types: query.type,
    benefitIds: query.benefit_id,
    orderIds: query.order_id,
    subscriptionIds: query.subscription_id,
    fromCheckouts: checkoutIds && { orderIds: orderIdsOfCheckouts(db, checkoutIds), subscriptionIds: subscriptionIdsOfCheckouts(db, checkoutIds) },
    memberIds: query.member_id,
  };
  const { rows, total } = await pageOfCustomersGrants(db, customerOf(identity).customer_id, filter, { ...query, sort: query.sorting });
  return pageJson(await customerGrants(db, identity, rows), total, query.limit);
}

const ownGrant = async (db: Knex, identity: IdentityClaims, id: string) => mine(await findCustomersGrant(db, customerOf(identity).customer_id, id), "Benefit grant");

export async function customerGrant(db: Knex, identity: IdentityClaims, id: string) {
  const [json] = await customerGrants(db, identity, [await ownGrant(db, identity, id)]);
  return json;
}

/** Benefits the customer must connect an account for; Tollgate has no such connections yet. */
const ACCOUNT_BENEFITS = new Set(["discord", "github_repository"]);

/**
 * What a customer sends about a grant: the account a benefit is to be granted on. Polar would now
 * grant on the connected account; with no account connections to name yet, that is refused, and
 * nothing else about a grant is the customer's to change.
 */
export async function updateCustomerGrant(db: Knex, identity: IdentityClaims, id: string, body: z.output<typeof CustomerBenefitGrantUpdate>) {
  const grant = await ownGrant(db, identity, id);
  const benefit = await findAnyBenefit(db, grant.benefit_id);
  if (benefit && body.benefit_type !== benefit.type) throw invalidField(["benefit_type"], `This grant is for a ${benefit.type} benefit.`, body.benefit_type);
  if (ACCOUNT_BENEFITS.has(body.benefit_type) && body.properties?.account_id) throw notOffered("Connecting a Discord or GitHub account is not offered yet, so this benefit cannot be granted here.");
  const [json] = await customerGrants(db, identity, [grant]);
  return json;
}

export const customerLicenseKeyPage = async (db: Knex, identity: IdentityClaims, benefitId: string | undefined, page: PageRequest) => {
  const { rows, total } = await pageOfCustomersLicenseKeys(db, customerOf(identity).customer_id, benefitId, page);
  return pageJson((await licenseKeysWithCustomers(db, rows)).map(licenseKeyJson), total, page.limit);
};

export const customerLicenseKey = async (db: Knex, identity: IdentityClaims, id: string) =>
  licenseKeyWithActivationsJson(await licenseKeyWithActivations(db, mine(await findCustomersLicenseKey(db, id, customerOf(identity).customer_id), "License key")));

/** One of the customer's own keys given a new string, as the seller could. */
export const rotateCustomerLicenseKey = async (db: Knex, identity: IdentityClaims, id: string) =>
  rotateLicenseKey(db, mine(await findCustomersLicenseKey(db, id, customerOf(identity).customer_id), "License key"));

// The seller.

/** A seller, by the slug in the portal's address, with the products they sell in public. */
export async function storefront(db: Knex, slug: string) {
  const seller = await findSellerBySlug(db, slug);
  if (!seller) throw notFound("Organization");
  return { seller, products: await productsWithParts(db, await publicProductIds(db, seller.id)) };
}
