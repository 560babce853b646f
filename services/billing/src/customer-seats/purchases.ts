import { HttpError, notFound, polarErrors, type Knex } from "@tollgate/kit";
import { findOrder, lockOrder, orderIdsOfCheckouts, seatedOrdersOf, type OrderRow } from "../orders/orders.sql.js";
import { findSubscription, lockSubscription, seatedSubscriptionsOf, subscriptionIdsOfCheckouts, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { SeatSource } from "./customer-seats.sql.js";

/** A purchase seats are given on: a subscription, or the order of a one-time purchase. */
export interface SeatedPurchase {
  source: SeatSource;
  id: string;
  organization_id: string;
  /** The customer who bought it: the seats are theirs to give. */
  customer_id: string;
  product_id: string | null;
  /** How many seats it bought; null when it is not seat-based. */
  seats: number | null;
  /** An order not paid yet gives no seats. */
  paid: boolean;
}

const seated = (row: Pick<SeatedPurchase, "id" | "organization_id" | "customer_id" | "product_id" | "seats">, source: SeatSource, paid: boolean): SeatedPurchase => ({
  source,
  id: row.id,
  organization_id: row.organization_id,
  customer_id: row.customer_id,
  product_id: row.product_id,
  seats: row.seats,
  paid,
});

const ofSubscription = (row: SubscriptionRow) => seated(row, { subscription_id: row.id }, true);

const ofOrder = (row: OrderRow) => seated(row, { order_id: row.id }, row.status !== "pending" && row.status !== "draft");

/** Who reads a purchase: a seller (the organizations the caller reaches) or, in the portal, the customer who bought it. */
export type PurchaseReader = { organizationIds: string[] } | { customerId: string };

const readable = (reader: PurchaseReader, row: { organization_id: string; customer_id: string } | undefined) =>
  row !== undefined && ("customerId" in reader ? row.customer_id === reader.customerId : reader.organizationIds.includes(row.organization_id));

/** What a seat request names its purchase by: a subscription, an order, or (in the portal) the checkout that made one. */
export interface PurchaseNamed {
  subscription_id?: string | null | undefined;
  order_id?: string | null | undefined;
  checkout_id?: string | null | undefined;
}

/** The purchase a request names, if the reader may see it: else Polar's 404 for what it named. */
export async function namedPurchase(db: Knex, reader: PurchaseReader, named: PurchaseNamed): Promise<SeatedPurchase> {
  if (named.subscription_id) {
    const subscription = await findSubscription(db, named.subscription_id);
    if (!readable(reader, subscription) || !subscription) throw notFound("Subscription");
    return ofSubscription(subscription);
  }
  if (named.order_id) {
    const order = await findOrder(db, named.order_id);
    if (!readable(reader, order) || !order) throw notFound("Order");
    return ofOrder(order);
  }
  if (named.checkout_id) return purchaseOfCheckout(db, reader, named.checkout_id);
  throw new HttpError(400, polarErrors.codes.bad_request, "Either subscription_id or order_id must be provided");
}

/** The subscription a checkout started, else the first order it made (Polar's portal assignment by checkout). */
async function purchaseOfCheckout(db: Knex, reader: PurchaseReader, checkoutId: string): Promise<SeatedPurchase> {
  const [subscriptionId] = (await subscriptionIdsOfCheckouts(db, [checkoutId]).orderBy("created_at")) as { id: string }[];
  const subscription = subscriptionId ? await findSubscription(db, subscriptionId.id) : undefined;
  if (subscription && readable(reader, subscription)) return ofSubscription(subscription);
  const [orderId] = (await orderIdsOfCheckouts(db, [checkoutId]).orderBy("created_at")) as { id: string }[];
  const order = orderId ? await findOrder(db, orderId.id) : undefined;
  if (order && readable(reader, order)) return ofOrder(order);
  throw new HttpError(404, polarErrors.codes.not_found, "No subscription or order found for this checkout");
}

/**
 * The purchase locked until the unit ends, read again: every assignment of its seats takes this lock
 * first, so the seats it bought (and a change to them) are read by one assignment at a time.
 */
export async function lockPurchase(db: Knex, purchase: SeatedPurchase): Promise<SeatedPurchase> {
  if (purchase.source.subscription_id !== undefined) {
    const subscription = await lockSubscription(db, purchase.source.subscription_id);
    if (!subscription) throw notFound("Subscription");
    return ofSubscription(subscription);
  }
  const order = await lockOrder(db, purchase.source.order_id);
  if (!order) throw notFound("Order");
  return ofOrder(order);
}

/** The purchase a seat is of. */
export async function purchaseOfSeat(db: Knex, source: SeatSource): Promise<SeatedPurchase> {
  if (source.subscription_id !== undefined) {
    const subscription = await findSubscription(db, source.subscription_id);
    if (!subscription) throw new Error(`subscription ${source.subscription_id} of a seat is gone`);
    return ofSubscription(subscription);
  }
  const order = await findOrder(db, source.order_id);
  if (!order) throw new Error(`order ${source.order_id} of a seat is gone`);
  return ofOrder(order);
}

/** The customer's seat-based purchases that still give seats: running subscriptions, then paid one-time orders, oldest first. */
export async function seatedPurchasesOf(db: Knex, customerId: string): Promise<SeatedPurchase[]> {
  const [subscriptions, orders] = await Promise.all([seatedSubscriptionsOf(db, customerId), seatedOrdersOf(db, customerId)]);
  return [...subscriptions.map(ofSubscription), ...orders.map(ofOrder)];
}
