import { type Listing, request } from "../../api/client";
import type { PageRequest } from "../../ui/server-listing";

export type Duration = "once" | "forever" | "repeating";

/** What the console reads of a discount (Polar's Discount, by type and duration). */
export type Discount = {
  id: string;
  name: string;
  code: string | null;
  starts_at: string | null;
  ends_at: string | null;
  max_redemptions: number | null;
  redemptions_count: number;
  created_at: string;
  products: { id: string; name: string }[];
} & ({ type: "percentage"; basis_points: number } | { type: "fixed"; amount: number; currency: string }) &
  ({ duration: "once" | "forever" } | { duration: "repeating"; duration_in_months: number });

/** A discount as the form sends it (Polar's DiscountCreate, and its update). */
export type DiscountChange = {
  name: string;
  code: string | null;
  starts_at: string | null;
  ends_at: string | null;
  max_redemptions: number | null;
  products: string[];
  duration: Duration;
  duration_in_months?: number;
} & ({ type: "percentage"; basis_points: number } | { type: "fixed"; amount: number; currency: string });

export function listDiscounts(organizationId: string, search: string, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (search) query.set("query", search);
  return request<Listing<Discount>>(`/v1/discounts/?${query.toString()}`);
}

export const getDiscount = (id: string) => request<Discount>(`/v1/discounts/${id}`);
export const createDiscount = (organizationId: string, body: DiscountChange) => request<Discount>("/v1/discounts/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateDiscount = (id: string, body: DiscountChange) => request<Discount>(`/v1/discounts/${id}`, { method: "PATCH", body });
export const deleteDiscount = (id: string) => request<null>(`/v1/discounts/${id}`, { method: "DELETE" });
