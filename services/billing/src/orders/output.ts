import { customerJson } from "../customers/output.js";
import { discountJson } from "../discounts/output.js";
import { productFieldsJson } from "../products/output.js";
import { subscriptionFieldsJson } from "../subscriptions/output.js";
import type { OrderItemRow, OrderParts, OrderRow, OrderStatus, OrderWithParts } from "./orders.sql.js";

/** The statuses of an order whose money arrived (refunds since do not undo that): only such an order has an invoice or a receipt. */
export const PAID_STATUSES: ReadonlySet<OrderStatus> = new Set(["paid", "refunded", "partially_refunded"]);

/** The invoice number of an order that was paid: a draft is numbered only once its charge succeeds. */
export function paidOrderNumber(order: Pick<OrderRow, "id" | "invoice_number">): string {
  if (order.invoice_number === null) throw new Error(`order ${order.id} was never paid, so it has no number`);
  return order.invoice_number;
}

/** An order as Polar shows it, from its row, its items and what it refers to. */
export function orderJsonOf(order: OrderRow, items: OrderItemRow[], { customer, product, discount, subscription }: OrderParts) {
  const netAmount = order.subtotal_amount - order.discount_amount;
  const totalAmount = netAmount + order.tax_amount;
  const paid = PAID_STATUSES.has(order.status);
  // A draft awaits its off-session charge, a pending order its payment: either is due in full.
  const due = order.status === "draft" || order.status === "pending";
  return {
    id: order.id,
    created_at: order.created_at,
    modified_at: order.modified_at,
    status: order.status,
    paid,
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: netAmount,
    tax_amount: order.tax_amount,
    total_amount: totalAmount,
    applied_balance_amount: 0,
    due_amount: due ? totalAmount : 0,
    refunded_amount: order.refunded_amount,
    refunded_tax_amount: order.refunded_tax_amount,
    currency: order.currency,
    billing_reason: order.billing_reason,
    billing_name: order.billing_name,
    billing_address: order.billing_address,
    invoice_number: order.invoice_number,
    is_invoice_generated: order.invoiced_at !== null,
    // Its receipt (GET …/receipt) is printed under the invoice number, once the money arrived.
    receipt_number: paid ? order.invoice_number : null,
    // No unit-based prices here: an order is for one of its product.
    units: null,
    seats: order.seats,
    // What a refund of all that is left would give back, before tax and of tax; nothing for an order never paid.
    refundable_amount: paid ? netAmount - order.refunded_amount : 0,
    refundable_tax_amount: paid ? order.tax_amount - order.refunded_tax_amount : 0,
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
    discount: order.discount_id && discount ? discountJson(discount) : null,
    subscription: subscription ? subscriptionFieldsJson(subscription) : null,
    items: items.map((item) => ({ id: item.id, created_at: item.created_at, modified_at: item.modified_at, label: item.label, amount: item.amount, tax_amount: item.tax_amount, proration: item.proration, product_price_id: item.product_price_id, start_timestamp: null, end_timestamp: null })),
    description: product?.name ?? items[0]?.label ?? "Order",
  };
}

export type OrderJson = ReturnType<typeof orderJsonOf>;

/** An order as Polar shows it, read with its parts (see ordersWithParts). */
export const orderJson = ({ order, items, ...parts }: OrderWithParts): OrderJson => orderJsonOf(order, items, parts);
