import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { grantPurchase } from "../benefit-grants/granting.js";
import type { CheckoutCatalog, CheckoutRow } from "../checkouts/checkouts.sql.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import { offerOf, taxTermsOf, type CheckoutAmounts } from "../checkouts/pricing.js";
import { reopenDeclined, succeedCheckout } from "../checkouts/service.js";
import { discountWithProducts } from "../discounts/service.js";
import { productLine } from "../orders/lines.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { numberNextOrder, placeOrder, settleOrder } from "../orders/service.js";
import { findSellerIncludingDeleted } from "../organizations/service.js";
import type { SettledOutcome } from "../payments/processor.js";
import { chargeOfOrder, keepCard, recordCharge } from "../payments/service.js";
import type { ProductWithParts } from "../products/products.sql.js";
import { productsWithParts } from "../products/service.js";
import { sellerClock } from "../test-clock/clock.js";
import { startPurchasedSubscription } from "./start-subscription.js";

/** A confirmed checkout whose payment the processor answered (no answer: nothing was charged), as the payment worker took it. */
export interface AnsweredCheckout {
  checkout: CheckoutRow;
  catalog: CheckoutCatalog;
  amounts: CheckoutAmounts;
  /** What the card was charged: nothing during a trial. */
  charged: number;
  outcome: SettledOutcome | null;
}

/**
 * Settles a confirmed checkout in `unit`, once its payment is answered: declined, the payment is
 * recorded and the checkout opens again; paid (or free), the purchase is fulfilled, the payment
 * recorded against its order, and the checkout succeeds.
 */
export async function settlePurchase(billing: Pick<Parts, "config">, unit: UnitOfWork, answered: AnsweredCheckout): Promise<void> {
  const { checkout, catalog, outcome } = answered;
  const charge = { organizationId: checkout.organization_id, checkoutId: checkout.id, amount: answered.charged, currency: checkout.currency, trigger: "purchase" as const };
  if (outcome?.status === "declined") {
    recordCharge(unit, billing.config, { ...charge, orderId: null }, outcome);
    reopenDeclined(billing, unit, checkout, catalog, outcome.message);
    return;
  }
  const order = await fulfil(billing, unit, answered, outcome?.paymentMethodId ?? null);
  succeedCheckout(billing, unit, checkout, catalog);
  if (outcome) recordCharge(unit, billing.config, { ...charge, orderId: order.id }, outcome);
  if (outcome?.paymentMethodId) keepCard(unit, order.customer_id, outcome.paymentMethodId, outcome.card);
}

/**
 * What was bought: for a recurring product the subscription it starts (with its first order), else
 * an order paid and its benefits granted; a subscription keeps the card saved (`paymentMethodId`).
 * Numbering the order (the customer's order count) is the one statement run here; the rest joins
 * `unit`.
 */
async function fulfil(billing: Pick<Parts, "config">, unit: UnitOfWork, { checkout, catalog, amounts }: AnsweredCheckout, paymentMethodId: string | null): Promise<OrderRow> {
  if (!checkout.customer_id) throw new Error(`checkout ${checkout.id} lost its customer before its order`);
  const offer = offerOf(catalog, checkout);
  const { product, price, seller } = offer;
  const now = sellerClock(seller);
  const numbered = await numberNextOrder(unit.db, seller, checkout.customer_id);
  const { customer } = numbered;
  const discount = offer.discount ? await discountWithProducts(unit.db, offer.discount) : null;
  // The terms the checkout showed and the card was charged on: the same catalog, read once.
  const tax = taxTermsOf(checkout, offer);
  if (product.recurring_interval !== null) {
    return startPurchasedSubscription(billing, unit, { checkout, offer, numbered, amounts, tax, paymentMethodId, now, discount });
  }
  const order = await placeOrder(
    unit,
    {
      organization_id: checkout.organization_id,
      customer_id: customer.id,
      checkout_id: checkout.id,
      subscription_id: null,
      discount_id: checkout.discount_id,
      billing_reason: "purchase",
      seats: checkout.seats,
      currency: checkout.currency,
      billing_name: checkout.customer_billing_name ?? checkout.customer_name,
      billing_address: checkout.customer_billing_address,
      custom_field_data: checkout.custom_field_data,
      metadata: checkout.metadata,
      product,
      lines: [productLine(product, price, amounts.amount, checkout.seats)],
      discount_amount: amounts.discount_amount,
      tax,
    },
    { paid: { ...numbered, parts: { product, discount, subscription: null } } },
  );
  await grantOrdered(unit, customer, product, order, now);
  return order;
}

/** The benefits of a one-time product granted for the order that paid for it (to its seats' members as they claim them, when it bought seats). */
const grantOrdered = (unit: UnitOfWork, customer: CustomerRow, product: ProductWithParts, order: OrderRow, now: Date) =>
  grantPurchase(unit, { customer, benefits: product.benefits, now, source: { order_id: order.id }, seats: order.seats });

/** A seller's draft order as its off-session charge was answered (no answer: nothing was due), for `settleDraftPurchase`. */
export interface AnsweredDraft {
  order: OrderRow;
  charged: number;
  outcome: SettledOutcome | null;
}

/**
 * Settles a seller's draft order in `unit`, once its off-session charge is answered
 * (flows/finalize-order.ts): declined, the payment is recorded against it and it stays a draft, to
 * be charged again; paid (or free), it is numbered as the customer's next order, paid, and its
 * benefits granted, as a checkout's one-time purchase is. The order as it now is.
 */
export async function settleDraftPurchase(billing: Pick<Parts, "config">, unit: UnitOfWork, { order, charged, outcome }: AnsweredDraft): Promise<OrderRow> {
  if (outcome) recordCharge(unit, billing.config, chargeOfOrder(order, charged, "purchase"), outcome);
  if (outcome?.status === "declined") return order;
  const [seller, [product]] = await Promise.all([findSellerIncludingDeleted(unit.db, order.organization_id), productsWithParts(unit.db, order.product_id ? [order.product_id] : [])]);
  if (!seller || !product) throw new Error(`draft order ${order.id} has lost its seller or product`);
  const { customer, invoiceNumber } = await numberNextOrder(unit.db, seller, order.customer_id);
  const paid = await settleOrder(unit, order, "paid", invoiceNumber);
  await grantOrdered(unit, customer, product, paid, sellerClock(seller));
  return paid;
}
