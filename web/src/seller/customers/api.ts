import { request, type Listing } from "../../api/client";
import type { Benefit, Customer, CustomerSession, CustomerState, Member, Meter, Product, RequestBody } from "../../api/wire";

export type { Customer, CustomerState, Member } from "../../api/wire";

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
