import { request, type RequestOptions } from "../api/client";
import type { CustomerOrder, CustomerOrganizationData as PortalOrganization, CustomerSubscription, PurchasedOrder, PurchasedSubscription } from "../api/wire";

export type { Listing } from "../api/client";
/** Screens ask for up to 100 at a time, the most a page of Polar's lists may hold. */
export const LIST_LIMIT = 100;

/** A subscription as the portal (CustomerSubscription) and the buyer's own list (`/v1/me/subscriptions/`, PurchasedSubscription) serve it. */
export type Subscription = CustomerSubscription | PurchasedSubscription;
/** An order as the portal (CustomerOrder) and the buyer's own list (`/v1/me/orders/`, PurchasedOrder) serve it. */
export type Order = CustomerOrder | PurchasedOrder;
export type SubscriptionStatus = Subscription["status"];
export type OrderStatus = Order["status"];

export type {
  Address,
  CustomerBenefitGrant as BenefitGrant,
  CustomerOrganizationData as PortalOrganization,
  CustomerPortalCustomer as PortalCustomer,
  Downloadable,
  LicenseKey,
} from "../api/wire";

/** One customer's way into one seller's portal: the seller, and the customer session token from the link. */
export interface PortalAccess {
  seller: PortalOrganization["organization"];
  token: string;
}

/** A portal call, as the customer whose session token it carries. */
export function portalRequest<T>(access: PortalAccess, path: string, options: Omit<RequestOptions, "headers"> = {}): Promise<T> {
  return request<T>(`/v1/customer-portal/${path}`, { ...options, headers: { authorization: `Bearer ${access.token}` } });
}

/** Where a tab keeps a seller's portal token once it is out of the address bar. */
const tokenKey = (slug: string) => `tollgate.customer-portal.${slug}`;
export const storedToken = (slug: string) => sessionStorage.getItem(tokenKey(slug));
export const storeToken = (slug: string, token: string) => sessionStorage.setItem(tokenKey(slug), token);
