import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { grantPurchase } from "../benefit-grants/granting.js";
import type { CheckoutRow } from "../checkouts/checkouts.sql.js";
import type { Offer } from "../checkouts/pricing.js";
import type { DiscountWithProducts } from "../discounts/discounts.sql.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { placeOrder, type NumberedOrder } from "../orders/service.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import type { PriceRow } from "../products/prices.js";
import type { ProductWithParts } from "../products/products.sql.js";
import { announceStarted, billedMeterIdsOf, draftFor, startFreeSubscription, startSubscription, type Amounts } from "../subscriptions/service.js";
import type { SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { TaxTerms } from "../taxes/calculation.js";

/** A checkout of a recurring product, paid (or nothing to pay during a trial), as the purchase read it. */
export interface SubscriptionPurchase {
  checkout: CheckoutRow;
  offer: Offer;
  /** The customer who bought, and the number of the order: the purchase counted it. */
  numbered: NumberedOrder;
  amounts: Amounts;
  tax: TaxTerms | null;
  paymentMethodId: string | null;
  now: Date;
  discount: DiscountWithProducts | null;
}

/**
 * A subscription started by a checkout, added to `unit`: the subscription, its first order (paid;
 * nothing to pay during a trial), its meters credited (each meter it bills by starts now), then
 * subscription.created and subscription.active showing those meters, then its benefits granted.
 */
export async function startPurchasedSubscription(billing: Pick<Parts, "config">, unit: UnitOfWork, purchase: SubscriptionPurchase): Promise<OrderRow> {
  const { checkout, offer, numbered, now, discount } = purchase;
  const { customer } = numbered;
  const { product, price } = offer;
  const subscription = startSubscription(unit, { checkout, offer, customer, paymentMethodId: purchase.paymentMethodId, now });
  const amounts = subscription.status === "trialing" ? { amount: 0, discount_amount: 0 } : purchase.amounts;
  const order = await placeOrder(
    unit,
    { ...draftFor(subscription, product, price, amounts, purchase.tax), checkout_id: checkout.id, billing_reason: "subscription_create", billing_name: checkout.customer_billing_name ?? checkout.customer_name, billing_address: checkout.customer_billing_address },
    { paid: { ...numbered, parts: { product, discount, subscription } } },
  );
  await grantStarted(billing, unit, subscription, { customer, product, price, discount, now });
  return order;
}

/** A new subscription's benefits granted (its meters credited from now), announced started once they are. */
async function grantStarted(
  billing: Pick<Parts, "config">,
  unit: UnitOfWork,
  subscription: SubscriptionRow,
  { customer, product, price, discount, now }: { customer: CustomerRow; product: ProductWithParts; price: PriceRow; discount: DiscountWithProducts | null; now: Date },
): Promise<void> {
  await grantPurchase(unit, {
    customer,
    benefits: product.benefits,
    now,
    source: { subscription_id: subscription.id },
    seats: subscription.seats,
    billedMeterIds: billedMeterIdsOf(product, subscription.currency),
    announceSource: () => announceStarted(unit, billing.config, subscription, { customer, product, price, discount }),
  });
}

/**
 * A free plan a seller starts for a customer without a checkout (Polar's POST /v1/subscriptions/),
 * added to `unit`: the subscription, no order (nothing is charged), its benefits granted, then
 * subscription.created and subscription.active. Its renewals are the free plan's, as any other's.
 */
export async function startFreePlan(billing: Pick<Parts, "config">, unit: UnitOfWork, plan: { customer: CustomerRow; product: ProductWithParts; price: PriceRow; metadata: SubscriptionRow["metadata"]; now: Date }): Promise<SubscriptionRow> {
  const subscription = startFreeSubscription(unit, plan);
  await grantStarted(billing, unit, subscription, { ...plan, discount: null });
  return subscription;
}
