import { request, type Listing } from "../../api/client";
import type { Dispute, Order, OrderCreditNote, OrderReceipt, Payment, Refund, RequestBody } from "../../api/wire";

export type { Dispute, Order, Payment, Refund } from "../../api/wire";

export const ORDER_STATUSES = ["draft", "pending", "paid", "refunded", "partially_refunded", "void"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const BILLING_REASONS = ["purchase", "subscription_create", "subscription_cycle", "subscription_update"] as const;
export type BillingReason = (typeof BILLING_REASONS)[number];
/** Polar's product billing types, the list's filter for one-time purchases or subscriptions' orders. */
export const BILLING_TYPES = ["one_time", "recurring"] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
/** Polar's refund reasons. */
export const REFUND_REASONS = ["customer_request", "duplicate", "fraudulent", "service_disruption", "satisfaction_guarantee", "dispute_prevention", "other"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** What may be refunded of an order: refunds are asked for before tax, and tax goes back in proportion. */
export const refundableOf = (order: Pick<Order, "net_amount" | "refunded_amount">) => Math.max(0, order.net_amount - order.refunded_amount);

export interface OrderFilters {
  status?: OrderStatus;
  billingType?: BillingType;
  productId?: string;
  customerId?: string;
  /** Days as `YYYY-MM-DD`, in the seller's own time zone; both ends included. */
  from?: string;
  to?: string;
}

export interface OrderQuery extends OrderFilters {
  organizationId: string;
  /** Polar's sorting: a field, with a minus for descending. */
  sorting: string;
  /** From 1, as Polar counts. */
  page: number;
  limit: number;
}

/** The start of a day in the browser's time zone, with its offset, as Polar's `created_after` wants. */
const startOfDay = (day: string, plusDays = 0) => {
  const moment = new Date(`${day}T00:00:00`);
  moment.setDate(moment.getDate() + plusDays);
  return moment.toISOString();
};

/** One page of the seller's orders, filtered, sorted and paged by the server. */
export function listOrders({ organizationId, sorting, page, limit, status, billingType, productId, customerId, from, to }: OrderQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting, page: String(page), limit: String(limit) });
  if (status) query.set("status", status);
  if (billingType) query.set("product_billing_type", billingType);
  if (productId) query.set("product_id", productId);
  if (customerId) query.set("customer_id", customerId);
  // Polar's bounds are exclusive: just before the first day starts, and when the day after the last starts.
  if (from) query.set("created_after", new Date(new Date(startOfDay(from)).getTime() - 1).toISOString());
  if (to) query.set("created_before", startOfDay(to, 1));
  return request<Listing<Order>>(`/v1/orders/?${query.toString()}`);
}

export const getOrder = (id: string) => request<Order>(`/v1/orders/${id}`);

export const listRefunds = (orderId: string) => request<Listing<Refund>>(`/v1/refunds/?order_id=${orderId}&limit=100&sorting=-created_at`);

/**
 * Every attempt to pay an order, oldest first: a checkout's (its declines came before there was an
 * order) or, for an order without one (a renewal), the order's own (its dunning retries).
 */
export const listPayments = (order: Pick<Order, "id" | "checkout_id">) =>
  request<Listing<Payment>>(`/v1/payments/?${order.checkout_id ? `checkout_id=${order.checkout_id}` : `order_id=${order.id}`}&limit=100&sorting=created_at`);

export const listDisputes = (orderId: string) => request<Listing<Dispute>>(`/v1/disputes/?order_id=${orderId}&limit=100&sorting=-created_at`);

export type RefundCreate = RequestBody<"/v1/refunds/", "post">;

export const createRefund = (body: RefundCreate) => request<Refund>("/v1/refunds/", { method: "POST", body });

/** The address of an order's receipt or invoice PDF, for an hour; an invoice is made first if it is not yet. */
export async function orderDocumentUrl(orderId: string, kind: "receipt" | "invoice"): Promise<string> {
  const path = `/v1/orders/${encodeURIComponent(orderId)}`;
  if (kind === "invoice") await request<null>(`${path}/invoice`, { method: "POST" });
  return (await request<OrderReceipt>(`${path}/${kind}`)).url;
}

/** The order's credit notes (one per refund of an invoiced order), numbered as printed, each with a fresh link. */
export const listCreditNotes = (orderId: string) => request<OrderCreditNote[]>(`/v1/orders/${encodeURIComponent(orderId)}/credit-notes`);

/** A fresh link to the credit note of one refund of the order (links last an hour). */
export async function creditNoteUrl(orderId: string, refundId: string): Promise<string> {
  const note = (await listCreditNotes(orderId)).find((candidate) => candidate.refund_id === refundId);
  if (!note) throw new Error(`no credit note for refund ${refundId}`);
  return note.url;
}
