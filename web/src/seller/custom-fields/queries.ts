import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField, type CustomFieldChange, type CustomFieldType } from "./custom-fields-api";

/** Every custom fields query sits under `all` (the product form's picker too), so a change refreshes each of them. */
export const customFieldKeys = {
  all: ["custom-fields"] as const,
  list: (organizationId: string, filter: { type: CustomFieldType | ""; search: string }) => [...customFieldKeys.all, "list", organizationId, filter] as const,
  detail: (id: string) => [...customFieldKeys.all, "detail", id] as const,
  bySlug: (organizationId: string) => [...customFieldKeys.all, "by-slug", organizationId] as const,
};

export const customFieldQuery = (id: string) => queryOptions({ queryKey: customFieldKeys.detail(id), queryFn: () => getCustomField(id) });

/** The first hundred of the seller's fields by slug: enough to name the answers an order holds. */
export const customFieldsBySlug = (organizationId: string) =>
  queryOptions({ queryKey: customFieldKeys.bySlug(organizationId), queryFn: () => listCustomFields(organizationId, { type: "", search: "" }, { sorting: "slug", page: 1, limit: 100 }) });

export const useCreateCustomField = () => useChange(({ organizationId, change }: { organizationId: string; change: CustomFieldChange }) => createCustomField(organizationId, change), () => [customFieldKeys.all]);
export const useUpdateCustomField = () => useChange(({ id, change }: { id: string; change: CustomFieldChange }) => updateCustomField(id, change), () => [customFieldKeys.all]);
export const useDeleteCustomField = () => useChange(deleteCustomField, () => [customFieldKeys.all]);
