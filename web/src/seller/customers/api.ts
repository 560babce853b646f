import { type Listing, request } from "../../api/client";
import type { Address } from "../../portal/api";

/** What the console reads of a customer (Polar's Customer). */
export interface Customer {
  id: string;
  created_at: string;
  email: string;
  name: string | null;
  external_id: string | null;
  billing_address: Address | null;
  metadata: Record<string, string | number | boolean>;
}

/** What a customer has now (Polar's CustomerState). */
export interface CustomerState extends Customer {
  active_subscriptions: { id: string; status: "active" | "trialing"; amount: number; currency: string; recurring_interval: "day" | "week" | "month" | "year"; current_period_end: string | null; cancel_at_period_end: boolean; product_id: string }[];
  granted_benefits: { id: string; benefit_id: string; benefit_type: string; granted_at: string }[];
  active_meters: { id: string; meter_id: string; consumed_units: number; credited_units: number; balance: number }[];
}

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

/** A customer as the form sends it (Polar's CustomerCreate and CustomerUpdate). */
export interface CustomerFields {
  email: string;
  name: string | null;
  /** Left out of a change when the customer already has one: it cannot change. */
  external_id?: string | null;
  billing_address: Address | null;
  metadata: Record<string, unknown>;
}

export const createCustomer = (organizationId: string, body: CustomerFields) => request<Customer>("/v1/customers/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateCustomer = (id: string, body: CustomerFields) => request<Customer>(`/v1/customers/${id}`, { method: "PATCH", body });
export const deleteCustomer = (id: string) => request<null>(`/v1/customers/${id}`, { method: "DELETE" });

/** A customer session: its `customer_portal_url` opens the portal as the customer. */
export const openCustomerSession = (customerId: string) => request<{ customer_portal_url: string }>("/v1/customer-sessions/", { method: "POST", body: { customer_id: customerId } });
