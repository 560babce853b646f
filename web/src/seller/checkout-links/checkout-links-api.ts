import { request, type Listing } from "../../api/client";
import type { CheckoutLink, RequestBody } from "../../api/wire";
import type { PageRequest } from "../../ui/server-listing";

export type { CheckoutLink } from "../../api/wire";

/** A new link as the form sends it (Polar's CheckoutLinkCreateProducts); the processor is the API's to add. */
export type CheckoutLinkCreate = Omit<RequestBody<"/v1/checkout-links/", "post">, "payment_processor">;

export function listCheckoutLinks(organizationId: string, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  return request<Listing<CheckoutLink>>(`/v1/checkout-links/?${query.toString()}`);
}

export const createCheckoutLink = (body: CheckoutLinkCreate) => request<CheckoutLink>("/v1/checkout-links/", { method: "POST", body: { ...body, payment_processor: "stripe" } });
/** A change to a link (Polar's CheckoutLinkUpdate): what it sells and how its checkouts start. */
export type CheckoutLinkUpdate = RequestBody<"/v1/checkout-links/{id}", "patch">;

export const getCheckoutLink = (id: string) => request<CheckoutLink>(`/v1/checkout-links/${id}`);
export const updateCheckoutLink = (id: string, body: CheckoutLinkUpdate) => request<CheckoutLink>(`/v1/checkout-links/${id}`, { method: "PATCH", body });
export const deleteCheckoutLink = (id: string) => request<null>(`/v1/checkout-links/${id}`, { method: "DELETE" });
