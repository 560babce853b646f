import { failureOf, request, type Listing } from "../../api/client";
import type { Benefit, Customer, CustomerSeat, CustomerSession, CustomerState, Member, Meter, OrganizationLink, Order, Product, RequestBody, SeatsList, Subscription } from "../../api/wire";

export type { Customer, CustomerSeat, CustomerState, Member, OrganizationLink, SeatsList } from "../../api/wire";

export interface CustomerQuery {
  organizationId: string;
  /** Part of the e-mail, name or external id. */
  search: string;
  sorting: string;
  page: number;
  limit: number;
}

/** One page of the seller's customers, searched, sorted and paged by the server. */
export function listCustomers({ organizationId, search, sorting, page, limit }: CustomerQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting, page: String(page), limit: String(limit) });
  if (search) query.set("query", search);
  return request<Listing<Customer>>(`/v1/customers/?${query.toString()}`);
}

export const getCustomer = (id: string) => request<Customer>(`/v1/customers/${id}`);
export const getCustomerState = (id: string) => request<CustomerState>(`/v1/customers/${id}/state`);

/** A customer as the form sends it (Polar's CustomerCreate); the caller adds the organization. */
export type CustomerFields = RequestBody<"/v1/customers/", "post">;

export const createCustomer = (organizationId: string, body: CustomerFields) => request<Customer>("/v1/customers/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateCustomer = (id: string, body: RequestBody<"/v1/customers/{id}", "patch">) => request<Customer>(`/v1/customers/${id}`, { method: "PATCH", body });
export const deleteCustomer = (id: string) => request<null>(`/v1/customers/${id}`, { method: "DELETE" });

/** A customer session: its `customer_portal_url` opens the portal as the customer. */
export const openCustomerSession = (customerId: string) => request<CustomerSession>("/v1/customer-sessions/", { method: "POST", body: { customer_id: customerId } satisfies RequestBody<"/v1/customer-sessions/", "post"> });

/** What the customer filters offer: the first hundred (Polar's largest page), by email. */
export const listCustomerChoices = (organizationId: string) =>
  request<Listing<Pick<Customer, "id" | "name" | "email">>>(`/v1/customers/?${new URLSearchParams({ organization_id: organizationId, limit: "100", sorting: "email" }).toString()}`);

/** What a customer's state names only by id. */
export type NamedResource = "products" | "benefits" | "meters";

/** The first hundred of the seller's products, benefits or meters, for their names. */
export const listNames = (organizationId: string, resource: NamedResource) => request<Listing<Product | Benefit | Meter>>(`/v1/${resource}/?organization_id=${organizationId}&limit=100`);

/** A team customer's members: the first hundred, which a team is not expected to outgrow. */
export const listMembers = (customerId: string) => request<Listing<Member>>(`/v1/members/?${new URLSearchParams({ customer_id: customerId, limit: "100" }).toString()}`);
export const addMember = (customerId: string, body: RequestBody<"/v1/customers/{id}/members", "post">) => request<Member>(`/v1/customers/${customerId}/members`, { method: "POST", body });
export const updateMember = (customerId: string, memberId: string, body: RequestBody<"/v1/customers/{id}/members/{memberId}", "patch">) =>
  request<Member>(`/v1/customers/${customerId}/members/${memberId}`, { method: "PATCH", body });
export const removeMember = (customerId: string, memberId: string) => request<null>(`/v1/customers/${customerId}/members/${memberId}`, { method: "DELETE" });

/** What holds seats: a seat-based subscription, or a one-time order of a seat-based price. */
export interface SeatHolder {
  holds: "subscription" | "order";
  holderId: string;
  productName: string;
}

/** The customer's running subscriptions and one-time orders that hold seats (the first hundred of each). */
export async function listSeatHolders(customerId: string): Promise<SeatHolder[]> {
  const query = new URLSearchParams({ customer_id: customerId, limit: "100" }).toString();
  const [subscriptions, orders] = await Promise.all([request<Listing<Subscription>>(`/v1/subscriptions/?${query}`), request<Listing<Order>>(`/v1/orders/?${query}`)]);
  return [
    ...subscriptions.items.flatMap((subscription): SeatHolder[] => (subscription.seats && !subscription.ended_at ? [{ holds: "subscription", holderId: subscription.id, productName: subscription.product.name }] : [])),
    // A subscription's orders carry its seats too: only orders of their own hold seats.
    ...orders.items.flatMap((order): SeatHolder[] => (order.seats && !order.subscription_id ? [{ holds: "order", holderId: order.id, productName: order.product?.name ?? order.description }] : [])),
  ];
}

const holderField = ({ holds, holderId }: SeatHolder): { subscription_id: string } | { order_id: string } => (holds === "subscription" ? { subscription_id: holderId } : { order_id: holderId });

export const listSeats = (holder: SeatHolder) => request<SeatsList>(`/v1/customer-seats?${new URLSearchParams(holderField(holder)).toString()}`);
export const assignSeat = (holder: SeatHolder, email: string) =>
  request<CustomerSeat>("/v1/customer-seats", { method: "POST", body: { ...holderField(holder), email, immediate_claim: false } satisfies RequestBody<"/v1/customer-seats", "post"> });
export const resendSeat = (seatId: string) => request<CustomerSeat>(`/v1/customer-seats/${seatId}/resend`, { method: "POST" });
export const revokeSeat = (seatId: string) => request<CustomerSeat>(`/v1/customer-seats/${seatId}`, { method: "DELETE" });

// A team's seats following one of the buyer's Tollgate organizations (Tollgate's own): the seller asks, the team's owner consents in the portal.
/** The link, or null when the seller never offered one (404). */
export async function getOrganizationLink(customerId: string): Promise<OrganizationLink | null> {
  try {
    return await request<OrganizationLink>(`/v1/customers/${customerId}/organization-link`);
  } catch (reason) {
    if (failureOf(reason).status === 404) return null;
    throw reason;
  }
}
export const askOrganizationLink = (customerId: string) => request<OrganizationLink>(`/v1/customers/${customerId}/organization-link`, { method: "POST" });
export const endOrganizationLink = (customerId: string) => request<null>(`/v1/customers/${customerId}/organization-link`, { method: "DELETE" });
