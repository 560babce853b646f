import { type Listing, request } from "../../api/client";

/**
 * The resources an organization access token may reach, with the kinds of access Polar's scopes
 * give on each (`subscriptions:read`, `subscriptions:write`).
 */
export const SCOPE_RESOURCES: { resource: string; access: ("read" | "write")[] }[] = [
  ...["organizations", "products", "benefits", "custom_fields", "discounts", "checkout_links", "checkouts", "files", "customers", "subscriptions", "orders", "refunds", "license_keys", "meters", "events", "metrics", "webhooks", "customer_portal", "organization_access_tokens"].map((resource) => ({ resource, access: ["read", "write"] as ("read" | "write")[] })),
  { resource: "customer_meters", access: ["read"] },
  { resource: "payments", access: ["read"] },
  { resource: "customer_sessions", access: ["write"] },
];

/** What the console reads of a token (Polar's OrganizationAccessToken): never the token itself. */
export interface AccessToken {
  id: string;
  comment: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface AccessTokenQuery {
  organizationId: string;
  sorting: string;
  page: number;
  limit: number;
}

export function listAccessTokens({ organizationId, sorting, page, limit }: AccessTokenQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting, page: String(page), limit: String(limit) });
  return request<Listing<AccessToken>>(`/v1/organization-access-tokens/?${query.toString()}`);
}

/** Polar's OrganizationAccessTokenCreate: `expires_in` an ISO duration ("P30D"), none for a token that does not expire. */
export interface AccessTokenCreate {
  organization_id: string;
  comment: string;
  expires_in: string | null;
  scopes: string[];
}

export const createAccessToken = (body: AccessTokenCreate) => request<{ organization_access_token: AccessToken; token: string }>("/v1/organization-access-tokens/", { method: "POST", body });

export const revokeAccessToken = (id: string) => request<null>(`/v1/organization-access-tokens/${id}`, { method: "DELETE" });
