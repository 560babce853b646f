import { request, type Listing } from "../../api/client";
import type { CustomField, RequestBody } from "../../api/wire";
import type { PageRequest } from "../../ui/server-listing";

export type { CustomField } from "../../api/wire";

export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "checkbox", "select"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** What every type shows on the checkout form, and each type's own limits (Polar's CustomField*Properties). */
export type CustomFieldProperties = CustomField["properties"];

/** A field as the form sends it (Polar's CustomFieldCreate, by type); the caller adds the organization. */
export type CustomFieldChange = RequestBody<"/v1/custom-fields/", "post">;

export function listCustomFields(organizationId: string, filter: { type: CustomFieldType | ""; search: string }, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (filter.type) query.set("type", filter.type);
  if (filter.search) query.set("query", filter.search);
  return request<Listing<CustomField>>(`/v1/custom-fields/?${query.toString()}`);
}

export const getCustomField = (id: string) => request<CustomField>(`/v1/custom-fields/${id}`);
export const createCustomField = (organizationId: string, body: CustomFieldChange) => request<CustomField>("/v1/custom-fields/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateCustomField = (id: string, body: CustomFieldChange) => request<CustomField>(`/v1/custom-fields/${id}`, { method: "PATCH", body });
export const deleteCustomField = (id: string) => request<null>(`/v1/custom-fields/${id}`, { method: "DELETE" });
