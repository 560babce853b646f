import { pageOf, whereAnyOf, type Knex, type Sort } from "@tollgate/kit";
import type { BatchPosition } from "../db/batches.js";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import type { Answers } from "../custom-fields/answers.js";
import { customerIdsWithExternalIds, customersWithIds, type CustomerRow } from "../customers/customers.sql.js";
import type { Address } from "../db/address.js";
import { discounts, discountsWithProducts, type DiscountWithProducts } from "../discounts/discounts.sql.js";
import { products, whereProductOrSellerNamed, type ProductRow } from "../products/products.sql.js";
import { subscriptions, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";

export const ORDER_STATUSES = ["draft", "pending", "paid", "refunded", "partially_refunded", "void"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
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
  /** The seats bought of a seat-based price; null for any other. */
  seats: number | null;
  subtotal_amount: number;
  discount_amount: number;
  tax_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
  /** How the order was taxed (see taxes/calculation.ts): null when it was not. */
  tax_behavior: "inclusive" | "exclusive" | null;
  /** The rate in thousandths of a percent (taxes/rates.ts). */
  tax_rate: number | null;
  reverse_charge: boolean;
  customer_tax_id: string | null;
  /** When its invoice was made (invoices/). */
  invoiced_at: Date | null;
  currency: string;
  billing_name: string | null;
  billing_address: Address | null;
  /** Null while a seller's draft is not yet paid: it is numbered when its charge succeeds. */
  invoice_number: string | null;
  custom_field_data: Answers;
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

/** An order with its items, made in full before it is written, so that it is announced without being read back. */
export interface OrderWithItems {
  order: OrderRow;
  items: OrderItemRow[];
}

/** The inserts of a new order and its items: to await in turn, or to write with a unit's other changes. */
export const insertOrder = (db: Knex, { order, items }: OrderWithItems): Knex.QueryBuilder[] => [db("orders").insert(order), db("order_items").insert(items)];

export async function updateOrder(db: Knex, id: string, changes: Partial<Pick<OrderRow, "status" | "invoice_number" | "refunded_amount" | "refunded_tax_amount" | "billing_name" | "billing_address" | "invoiced_at">>): Promise<OrderRow> {
  const [row] = await db<OrderRow>("orders")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`order ${id} is gone`);
  return row;
}

export const ORDER_SORTABLE = { created_at: "created_at", status: "status", invoice_number: "invoice_number" } as const;

/** Polar's product billing types: a one-time purchase, or a subscription's first or later order. */
export type ProductBillingType = "one_time" | "recurring";

const FILTERED_COLUMNS = ["organization_id", "product_id", "customer_id", "checkout_id", "discount_id", "subscription_id", "status"] as const;

/** What a seller's list of orders is narrowed to: the sellers the caller may read, and the filters asked for. */
export interface OrderFilter {
  organizationIds: string[];
  filters: Partial<Record<(typeof FILTERED_COLUMNS)[number], string[]>> & {
    external_customer_id?: string[];
    product_billing_type?: ProductBillingType[];
    created_after?: Date;
    created_before?: Date;
  };
  metadata: Map<string, string[]>;
}

/** Orders of products billed once or again and again, when only one of the two is asked for. */
function whereBilledAs(found: Knex.QueryBuilder, types: ProductBillingType[] | undefined): void {
  const billingTypes = new Set(types ?? []);
  // Only a purchase is one-time; every other billing reason is a subscription's order.
  if (billingTypes.size === 1) void (billingTypes.has("one_time") ? found.where({ billing_reason: "purchase" }) : found.whereNot({ billing_reason: "purchase" }));
}

/** One page of sellers' orders. */
export function pageOfOrders(db: Knex, { organizationIds, filters, metadata }: OrderFilter, page: { page: number; limit: number; sort: Sort<keyof typeof ORDER_SORTABLE> }) {
  const found = orders(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, FILTERED_COLUMNS);
  if (filters.external_customer_id) void found.whereIn("customer_id", customerIdsWithExternalIds(db, organizationIds, filters.external_customer_id));
  whereBilledAs(found, filters.product_billing_type);
  if (filters.created_after) void found.where("created_at", ">", filters.created_after);
  if (filters.created_before) void found.where("created_at", "<", filters.created_before);
  whereMetadata(found, "metadata", metadata);
  return pageOf<OrderRow, keyof typeof ORDER_SORTABLE>(found, { ...page, columns: ORDER_SORTABLE, table: "orders" });
}

/** What an order is shown with besides its own row and items. */
export interface OrderParts {
  customer: CustomerRow;
  product: ProductRow | null;
  discount: DiscountWithProducts | null;
  subscription: SubscriptionRow | null;
}

/** An order with its items and what it refers to: all its JSON is made from. */
export interface OrderWithParts extends OrderParts {
  order: OrderRow;
  items: OrderItemRow[];
}

/** The rows with the ids given, read only when there are any (most orders have no discount or subscription). */
const rowsWithIds = async <Row>(ids: string[], read: (ids: string[]) => PromiseLike<Row[]>): Promise<Row[]> => (ids.length === 0 ? [] : read(ids));

/** Orders with their items, customers, products, discounts and subscriptions, read for all at once. */
export async function ordersWithParts(db: Knex, rows: OrderRow[]): Promise<OrderWithParts[]> {
  const ids = (pick: (order: OrderRow) => string | null) => [...new Set(rows.map(pick).filter((id): id is string => id !== null))];
  const [items, buyers, bought, discountRows, subscribed] = await Promise.all([
    itemsOfOrders(db, rows.map((order) => order.id)),
    // A deleted customer's orders still show who bought.
    customersWithIds(db, ids((order) => order.customer_id)),
    products(db).whereIn("id", ids((order) => order.product_id)),
    rowsWithIds(ids((order) => order.discount_id), (wanted) => discounts(db).whereIn("id", wanted)),
    rowsWithIds(ids((order) => order.subscription_id), (wanted) => subscriptions(db).whereIn("id", wanted)),
  ]);
  const discountsById = new Map((await discountsWithProducts(db, discountRows)).map((discount) => [discount.id, discount]));
  return rows.map((order) => {
    const customer = buyers.find((candidate) => candidate.id === order.customer_id);
    if (!customer) throw new Error(`order ${order.id} has lost its customer`);
    return {
      order,
      items: items.filter((item) => item.order_id === order.id),
      customer,
      product: bought.find((candidate) => candidate.id === order.product_id) ?? null,
      discount: (order.discount_id && discountsById.get(order.discount_id)) || null,
      subscription: subscribed.find((candidate) => candidate.id === order.subscription_id) ?? null,
    };
  });
}

/** The order, locked until the transaction ends: refunds side by side wait for each other. */
export const lockOrder = (db: Knex, id: string) => orders(db).where({ id }).forUpdate().first();

/** The subscription's latest order still pending: the one dunning retries. */
export const unpaidOrderOf = (db: Knex, subscriptionId: string) => orders(db).where({ subscription_id: subscriptionId, status: "pending" }).orderBy("created_at", "desc").first();

/** One page of the orders of the customers given, newest first (what a customer sees of their own). */
/** What a customer narrows their orders by in the portal. */
export interface CustomersOrderFilter {
  product_id?: string[];
  subscription_id?: string[];
  product_billing_type?: ProductBillingType[];
  /** Text in the product's or the seller's name. */
  query?: string;
}

/** One page of the customers' orders. */
export function pageOfCustomersOrders(db: Knex, customerIds: string[], filter: CustomersOrderFilter, page: { page: number; limit: number; sort: Sort<"created_at"> }) {
  const found = orders(db).whereIn("customer_id", customerIds);
  if (filter.product_id) void found.whereIn("product_id", filter.product_id);
  if (filter.subscription_id) void found.whereIn("subscription_id", filter.subscription_id);
  whereBilledAs(found, filter.product_billing_type);
  if (filter.query) whereProductOrSellerNamed(db, found, "orders", filter.query);
  return pageOf<OrderRow, "created_at">(found, { ...page, columns: { created_at: "created_at" }, table: "orders" });
}

/** One of the customer's orders. */
export const findCustomersOrder = (db: Knex, id: string, customerId: string) => orders(db).where({ id, customer_id: customerId }).first();

/** The ids of the orders the checkouts given became: a query, to use inside another. */
/** The customer's paid one-time seat-based orders, oldest first: their seats are for good. */
export const seatedOrdersOf = (db: Knex, customerId: string) =>
  orders(db).where({ customer_id: customerId }).whereNull("subscription_id").whereNotNull("seats").whereIn("status", ["paid", "partially_refunded"]).orderBy("created_at").orderBy("id");

export const orderIdsOfCheckouts = (db: Knex, checkoutIds: string[]) => db("orders").select("id").whereIn("checkout_id", checkoutIds);

/** An order as its export shows it: with its buyer's e-mail and name and its product's name. */
export type ExportedOrderRow = OrderRow & { email: string; customer_name: string | null; product_name: string | null };

/** Which orders an export holds: of the sellers the caller may read, by the filters Polar's export takes. */
export interface OrderExportFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "product_id" | "status", string[]>> & { created_after?: Date; created_before?: Date };
}

/**
 * Up to `limit` orders after `after`, oldest first (by creation, then id): one batch of an export,
 * found by that position rather than an offset, so the last batch costs what the first did.
 */
export function ordersToExport(db: Knex, { organizationIds, filters }: OrderExportFilter, after: BatchPosition | null, limit: number): Promise<ExportedOrderRow[]> {
  // crosses into customers and products: the export names the buyer and the product, read in the statement that reads the orders.
  const found = db("orders as o").join("customers as c", "c.id", "o.customer_id").leftJoin("products as p", "p.id", "o.product_id").whereIn("o.organization_id", organizationIds);
  if (filters.organization_id) void found.whereIn("o.organization_id", filters.organization_id);
  if (filters.product_id) void found.whereIn("o.product_id", filters.product_id);
  if (filters.status) void found.whereIn("o.status", filters.status);
  if (filters.created_after) void found.where("o.created_at", ">", filters.created_after);
  if (filters.created_before) void found.where("o.created_at", "<", filters.created_before);
  if (after) void found.whereRaw("(o.created_at, o.id) > (?, ?)", [after.created_at, after.id]);
  return found.orderBy([{ column: "o.created_at" }, { column: "o.id" }]).limit(limit).select<ExportedOrderRow[]>("o.*", "c.email", "c.name as customer_name", "p.name as product_name");
}
