import { randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { countOrder, type CustomerRow } from "../customers/customers.sql.js";
import { announceBilling } from "../events.js";
import { findSellerIncludingDeleted } from "../organizations/organizations.sql.js";
import type { ProductRow } from "../products/products.sql.js";
import { taxedLines, type TaxTerms } from "../taxes/calculation.js";
import type { OrderLine } from "./lines.js";
import { orderJson, orderJsonOf, type OrderJson } from "./output.js";
import { insertOrder, ordersWithParts, updateOrder, type OrderParts, type OrderRow, type OrderStatus, type OrderWithItems } from "./orders.sql.js";

// The reads the routes and flows make, as the store has them: an order by id (or locked for a
// refund), a page of them, a subscription's unpaid one.
export { findCustomersOrder, findOrder, lockOrder, pageOfOrders, unpaidOrderOf } from "./orders.sql.js";

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

/** What an order is for: its lines at their prices, less a discount, taxed on the terms given (none: untaxed). */
export type OrderDraft = Pick<OrderRow, "organization_id" | "customer_id" | "checkout_id" | "discount_id" | "billing_reason" | "seats" | "currency" | "billing_name" | "billing_address" | "custom_field_data" | "metadata"> & {
  subscription_id: string | null;
  product: ProductRow;
  lines: OrderLine[];
  discount_amount: number;
  tax: TaxTerms | null;
};

/** The total a draft will charge once placed: what its card is charged before the order is written. */
export function draftTotal(draft: Pick<OrderDraft, "lines" | "discount_amount" | "tax">): number {
  const taxed = taxedLines(draft.lines, draft.discount_amount, draft.tax);
  return orderTotal({ subtotal_amount: taxed.lines.reduce((sum, line) => sum + line.amount, 0), discount_amount: taxed.discount_amount, tax_amount: taxed.tax_amount });
}

/** A new order and its items, whole, with the invoice number it was given (none for a draft): each line taxed, amounts before tax. */
function newOrder(draft: OrderDraft, invoiceNumber: string | null, status: OrderStatus): OrderWithItems {
  const { product, lines, discount_amount: discountAmount, tax, ...order } = draft;
  const taxed = taxedLines(lines, discountAmount, tax);
  const now = new Date();
  const id = randomId(32);
  return {
    order: {
      ...order,
      id,
      product_id: product.id,
      status,
      subtotal_amount: taxed.lines.reduce((sum, line) => sum + line.amount, 0),
      discount_amount: taxed.discount_amount,
      tax_amount: taxed.tax_amount,
      refunded_amount: 0,
      refunded_tax_amount: 0,
      tax_behavior: tax?.behavior ?? null,
      tax_rate: tax?.rate ?? null,
      reverse_charge: tax?.reverse_charge ?? false,
      customer_tax_id: tax?.customer_tax_id ?? null,
      invoiced_at: null,
      invoice_number: invoiceNumber,
      created_at: now,
      modified_at: null,
    },
    items: taxed.lines.map((line, position) => ({ ...line, id: randomId(32), order_id: id, position, created_at: now, modified_at: null })),
  };
}

/**
 * An invoice number as Polar numbers them: the seller's slug, the customer's short id and the
 * customer's own running count (`ACME-3F9K2Q1Z-0001`).
 */
function invoiceNumberOf(seller: { slug: string }, customer: { id: string; orders_count: number }): string {
  const prefix = seller.slug.replace(/[^a-z0-9]/gi, "").slice(0, 8).toUpperCase() || "INV";
  return `${prefix}-${customer.id.slice(0, 8).toUpperCase()}-${String(customer.orders_count).padStart(4, "0")}`;
}

/** A customer's next order, numbered before it is placed: the customer as counting it left them, and its invoice number. */
export interface NumberedOrder {
  customer: CustomerRow;
  invoiceNumber: string;
}

/** Counts one more order of the customer (the one statement this runs) and numbers it under the seller's slug. */
export async function numberNextOrder(db: Knex, seller: { slug: string }, customerId: string): Promise<NumberedOrder> {
  const customer = await countOrder(db, customerId);
  return { customer, invoiceNumber: invoiceNumberOf(seller, customer) };
}

/**
 * How an order is placed: paid at once (a checkout's, numbered by its purchase with the parts it
 * read, so the order joins the unit's writes without a round trip), or pending, numbered now, for its
 * flow to settle with `settleOrder` once the card is answered.
 */
export type Placement = { paid: NumberedOrder & { parts: Omit<OrderParts, "customer"> } } | "pending";

/**
 * A new order, announced as Polar tells of one: order.created while pending; one paid at once is
 * written paid and announced order.updated and order.paid as well. `orders.checkout_id` is unique,
 * so a checkout never has two.
 */
export async function placeOrder(unit: UnitOfWork, draft: OrderDraft, placement: Placement): Promise<OrderRow> {
  if (placement === "pending") {
    const seller = await findSellerIncludingDeleted(unit.db, draft.organization_id);
    if (!seller) throw new Error(`seller ${draft.organization_id} is gone`);
    const opened = newOrder(draft, (await numberNextOrder(unit.db, seller, draft.customer_id)).invoiceNumber, "pending");
    // Written now: the order is shown (and may be paid) within the same unit.
    for (const insert of insertOrder(unit.db, opened)) await insert;
    announceBilling(unit, "order.created", opened.order.organization_id, await shownOrder(unit.db, opened.order));
    return opened.order;
  }
  const { customer, invoiceNumber, parts } = placement.paid;
  const placed = newOrder(draft, invoiceNumber, "paid");
  const paid = { ...placed.order, modified_at: placed.order.created_at };
  unit.change(...insertOrder(unit.db, { ...placed, order: paid }));
  announceBilling(unit, "order.created", paid.organization_id, orderJsonOf({ ...paid, status: "pending", modified_at: null }, placed.items, { ...parts, customer }));
  announceBilling(unit, ["order.updated", "order.paid"], paid.organization_id, orderJsonOf(paid, placed.items, { ...parts, customer }));
  return paid;
}

/**
 * A seller's draft for an off-session charge (Polar's POST /v1/orders/), announced order.created as
 * Polar does: unnumbered and not yet due to anyone, until its charge succeeds (`settleOrder` with its
 * number) — a declined attempt leaves it a draft, to be charged again.
 */
export async function openDraft(unit: UnitOfWork, draft: OrderDraft): Promise<OrderRow> {
  const opened = newOrder(draft, null, "draft");
  for (const insert of insertOrder(unit.db, opened)) await insert;
  announceBilling(unit, "order.created", opened.order.organization_id, await shownOrder(unit.db, opened.order));
  return opened.order;
}

/**
 * A pending order (or a draft, given the number it is paid under) settled: paid (order.updated, then
 * order.paid, as Polar sends them), or void, never to be paid (its subscription was revoked after
 * dunning, or ended before it was charged): order.updated.
 */
export async function settleOrder(unit: UnitOfWork, order: OrderRow, status: "paid" | "void", invoiceNumber = order.invoice_number): Promise<OrderRow> {
  const settled = await updateOrder(unit.db, order.id, { status, invoice_number: invoiceNumber });
  announceBilling(unit, status === "paid" ? ["order.updated", "order.paid"] : "order.updated", settled.organization_id, await shownOrder(unit.db, settled));
  return settled;
}

/** The name and address the order's invoice is to carry, corrected (order.updated). */
export async function changeBillingDetails(unit: UnitOfWork, order: OrderRow, changes: Partial<Pick<OrderRow, "billing_name" | "billing_address">>): Promise<OrderRow> {
  const changed = await updateOrder(unit.db, order.id, changes);
  announceBilling(unit, "order.updated", changed.organization_id, await shownOrder(unit.db, changed));
  return changed;
}

/** The order's invoice was made (order.updated: `is_invoice_generated` turns true). */
export async function markInvoiced(unit: UnitOfWork, order: OrderRow, at: Date): Promise<OrderRow> {
  const changed = await updateOrder(unit.db, order.id, { invoiced_at: at });
  announceBilling(unit, "order.updated", changed.organization_id, await shownOrder(unit.db, changed));
  return changed;
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
