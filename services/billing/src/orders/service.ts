import { randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { announceBilling } from "../events.js";
import type { ProductRow } from "../products/products.sql.js";
import type { OrderLine } from "./lines.js";
import { orderJson, orderJsonOf, type OrderJson } from "./output.js";
import { insertOrder, nextInvoiceNumber, ordersWithParts, updateOrder, type OrderParts, type OrderRow, type OrderStatus, type OrderWithItems } from "./orders.sql.js";

// The reads the routes make, as the store has them: an order by id, a page of them.
export { findOrder, pageOfOrders } from "./orders.sql.js";

/** Orders as Polar shows them, read with their parts for all at once. */
export const shownOrders = async (db: Knex, rows: OrderRow[]): Promise<OrderJson[]> => (await ordersWithParts(db, rows)).map(orderJson);

export async function shownOrder(db: Knex, row: OrderRow): Promise<OrderJson> {
  const [json] = await shownOrders(db, [row]);
  if (!json) throw new Error(`order ${row.id} could not be shown`);
  return json;
}

/** What an order was paid before tax: what refunds are asked for in, and what it can be refunded at most. */
export const orderNet = (order: Pick<OrderRow, "subtotal_amount" | "discount_amount">) => order.subtotal_amount - order.discount_amount;

/** The total an order charges. */
export const orderTotal = (order: Pick<OrderRow, "subtotal_amount" | "discount_amount" | "tax_amount">) => order.subtotal_amount - order.discount_amount + order.tax_amount;

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
export async function openOrder(unit: UnitOfWork, draft: OrderDraft): Promise<OrderRow> {
  const opened = newOrder(draft, await nextInvoiceNumber(unit.db, draft.organization_id, draft.customer_id), "pending");
  // Written now: the order is shown (and may be paid) within the same unit.
  for (const insert of insertOrder(unit.db, opened)) await insert;
  announceBilling(unit, "order.created", opened.order.organization_id, await shownOrder(unit.db, opened.order));
  return opened.order;
}

/**
 * An order paid at once (a checkout's), added to the unit's writes: written paid, and announced as
 * Polar tells of an order paid when placed — order.created while pending, then order.updated and
 * order.paid. `invoiceNumber` comes from the customer's count (countOrder).
 */
export function placePaidOrder(unit: UnitOfWork, draft: OrderDraft, invoiceNumber: string, parts: OrderParts): OrderRow {
  const placed = newOrder(draft, invoiceNumber, "paid");
  const paid = { ...placed.order, modified_at: placed.order.created_at };
  unit.change(...insertOrder(unit.db, { ...placed, order: paid }));
  announceBilling(unit, "order.created", paid.organization_id, orderJsonOf({ ...paid, status: "pending", modified_at: null }, placed.items, parts));
  announceBilling(unit, ["order.updated", "order.paid"], paid.organization_id, orderJsonOf(paid, placed.items, parts));
  return paid;
}

/** The order is paid: order.updated, then order.paid, as Polar sends them. */
export async function markOrderPaid(unit: UnitOfWork, order: OrderRow): Promise<OrderRow> {
  const paid = await updateOrder(unit.db, order.id, { status: "paid" });
  announceBilling(unit, ["order.updated", "order.paid"], paid.organization_id, await shownOrder(unit.db, paid));
  return paid;
}

/** An order that will never be paid (its subscription was revoked after dunning). */
export async function voidOrder(unit: UnitOfWork, order: OrderRow): Promise<OrderRow> {
  const voided = await updateOrder(unit.db, order.id, { status: "void" });
  announceBilling(unit, "order.updated", voided.organization_id, await shownOrder(unit.db, voided));
  return voided;
}

/** Part or all of a paid order was refunded (`amount`, and `taxAmount` of its tax): order.updated, then order.refunded. */
export async function refundOrderPart(unit: UnitOfWork, order: OrderRow, refunded: { amount: number; taxAmount: number }): Promise<OrderRow> {
  const refundedAmount = order.refunded_amount + refunded.amount;
  const changed = await updateOrder(unit.db, order.id, {
    refunded_amount: refundedAmount,
    refunded_tax_amount: order.refunded_tax_amount + refunded.taxAmount,
    status: refundedAmount >= orderNet(order) ? "refunded" : "partially_refunded",
  });
  announceBilling(unit, ["order.updated", "order.refunded"], changed.organization_id, await shownOrder(unit.db, changed));
  return changed;
}
