import { request, type Listing } from "../../api/client";
import type { Discount, RequestBody } from "../../api/wire";
import type { PageRequest } from "../../ui/server-listing";

export type { Discount } from "../../api/wire";

export type Duration = Discount["duration"];

/** A discount as the form sends it (Polar's DiscountCreate); the caller adds the organization. */
export type DiscountChange = RequestBody<"/v1/discounts/", "post">;

export function listDiscounts(organizationId: string, search: string, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (search) query.set("query", search);
  return request<Listing<Discount>>(`/v1/discounts/?${query.toString()}`);
}

export const getDiscount = (id: string) => request<Discount>(`/v1/discounts/${id}`);
export const createDiscount = (organizationId: string, body: DiscountChange) => request<Discount>("/v1/discounts/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateDiscount = (id: string, body: RequestBody<"/v1/discounts/{id}", "patch">) => request<Discount>(`/v1/discounts/${id}`, { method: "PATCH", body });
export const deleteDiscount = (id: string) => request<null>(`/v1/discounts/${id}`, { method: "DELETE" });

/** What the discount pickers offer: the first hundred (Polar's largest page), by name. */
export const listDiscountChoices = (organizationId: string) =>
  request<Listing<Pick<Discount, "id" | "name" | "code">>>(`/v1/discounts/?${new URLSearchParams({ organization_id: organizationId, limit: "100", sorting: "name" }).toString()}`);
