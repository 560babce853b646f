import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";
import type { CustomFieldData } from "../checkouts/checkouts.sql.js";
import { countOrder, type Address } from "../customers/customers.sql.js";

export type OrderStatus = "pending" | "paid" | "refunded" | "partially_refunded" | "void";
export type BillingReason = "purchase" | "subscription_create" | "subscription_cycle" | "subscription_update";

export interface OrderRow {
  id: string;
  organization_id: string;
  customer_id: string;
  product_id: string | null;
  checkout_id: string | null;
  subscription_id: string | null;
  discount_id: string | null;
  status: OrderStatus;
  billing_reason: BillingReason;
  subtotal_amount: number;
  discount_amount: number;
  tax_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
  currency: string;
  billing_name: string | null;
  billing_address: Address | null;
  invoice_number: string;
  custom_field_data: CustomFieldData;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export interface OrderItemRow {
  id: string;
  order_id: string;
  label: string;
  amount: number;
  tax_amount: number;
  proration: boolean;
  product_price_id: string | null;
  position: number;
  created_at: Date;
  modified_at: Date | null;
}

export const orders = (db: Knex) => db<OrderRow>("orders");

export const findOrder = (db: Knex, id: string) => orders(db).where({ id }).first();

export const itemsOfOrders = (db: Knex, orderIds: string[]) => db<OrderItemRow>("order_items").whereIn("order_id", orderIds).orderBy("position");

/**
 * An invoice number as Polar numbers them: the seller's slug, the customer's short id and the
 * customer's own running count (`ACME-3F9K2Q1Z-0001`), counted with `countOrder`.
 */
export function invoiceNumberOf(seller: { slug: string }, customer: { id: string; orders_count: number }): string {
  const prefix = seller.slug.replace(/[^a-z0-9]/gi, "").slice(0, 8).toUpperCase() || "INV";
  return `${prefix}-${customer.id.slice(0, 8).toUpperCase()}-${String(customer.orders_count).padStart(4, "0")}`;
}

/** The next invoice number for a customer of a seller. */
export async function nextInvoiceNumber(db: Knex, organizationId: string, customerId: string): Promise<string> {
  const customer = await countOrder(db, customerId);
  const seller = await db("organizations").where({ id: organizationId }).first<{ slug: string } | undefined>("slug");
  if (!seller) throw new Error(`seller ${organizationId} is gone`);
  return invoiceNumberOf(seller, customer);
}

/** An order with its items, made in full before it is written, so that it is announced without being read back. */
export interface OrderWithItems {
  order: OrderRow;
  items: OrderItemRow[];
}

/** The inserts of a new order and its items: to await in turn, or to write with others (ChangeSet). */
export const insertOrder = (db: Knex, { order, items }: OrderWithItems): Knex.QueryBuilder[] => [db("orders").insert(order), db("order_items").insert(items)];

export async function updateOrder(db: Knex, id: string, changes: Partial<Pick<OrderRow, "status" | "refunded_amount" | "refunded_tax_amount">>): Promise<OrderRow> {
  const [row] = await db<OrderRow>("orders")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`order ${id} is gone`);
  return row;
}
