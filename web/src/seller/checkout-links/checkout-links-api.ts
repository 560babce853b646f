import { type Listing, request } from "../../api/client";
import type { PageRequest } from "../../ui/server-listing";

/** What the console reads of a checkout link (Polar's CheckoutLink). */
export interface CheckoutLink {
  id: string;
  label: string | null;
  url: string;
  success_url: string | null;
  allow_discount_codes: boolean;
  created_at: string;
  products: { id: string; name: string }[];
  discount: { id: string; name: string } | null;
}

/** A new link as the form sends it (Polar's CheckoutLinkCreateProducts). */
export interface CheckoutLinkCreate {
  products: string[];
  label: string | null;
  discount_id: string | null;
  success_url: string | null;
  allow_discount_codes: boolean;
}

export function listCheckoutLinks(organizationId: string, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  return request<Listing<CheckoutLink>>(`/v1/checkout-links/?${query.toString()}`);
}

export const createCheckoutLink = (body: CheckoutLinkCreate) => request<CheckoutLink>("/v1/checkout-links/", { method: "POST", body: { ...body, payment_processor: "stripe" } });
export const deleteCheckoutLink = (id: string) => request<null>(`/v1/checkout-links/${id}`, { method: "DELETE" });
