import type { Knex } from "@tollgate/kit";
import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import { discounts } from "../discounts/discounts.sql.js";
import { discountsJson, type DiscountJson } from "../discounts/output.js";
import { productFieldsJson } from "../products/output.js";
import { products, type ProductRow } from "../products/products.sql.js";
import { subscriptionFieldsJson } from "../subscriptions/output.js";
import { subscriptions, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { itemsOfOrders, type OrderItemRow, type OrderRow } from "./orders.sql.js";

/** The rows with the ids given, read only when there are any (most orders have no discount or subscription). */
const rowsWithIds = async <Row>(ids: string[], read: (ids: string[]) => PromiseLike<Row[]>): Promise<Row[]> => (ids.length === 0 ? [] : read(ids));

/** What an order is shown with besides its own row and items. */
export interface OrderContext {
  customer: CustomerRow;
  product: ProductRow | null;
  discount: DiscountJson | null;
  subscription: SubscriptionRow | null;
}

/** An order as Polar shows it, from its row, its items and what it refers to. */
export function orderJsonOf(order: OrderRow, items: OrderItemRow[], { customer, product, discount, subscription }: OrderContext) {
  const netAmount = order.subtotal_amount - order.discount_amount;
  const totalAmount = netAmount + order.tax_amount;
  return {
    id: order.id,
    created_at: order.created_at,
    modified_at: order.modified_at,
    status: order.status,
    paid: order.status !== "pending" && order.status !== "void",
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: netAmount,
    tax_amount: order.tax_amount,
    total_amount: totalAmount,
    applied_balance_amount: 0,
    due_amount: order.status === "pending" ? totalAmount : 0,
    refunded_amount: order.refunded_amount,
    refunded_tax_amount: order.refunded_tax_amount,
    currency: order.currency,
    billing_reason: order.billing_reason,
    billing_name: order.billing_name,
    billing_address: order.billing_address,
    invoice_number: order.invoice_number,
    is_invoice_generated: false,
    customer_id: order.customer_id,
    product_id: order.product_id,
    discount_id: order.discount_id,
    subscription_id: order.subscription_id,
    checkout_id: order.checkout_id,
    metadata: order.metadata,
    custom_field_data: order.custom_field_data,
    // Self-hosted: no platform takes a cut.
    platform_fee_amount: 0,
    platform_fee_currency: null,
    customer: customerJson(customer),
    product: product ? productFieldsJson(product) : null,
    discount: order.discount_id ? discount : null,
    subscription: subscription ? subscriptionFieldsJson(subscription) : null,
    items: items.map((item) => ({ id: item.id, created_at: item.created_at, modified_at: item.modified_at, label: item.label, amount: item.amount, tax_amount: item.tax_amount, proration: item.proration, product_price_id: item.product_price_id })),
    description: product?.name ?? items[0]?.label ?? "Order",
  };
}

/** Orders as Polar shows them, with their customer, product, discount and items, read for all at once. */
export async function ordersJson(db: Knex, rows: OrderRow[]) {
  const ids = (pick: (order: OrderRow) => string | null) => [...new Set(rows.map(pick).filter((id): id is string => id !== null))];
  const [items, buyers, bought, discountRows, subscribed] = await Promise.all([
    itemsOfOrders(db, rows.map((order) => order.id)),
    // A deleted customer's orders still show who bought.
    db<CustomerRow>("customers").whereIn("id", ids((order) => order.customer_id)),
    products(db).whereIn("id", ids((order) => order.product_id)),
    rowsWithIds(ids((order) => order.discount_id), (wanted) => discounts(db).whereIn("id", wanted)),
    rowsWithIds(ids((order) => order.subscription_id), (wanted) => subscriptions(db).whereIn("id", wanted)),
  ]);
  const discountJsons = new Map((await discountsJson(db, discountRows)).map((discount) => [discount.id, discount]));
  return rows.map((order) => {
    const customer = buyers.find((candidate) => candidate.id === order.customer_id);
    if (!customer) throw new Error(`order ${order.id} has lost its customer`);
    return orderJsonOf(
      order,
      items.filter((item) => item.order_id === order.id),
      {
        customer,
        product: bought.find((candidate) => candidate.id === order.product_id) ?? null,
        discount: (order.discount_id && discountJsons.get(order.discount_id)) || null,
        subscription: subscribed.find((candidate) => candidate.id === order.subscription_id) ?? null,
      },
    );
  });
}

export type OrderJson = ReturnType<typeof orderJsonOf>;

export async function orderJson(db: Knex, order: OrderRow): Promise<OrderJson> {
  const [json] = await ordersJson(db, [order]);
  if (!json) throw new Error(`order ${order.id} could not be shown`);
  return json;
}
