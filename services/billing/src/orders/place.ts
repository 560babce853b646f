import { randomId, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { emitBillingEvent, type ChangeSet } from "../events.js";
import type { PriceRow } from "../products/prices.js";
import type { ProductRow } from "../products/products.sql.js";
import { orderJson, orderJsonOf, type OrderContext } from "./output.js";
import { insertOrder, nextInvoiceNumber, updateOrder, type OrderRow, type OrderStatus, type OrderWithItems } from "./orders.sql.js";

/** One line of an order: the product at its price, or a proration for part of a period. */
export interface OrderLine {
  label: string;
  amount: number;
  proration: boolean;
  product_price_id: string | null;
}

/** The usual line: the product at the price charged. */
export const productLine = (product: Pick<ProductRow, "name">, price: Pick<PriceRow, "id">, amount: number): OrderLine => ({ label: product.name, amount, proration: false, product_price_id: price.id });

/** What an order is for: its lines, less a discount, plus tax. */
export type OrderDraft = Pick<OrderRow, "organization_id" | "customer_id" | "checkout_id" | "discount_id" | "billing_reason" | "currency" | "billing_name" | "billing_address" | "custom_field_data" | "metadata"> & {
  subscription_id: string | null;
  product: ProductRow;
  lines: OrderLine[];
  discount_amount: number;
  tax_amount: number;
};

/** A new order and its items, whole, with the invoice number it was given. */
function newOrder(draft: OrderDraft, invoiceNumber: string, status: OrderStatus): OrderWithItems {
  const { product, lines, discount_amount: discountAmount, tax_amount: taxAmount, ...order } = draft;
  const now = new Date();
  const id = randomId(32);
  return {
    order: {
      ...order,
      id,
      product_id: product.id,
      status,
      subtotal_amount: lines.reduce((sum, line) => sum + line.amount, 0),
      discount_amount: discountAmount,
      tax_amount: taxAmount,
      refunded_amount: 0,
      refunded_tax_amount: 0,
      invoice_number: invoiceNumber,
      created_at: now,
      modified_at: null,
    },
    // Tax sits on the first line until a tax engine reckons it per line.
    items: lines.map((line, position) => ({ ...line, id: randomId(32), order_id: id, position, tax_amount: position === 0 ? taxAmount : 0, created_at: now, modified_at: null })),
  };
}

/**
 * A new order, pending until paid, announced as order.created. `orders.checkout_id` is unique, so a
 * checkout never has two.
 */
export async function openOrder(billing: Billing, trx: Knex.Transaction, draft: OrderDraft): Promise<OrderRow> {
  const opened = newOrder(draft, await nextInvoiceNumber(trx, draft.organization_id, draft.customer_id), "pending");
  for (const insert of insertOrder(trx, opened)) await insert;
  await emitBillingEvent(billing.outbox, trx, "order.created", opened.order.organization_id, await orderJson(trx, opened.order));
  return opened.order;
}

/**
 * An order paid at once (a checkout's), added to `changes`: written paid, and announced as Polar
 * tells of an order paid when placed — order.created while pending, then order.updated and
 * order.paid. `invoiceNumber` comes from the customer's count (countOrder).
 */
export function placePaidOrder(changes: ChangeSet, draft: OrderDraft, invoiceNumber: string, context: OrderContext): OrderRow {
  const placed = newOrder(draft, invoiceNumber, "paid");
  const paid = { ...placed.order, modified_at: placed.order.created_at };
  changes.change(...insertOrder(changes.db, { ...placed, order: paid }));
  changes.announce("order.created", paid.organization_id, orderJsonOf({ ...paid, status: "pending", modified_at: null }, placed.items, context));
  changes.announce(["order.updated", "order.paid"], paid.organization_id, orderJsonOf(paid, placed.items, context));
  return paid;
}

/** The order is paid: order.updated, then order.paid, as Polar sends them. */
export async function markOrderPaid(billing: Billing, trx: Knex.Transaction, order: OrderRow): Promise<OrderRow> {
  const paid = await updateOrder(trx, order.id, { status: "paid" });
  await emitBillingEvent(billing.outbox, trx, ["order.updated", "order.paid"], paid.organization_id, await orderJson(trx, paid));
  return paid;
}

/** An order that will never be paid (its subscription was revoked after dunning). */
export async function voidOrder(billing: Billing, trx: Knex.Transaction, order: OrderRow): Promise<OrderRow> {
  const voided = await updateOrder(trx, order.id, { status: "void" });
  await emitBillingEvent(billing.outbox, trx, "order.updated", voided.organization_id, await orderJson(trx, voided));
  return voided;
}
