import { ApiFailure, failureOf, request, type RequestOptions } from "../api/client";
import type {
  CustomerOrder,
  CustomerOrganizationData as PortalOrganization,
  CustomerPaymentMethodCreateResponse,
  CustomerPortalCustomer as PortalCustomer,
  CustomerPortalMember,
  CustomerSeat,
  CustomerSessionCodeAuthenticateResponse,
  CustomerSubscription,
  OrganizationLinkConsent,
  PurchasedOrder,
  PurchasedSubscription,
  RequestBody,
} from "../api/wire";

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
  CustomerPortalMember as PortalMember,
  CustomerSeat,
  Downloadable,
  LicenseKey,
  PortalAuthenticatedUser as PortalUser,
  SeatsList,
} from "../api/wire";

/** One customer's way into one seller's portal: the seller, and the customer session token from the link. */
export interface PortalAccess {
  seller: PortalOrganization["organization"];
  token: string;
}

/**
 * A portal call, as the customer whose session token it carries. A token refused (401) is a session
 * that ran out: it is forgotten at once, for every tab, which then asks the customer to sign in again.
 */
export async function portalRequest<T>(access: PortalAccess, path: string, options: Omit<RequestOptions, "headers"> = {}): Promise<T> {
  try {
    return await request<T>(`/v1/customer-portal/${path}`, { ...options, headers: { authorization: `Bearer ${access.token}` } });
  } catch (reason) {
    if (failureOf(reason).status === 401 && storedToken(access.seller.slug) === access.token) endSession(access.seller.slug);
    throw reason;
  }
}

/**
 * Where the browser keeps a seller's portal token once it is out of the address bar: in local
 * storage, so every tab of the portal is signed in (and out) together, until the session ends.
 */
const tokenKey = (slug: string) => `tollgate.customer-portal.${slug}`;
/** Marks that a seller's portal session ran out, rather than being signed out of or never opened. */
const endedKey = (slug: string) => `tollgate.customer-portal.${slug}.ended`;
/** Tells this tab's readers of a token that it changed (other tabs hear the browser's own storage event). */
const TOKEN_CHANGED = "tollgate:customer-portal-token";
export const storedToken = (slug: string) => localStorage.getItem(tokenKey(slug));
/** Whether the last session in this seller's portal ran out (and nobody has signed in since). */
export const sessionHasEnded = (slug: string) => localStorage.getItem(endedKey(slug)) !== null;
/** Keeps a new token, or forgets the token on signing out. */
export function storeToken(slug: string, token: string | null): void {
  if (token) localStorage.setItem(tokenKey(slug), token);
  else localStorage.removeItem(tokenKey(slug));
  localStorage.removeItem(endedKey(slug));
  window.dispatchEvent(new Event(TOKEN_CHANGED));
}
function endSession(slug: string): void {
  localStorage.removeItem(tokenKey(slug));
  localStorage.setItem(endedKey(slug), "");
  window.dispatchEvent(new Event(TOKEN_CHANGED));
}
/** Calls `changed` whenever a portal token changes, in this tab or another; the way to stop. */
export function onTokenChange(changed: () => void): () => void {
  window.addEventListener("storage", changed);
  window.addEventListener(TOKEN_CHANGED, changed);
  return () => {
    window.removeEventListener("storage", changed);
    window.removeEventListener(TOKEN_CHANGED, changed);
  };
}

/** Mails a sign-in code to the customer who bought from the seller with `email` (answered alike when nobody did). */
export const requestPortalCode = (seller: PortalAccess["seller"], email: string, customerId: string | null = null) =>
  request<void>("/v1/customer-portal/customer-session/request", {
    method: "POST",
    body: { email, organization_id: seller.id, customer_id: customerId } satisfies RequestBody<"/v1/customer-portal/customer-session/request", "post">,
  });

/** A customer an address signs in as, offered when it signs in as several (a member of two teams): Polar's 409. */
export interface CustomerChoice {
  id: string;
  name: string | null;
}

/** The customers to choose from, when a code request was refused for naming several; null for any other failure. */
export function customerChoicesIn(reason: unknown): CustomerChoice[] | null {
  if (!(reason instanceof ApiFailure) || reason.failure.status !== 409) return null;
  const body = reason.failure.body as { customers?: unknown } | null;
  return Array.isArray(body?.customers) ? (body.customers as CustomerChoice[]) : null;
}

/** Exchanges a mailed code for a customer session token. */
export const portalTokenFor = async (code: string) =>
  (await request<CustomerSessionCodeAuthenticateResponse>("/v1/customer-portal/customer-session/authenticate", { method: "POST", body: { code } satisfies RequestBody<"/v1/customer-portal/customer-session/authenticate", "post"> })).token;

export type { PaymentMethodCard as Card } from "../api/wire";
export const CARDS = `customers/me/payment-methods?limit=${LIST_LIMIT}`;

/**
 * Keeps a card given as a confirmation token, made the default when `setDefault`. The bank may want
 * the customer first (Stripe's 3-D Secure): `checkWithBank` takes them through it, then the setup is confirmed.
 */
export async function keepCard(access: PortalAccess, confirmationTokenId: string, setDefault: boolean, checkWithBank: (clientSecret: string) => Promise<void>): Promise<void> {
  const kept = await portalRequest<CustomerPaymentMethodCreateResponse>(access, "customers/me/payment-methods", {
    method: "POST",
    body: { confirmation_token_id: confirmationTokenId, set_default: setDefault, return_url: window.location.href } satisfies RequestBody<"/v1/customer-portal/customers/me/payment-methods", "post">,
  });
  if (kept.status === "succeeded") return;
  await checkWithBank(kept.client_secret);
  await portalRequest<CustomerPaymentMethodCreateResponse>(access, "customers/me/payment-methods/confirm", {
    method: "POST",
    body: { setup_intent_id: kept.client_secret.split("_secret_")[0] ?? "", set_default: setDefault } satisfies RequestBody<"/v1/customer-portal/customers/me/payment-methods/confirm", "post">,
  });
}

/** Makes one of the customer's cards the one charged from now on. */
export const makeDefaultCard = (access: PortalAccess, cardId: string) =>
  portalRequest<PortalCustomer>(access, "customers/me", { method: "PATCH", body: { default_payment_method_id: cardId } satisfies RequestBody<"/v1/customer-portal/customers/me", "patch"> });

export const forgetCard = (access: PortalAccess, cardId: string) => portalRequest<void>(access, `customers/me/payment-methods/${encodeURIComponent(cardId)}`, { method: "DELETE" });

/** The customer's subscriptions and orders, as the portal reads them (one read each, which several sections share). */
export const SUBSCRIPTIONS = `subscriptions/?limit=${LIST_LIMIT}`;
export const ORDERS = `orders/?limit=${LIST_LIMIT}`;

/** Who signed in: the customer, or one member of a team customer, with their role. */
export const PORTAL_USER = "customer-session/user";
/** The team's members, which only its owner and billing managers may see (the first hundred). */
export const MEMBERS = `members?limit=${LIST_LIMIT}`;
/** The seats a subscription or an order holds. */
export const seatsOf = (holder: { subscription_id: string } | { order_id: string }) => `seats?${new URLSearchParams(holder).toString()}`;

export const addMember = (access: PortalAccess, body: RequestBody<"/v1/customer-portal/members", "post">) => portalRequest<CustomerPortalMember>(access, "members", { method: "POST", body });
export const updateMember = (access: PortalAccess, memberId: string, body: RequestBody<"/v1/customer-portal/members/{id}", "patch">) =>
  portalRequest<CustomerPortalMember>(access, `members/${encodeURIComponent(memberId)}`, { method: "PATCH", body });
export const removeMember = (access: PortalAccess, memberId: string) => portalRequest<void>(access, `members/${encodeURIComponent(memberId)}`, { method: "DELETE" });

export const assignSeat = (access: PortalAccess, body: RequestBody<"/v1/customer-portal/seats", "post">) => portalRequest<CustomerSeat>(access, "seats", { method: "POST", body });
export const resendSeat = (access: PortalAccess, seatId: string) => portalRequest<CustomerSeat>(access, `seats/${encodeURIComponent(seatId)}/resend`, { method: "POST" });
export const revokeSeat = (access: PortalAccess, seatId: string) => portalRequest<CustomerSeat>(access, `seats/${encodeURIComponent(seatId)}`, { method: "DELETE" });

/** Changes how many seats a subscription holds, where the seller lets customers do so. */
export const changeSeats = (access: PortalAccess, subscriptionId: string, seats: number) =>
  portalRequest<Subscription>(access, `subscriptions/${encodeURIComponent(subscriptionId)}`, { method: "PATCH", body: { seats } satisfies RequestBody<"/v1/customer-portal/subscriptions/{id}", "patch"> });

/** A short-lived link to the page where the team's owner, signed in to Tollgate, picks the organization whose members get the seats. */
export const askOrganizationConsent = (access: PortalAccess) => portalRequest<OrganizationLinkConsent>(access, "organization-link/consent", { method: "POST" });
