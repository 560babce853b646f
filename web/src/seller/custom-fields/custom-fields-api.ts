import { type Listing, request } from "../../api/client";
import type { PageRequest } from "../../ui/server-listing";

export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "checkbox", "select"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** What every type shows on the checkout form, and each type's own limits (Polar's CustomField*Properties). */
export interface CustomFieldProperties {
  form_label?: string;
  form_help_text?: string;
  form_placeholder?: string;
  textarea?: boolean;
  min_length?: number;
  max_length?: number;
  /** For numbers the bounds; for dates Unix seconds. */
  ge?: number;
  le?: number;
  options?: { value: string; label: string }[];
}

/** What the console reads of a custom field (Polar's CustomField). */
export interface CustomField {
  id: string;
  type: CustomFieldType;
  slug: string;
  name: string;
  created_at: string;
  properties: CustomFieldProperties;
}

export interface CustomFieldChange {
  type: CustomFieldType;
  slug: string;
  name: string;
  properties: CustomFieldProperties;
}

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
