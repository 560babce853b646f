import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";
import { useChange } from "../api/mutations";
import type { CustomerSeatClaimResponse, PortalPaymentProcessor, PurchasedOrder, PurchasedSubscription, RequestBody, SeatClaimInfo } from "../api/wire";
import { LIST_LIMIT, portalRequest, type Listing, type PortalAccess, type PortalOrganization } from "./api";

export const portalKeys = {
  all: ["customer-portal"] as const,
  seller: (slug: string) => [...portalKeys.all, slug] as const,
  /** Keyed by seller and token, so that another link never shows stale data. */
  read: (access: PortalAccess, path: string) => [...portalKeys.seller(access.seller.slug), access.token, path] as const,
  /** A seat's claim link, by its token: public, the token is the credential. */
  seatClaim: (token: string) => [...portalKeys.all, "seat-claim", token] as const,
};

/** The buyer's own purchases across sellers (`/v1/me/…`), as the signed-in person. */
export const purchaseKeys = {
  all: ["purchases"] as const,
  subscriptions: () => [...purchaseKeys.all, "subscriptions"] as const,
  orders: () => [...purchaseKeys.all, "orders"] as const,
};

/** The seller whose portal a link opens, public by its slug. */
export const portalSellerQuery = (slug: string) =>
  queryOptions({ queryKey: portalKeys.seller(slug), queryFn: () => request<PortalOrganization>(`/v1/customer-portal/organizations/${encodeURIComponent(slug)}`) });

/** How this Tollgate takes cards (the sandbox's fields, or Stripe.js with its publishable key): public, as a publishable key is. */
export const portalProcessorQuery = queryOptions({
  queryKey: [...portalKeys.all, "payment-processor"] as const,
  queryFn: () => request<PortalPaymentProcessor>("/v1/customer-portal/payment-processor"),
  staleTime: Infinity,
});

/** A portal read, as the customer whose session token the link carries. */
export const portalQuery = <T>(access: PortalAccess, path: string) => queryOptions({ queryKey: portalKeys.read(access, path), queryFn: () => portalRequest<T>(access, path) });

export const purchasedSubscriptionsQuery = queryOptions({ queryKey: purchaseKeys.subscriptions(), queryFn: () => request<Listing<PurchasedSubscription>>(`/v1/me/subscriptions/?limit=${LIST_LIMIT}`) });
export const purchasedOrdersQuery = queryOptions({ queryKey: purchaseKeys.orders(), queryFn: () => request<Listing<PurchasedOrder>>(`/v1/me/orders/?limit=${LIST_LIMIT}`) });

/** What a seat's claim link offers (the product, the seller, for whom): reading it claims nothing. */
export const seatClaimQuery = (token: string) =>
  queryOptions({ queryKey: portalKeys.seatClaim(token), queryFn: () => request<SeatClaimInfo>(`/v1/customer-seats/claim/${encodeURIComponent(token)}`), retry: false });

/** Claims the seat a link's token names: the seat, and a portal session for the member who now holds it. */
export const useClaimSeat = () =>
  useChange(
    (token: string) => request<CustomerSeatClaimResponse>("/v1/customer-seats/claim", { method: "POST", body: { invitation_token: token } satisfies RequestBody<"/v1/customer-seats/claim", "post"> }),
    (token) => [portalKeys.seatClaim(token)],
  );
