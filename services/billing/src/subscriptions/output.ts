import type { Knex } from "@tollgate/kit";
import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import { discounts } from "../discounts/discounts.sql.js";
import { discountsJson, type DiscountJson } from "../discounts/output.js";
import { priceJson, type PriceRow } from "../products/prices.js";
import { productsJson, type ProductJson } from "../products/output.js";
import { products } from "../products/products.sql.js";
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

/** Subscriptions as Polar shows them, with customer, product, discount and price, read for all at once. */
export async function subscriptionsJson(db: Knex, rows: SubscriptionRow[], publicUrl: string) {
  const ids = (pick: (row: SubscriptionRow) => string | null) => [...new Set(rows.map(pick).filter((id): id is string => id !== null))];
  const [buyers, bought, prices, discountRows] = await Promise.all([
    db<CustomerRow>("customers").whereIn("id", ids((row) => row.customer_id)),
    products(db).whereIn("id", ids((row) => row.product_id)),
    db<PriceRow>("product_prices").whereIn("id", ids((row) => row.product_price_id)),
    discounts(db).whereIn("id", ids((row) => row.discount_id)),
  ]);
  const productJsons = new Map((await productsJson(db, bought, publicUrl)).map((product) => [product.id, product]));
  const discountJsons = new Map((await discountsJson(db, discountRows)).map((discount) => [discount.id, discount]));
  return rows.map((subscription) => {
    const customer = buyers.find((candidate) => candidate.id === subscription.customer_id);
    const product = productJsons.get(subscription.product_id);
    const price = prices.find((candidate) => candidate.id === subscription.product_price_id);
    if (!customer || !product || !price) throw new Error(`subscription ${subscription.id} has lost its customer, product or price`);
    return subscriptionJsonOf(subscription, { customer, product, price, discount: (subscription.discount_id && discountJsons.get(subscription.discount_id)) || null });
  });
}

export async function subscriptionJson(db: Knex, subscription: SubscriptionRow, publicUrl: string) {
  const [json] = await subscriptionsJson(db, [subscription], publicUrl);
  if (!json) throw new Error(`subscription ${subscription.id} could not be shown`);
  return json;
}
