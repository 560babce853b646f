import type { CustomerMeterRow } from "../customer-meters/customer-meters.sql.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { DiscountWithProducts } from "../discounts/discounts.sql.js";
import { discountJson } from "../discounts/output.js";
import type { MeterRow } from "../meters/meters.sql.js";
import { meterJson } from "../meters/output.js";
import { meteredAmount, priceJson, type PriceRow } from "../products/prices.js";
import { sellerProductJson } from "../products/output.js";
import type { ProductWithParts } from "../products/products.sql.js";
import type { SubscriptionRow } from "./subscriptions.sql.js";

/** A subscription's own fields, without customer, product or prices: what an order shows of it. */
export const subscriptionFieldsJson = (subscription: SubscriptionRow) => ({
  id: subscription.id,
  created_at: subscription.created_at,
  modified_at: subscription.modified_at,
  amount: subscription.amount,
  currency: subscription.currency,
  recurring_interval: subscription.recurring_interval,
  recurring_interval_count: subscription.recurring_interval_count,
  status: subscription.status,
  current_period_start: subscription.current_period_start,
  current_period_end: subscription.current_period_end,
  trial_start: subscription.trial_start,
  trial_end: subscription.trial_end,
  // Metered usage follows the billing period (no meter cycle of its own), and no price is per unit.
  current_meter_period_start: null,
  current_meter_period_end: null,
  units: null,
  seats: subscription.seats,
  cancel_at_period_end: subscription.cancel_at_period_end,
  pause_at_period_end: subscription.pause_at_period_end,
  paused_at: subscription.paused_at,
  resumes_at: subscription.resumes_at,
  canceled_at: subscription.canceled_at,
  started_at: subscription.started_at,
  ends_at: subscription.ends_at,
  ended_at: subscription.ended_at,
  customer_id: subscription.customer_id,
  product_id: subscription.product_id,
  discount_id: subscription.discount_id,
  checkout_id: subscription.checkout_id,
  customer_cancellation_reason: subscription.customer_cancellation_reason,
  customer_cancellation_comment: subscription.customer_cancellation_comment,
  metadata: subscription.metadata,
});

/**
 * The subscription's standing on a meter one of its metered prices bills: what the customer
 * consumed and was credited this period, and what that comes to so far.
 */
export const subscriptionMeterFieldsJson = (price: PriceRow, standing: CustomerMeterRow) => ({
  created_at: standing.created_at,
  modified_at: standing.modified_at,
  id: standing.id,
  consumed_units: standing.consumed_units,
  credited_units: standing.credited_units,
  amount: meteredAmount(price, standing.consumed_units - standing.credited_units).amount,
  meter_id: standing.meter_id,
});

/** A metered price of the subscription, with its meter and the customer's standing on it. */
export interface MeteredPart {
  price: PriceRow;
  meter: MeterRow;
  standing: CustomerMeterRow;
}

/** What a subscription is shown with besides its own row. */
export interface SubscriptionContext {
  customer: CustomerRow;
  product: ProductWithParts;
  price: PriceRow;
  discount: DiscountWithProducts | null;
  metered: MeteredPart[];
}

/** A subscription as Polar shows it, from its row and what it refers to. */
export function subscriptionJsonOf(subscription: SubscriptionRow, { customer, product, price, discount, metered }: SubscriptionContext, publicUrl: string) {
  return {
    ...subscriptionFieldsJson(subscription),
    custom_field_data: subscription.custom_field_data,
    customer: customerJson(customer),
    // Never deletable: this subscription names it.
    product: sellerProductJson(product, publicUrl, false),
    discount: subscription.discount_id && discount ? discountJson(discount) : null,
    // As the product lists them, metered prices with their meters.
    prices: [price, ...metered.map((part) => part.price)].map((listed) => priceJson(product.prices.find((candidate) => candidate.id === listed.id) ?? listed)),
    meters: metered.map((part) => ({ ...subscriptionMeterFieldsJson(part.price, part.standing), meter: meterJson(part.meter) })),
    pending_update: null,
  };
}
