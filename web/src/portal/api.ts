import { request, type RequestOptions } from "../api/client";

export type { Listing } from "../api/client";
/** Screens ask for up to 100 at a time, the most a page of Polar's lists may hold. */
export const LIST_LIMIT = 100;

export type SubscriptionStatus = "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid";
export type OrderStatus = "pending" | "paid" | "refunded" | "partially_refunded" | "void";

/** What the screens show of Polar's subscription (the portal's and `/v1/me/subscriptions/`). */
export interface Subscription {
  id: string;
  status: SubscriptionStatus;
  amount: number;
  currency: string;
  recurring_interval: "day" | "week" | "month" | "year";
  recurring_interval_count: number;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  ends_at: string | null;
  ended_at: string | null;
  product: { name: string };
}

/** What the screens show of Polar's order. */
export interface Order {
  id: string;
  created_at: string;
  status: OrderStatus;
  total_amount: number;
  currency: string;
  invoice_number: string | null;
  description: string;
  product: { name: string } | null;
}

/** The seller, as the portal shows it before anyone opens it (Polar's CustomerOrganizationData). */
export interface PortalOrganization {
  organization: { name: string; slug: string; avatar_url: string | null; allow_customer_updates: boolean };
}

export interface Address {
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
  country: string;
}

export interface PortalCustomer {
  email: string;
  /** The language the seller chose for this customer (Polar's `locale`), if any. */
  locale?: string | null;
  name: string | null;
  billing_name: string | null;
  billing_address: Address | null;
  tax_id: [string, string | null] | null;
}

export interface BenefitGrant {
  id: string;
  benefit_id: string;
  is_granted: boolean;
  is_revoked: boolean;
  error: { message: string; type: string } | null;
  properties: { license_key_id?: string };
  benefit: { type: string; description: string; properties: { note?: string | null } };
}

export interface LicenseKey {
  id: string;
  key: string;
  status: "granted" | "revoked" | "disabled";
  benefit_id: string;
  expires_at: string | null;
  limit_activations: number | null;
}

export interface Downloadable {
  id: string;
  benefit_id: string;
  file: { name: string; size_readable: string; download: { url: string } };
}

/** One customer's way into one seller's portal: the seller, and the customer session token from the link. */
export interface PortalAccess {
  seller: PortalOrganization["organization"];
  token: string;
}

/** A portal call, as the customer whose session token it carries. */
export function portalRequest<T>(access: PortalAccess, path: string, options: Omit<RequestOptions, "headers"> = {}): Promise<T> {
  return request<T>(`/v1/customer-portal/${path}`, { ...options, headers: { authorization: `Bearer ${access.token}` } });
}

/** A portal read for TanStack Query, keyed by seller and token so another link never shows stale data. */
export const portalQuery = <T>(access: PortalAccess, path: string) => ({
  queryKey: ["customer-portal", access.seller.slug, access.token, path],
  queryFn: () => portalRequest<T>(access, path),
});

/** Where a tab keeps a seller's portal token once it is out of the address bar. */
const tokenKey = (slug: string) => `tollgate.customer-portal.${slug}`;
export const storedToken = (slug: string) => sessionStorage.getItem(tokenKey(slug));
export const storeToken = (slug: string, token: string) => sessionStorage.setItem(tokenKey(slug), token);
