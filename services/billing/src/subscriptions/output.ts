import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { DiscountJson } from "../discounts/output.js";
import { priceJson, type PriceRow } from "../products/prices.js";
import type { ProductJson } from "../products/output.js";
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
  cancel_at_period_end: subscription.cancel_at_period_end,
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

/** What a subscription is shown with besides its own row. */
export interface SubscriptionContext {
  customer: CustomerRow;
  product: ProductJson;
  price: PriceRow;
  discount: DiscountJson | null;
}

/** A subscription as Polar shows it, from its row and what it refers to. */
export function subscriptionJsonOf(subscription: SubscriptionRow, { customer, product, price, discount }: SubscriptionContext) {
  return {
    ...subscriptionFieldsJson(subscription),
    custom_field_data: subscription.custom_field_data,
    customer: customerJson(customer),
    product,
    discount: subscription.discount_id ? discount : null,
    prices: [priceJson(price)],
    meters: [],
    pending_update: null,
  };
}
