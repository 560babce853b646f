import { request, type Listing } from "../../api/client";
import type { RequestBody, Subscription } from "../../api/wire";

export type { Subscription } from "../../api/wire";

export type SubscriptionStatus = Subscription["status"];

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

export type ProrationBehavior = NonNullable<Extract<SubscriptionUpdate, { proration_behavior?: unknown }>["proration_behavior"]>;
/** Polar's SubscriptionUpdate: one kind of change per call. */
export type SubscriptionUpdate = RequestBody<"/v1/subscriptions/{id}", "patch">;

export const updateSubscription = (id: string, body: SubscriptionUpdate) => request<Subscription>(`/v1/subscriptions/${id}`, { method: "PATCH", body });

/** Ends the subscription at once, without waiting for the period's end. */
export const revokeSubscription = (id: string) => request<Subscription>(`/v1/subscriptions/${id}`, { method: "DELETE" });
