import { type Listing, request } from "../../api/client";
import type { Interval } from "../products/products-api";

export type SubscriptionStatus = "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid";

/** What the console reads of a subscription (Polar's Subscription). */
export interface Subscription {
  id: string;
  status: SubscriptionStatus;
  amount: number;
  currency: string;
  recurring_interval: Interval;
  recurring_interval_count: number;
  current_period_start: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  started_at: string | null;
  ends_at: string | null;
  ended_at: string | null;
  customer: { id: string; email: string; name: string | null };
  product: { id: string; name: string };
  discount: { id: string; name: string; code: string | null } | null;
}

/** Which subscriptions the list shows: Polar's `active` and `cancel_at_period_end` filters, in the seller's words. */
export const STANDINGS = ["all", "active", "ending", "ended"] as const;
export type Standing = (typeof STANDINGS)[number];

const standingFilter: Record<Standing, Record<string, string>> = {
  all: {},
  active: { active: "true" },
  ending: { active: "true", cancel_at_period_end: "true" },
  ended: { active: "false" },
};

export interface SubscriptionQuery {
  organizationId: string;
  productId: string;
  customerId: string;
  standing: Standing;
  /** Polar's sorting: a field, with a minus for descending. */
  sorting: string;
  /** From 1, as Polar counts. */
  page: number;
  limit: number;
}

/** One page of the seller's subscriptions, filtered, sorted and paged by the server. */
export function listSubscriptions({ organizationId, productId, customerId, standing, sorting, page, limit }: SubscriptionQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting, page: String(page), limit: String(limit), ...standingFilter[standing] });
  if (productId) query.set("product_id", productId);
  if (customerId) query.set("customer_id", customerId);
  return request<Listing<Subscription>>(`/v1/subscriptions/?${query.toString()}`);
}

export const getSubscription = (id: string) => request<Subscription>(`/v1/subscriptions/${id}`);

export type ProrationBehavior = "invoice" | "prorate";

/** Polar's SubscriptionUpdate: one kind of change per call. */
export type SubscriptionUpdate = { cancel_at_period_end: boolean } | { product_id: string; proration_behavior: ProrationBehavior } | { discount_id: string | null };

export const updateSubscription = (id: string, body: SubscriptionUpdate) => request<Subscription>(`/v1/subscriptions/${id}`, { method: "PATCH", body });

/** Ends the subscription at once, without waiting for the period's end. */
export const revokeSubscription = (id: string) => request<Subscription>(`/v1/subscriptions/${id}`, { method: "DELETE" });

/** What the filters and the discount picker offer: the first hundred, by name. */
const CHOICES = 100;

export interface Choice {
  id: string;
  name: string | null;
}

export const listCustomerChoices = (organizationId: string) =>
  request<Listing<Choice & { email: string }>>(`/v1/customers/?organization_id=${organizationId}&limit=${CHOICES}&sorting=email`);

export const listDiscountChoices = (organizationId: string) => request<Listing<Choice & { code: string | null }>>(`/v1/discounts/?organization_id=${organizationId}&limit=${CHOICES}&sorting=name`);
