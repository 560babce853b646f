import { request, type Listing } from "../../api/client";
import type { AccessToken, AccessTokenCreated, RequestBody } from "../../api/wire";

export type { AccessToken } from "../../api/wire";

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
export type AccessTokenCreate = RequestBody<"/v1/organization-access-tokens/", "post">;
export type Scope = AccessTokenCreate["scopes"][number];
/** Whether `name` is one of the scopes the form offers, which are the API's (`resource:read`, `resource:write`). */
export const isScope = (name: string): name is Scope => SCOPE_RESOURCES.some(({ resource, access }) => access.some((kind) => `${resource}:${kind}` === name));

export const createAccessToken = (body: AccessTokenCreate) => request<AccessTokenCreated>("/v1/organization-access-tokens/", { method: "POST", body });

export const revokeAccessToken = (id: string) => request<null>(`/v1/organization-access-tokens/${id}`, { method: "DELETE" });
