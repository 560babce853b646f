import { randomId, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { emitBillingEvent } from "../events.js";
import type { PriceRow } from "../products/prices.js";
import type { ProductRow } from "../products/products.sql.js";
import { orderJson } from "./output.js";
import { insertOrder, nextInvoiceNumber, updateOrder, type OrderRow } from "./orders.sql.js";

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

/**
 * A new order, pending until paid, announced as order.created. `orders.checkout_id` is unique, so a
 * checkout never has two.
 */
export async function openOrder(billing: Billing, trx: Knex.Transaction, draft: OrderDraft): Promise<OrderRow> {
  const { product, lines, discount_amount: discountAmount, tax_amount: taxAmount, ...order } = draft;
  const opened = await insertOrder(
    trx,
    {
      ...order,
      id: randomId(32),
      product_id: product.id,
      status: "pending",
      subtotal_amount: lines.reduce((sum, line) => sum + line.amount, 0),
      discount_amount: discountAmount,
      tax_amount: taxAmount,
      invoice_number: await nextInvoiceNumber(trx, order.organization_id, order.customer_id),
    },
    // Tax sits on the first line until a tax engine reckons it per line.
    lines.map((line, index) => ({ ...line, id: randomId(32), tax_amount: index === 0 ? taxAmount : 0 })),
  );
  await emitBillingEvent(billing.outbox, trx, "order.created", opened.organization_id, await orderJson(trx, opened));
  return opened;
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
