import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";
import { useChange } from "../api/mutations";
import type { CustomerSeatClaimResponse, PortalPaymentProcessor, PurchasedOrder, PurchasedSubscription, RequestBody, SeatClaimInfo } from "../api/wire";
import { addMember, askOrganizationConsent, assignSeat, changeSeats, LIST_LIMIT, portalRequest, removeMember, resendSeat, revokeSeat, updateMember, type Listing, type PortalAccess, type PortalOrganization } from "./api";

export const portalKeys = {
  all: ["customer-portal"] as const,
  seller: (slug: string) => [...portalKeys.all, slug] as const,
  /** Everything one session reads: a team's change refreshes it all (a member removed gives up a seat, a seat change moves a subscription). */
  session: (access: PortalAccess) => [...portalKeys.seller(access.seller.slug), access.token] as const,
  /** Keyed by seller and token, so that another link never shows stale data. */
  read: (access: PortalAccess, path: string) => [...portalKeys.session(access), path] as const,
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

/** A change to the team of the customer signed in: refreshes what the session reads, even when refused (the screen may be out of date). */
const useTeamChange = <Input, Output>(access: PortalAccess, change: (input: Input) => Promise<Output>) => useChange(change, () => [portalKeys.session(access)], { evenIfRefused: true });

export const useAddMember = (access: PortalAccess) => useTeamChange(access, (body: Parameters<typeof addMember>[1]) => addMember(access, body));
export const useUpdateMember = (access: PortalAccess) => useTeamChange(access, ({ memberId, change }: { memberId: string; change: Parameters<typeof updateMember>[2] }) => updateMember(access, memberId, change));
export const useRemoveMember = (access: PortalAccess) => useTeamChange(access, (memberId: string) => removeMember(access, memberId));
export const useAssignSeat = (access: PortalAccess) => useTeamChange(access, (body: Parameters<typeof assignSeat>[1]) => assignSeat(access, body));
export const useResendSeat = (access: PortalAccess) => useTeamChange(access, (seatId: string) => resendSeat(access, seatId));
export const useRevokeSeat = (access: PortalAccess) => useTeamChange(access, (seatId: string) => revokeSeat(access, seatId));
export const useChangeSeats = (access: PortalAccess) => useTeamChange(access, ({ subscriptionId, seats }: { subscriptionId: string; seats: number }) => changeSeats(access, subscriptionId, seats));

/** The team's owner goes on to consent to an organization link: where the consent page is. */
export const useOrganizationConsent = (access: PortalAccess) =>
  useChange(() => askOrganizationConsent(access), () => [portalKeys.session(access)]);
