import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createDiscount, deleteDiscount, getDiscount, listDiscountChoices, updateDiscount, type DiscountChange } from "./discounts-api";

/** Every discounts query sits under `all` (the pickers too), so a change refreshes each of them. */
export const discountKeys = {
  all: ["discounts"] as const,
  list: (organizationId: string, search: string) => [...discountKeys.all, "list", organizationId, search] as const,
  detail: (id: string) => [...discountKeys.all, "detail", id] as const,
  choices: (organizationId: string) => [...discountKeys.all, "choices", organizationId] as const,
};

export const discountQuery = (id: string) => queryOptions({ queryKey: discountKeys.detail(id), queryFn: () => getDiscount(id) });
export const discountChoices = (organizationId: string) => queryOptions({ queryKey: discountKeys.choices(organizationId), queryFn: () => listDiscountChoices(organizationId) });

export const useCreateDiscount = () => useChange(({ organizationId, change }: { organizationId: string; change: DiscountChange }) => createDiscount(organizationId, change), () => [discountKeys.all]);
export const useUpdateDiscount = () => useChange(({ id, change }: { id: string; change: Parameters<typeof updateDiscount>[1] }) => updateDiscount(id, change), () => [discountKeys.all]);
export const useDeleteDiscount = () => useChange(deleteDiscount, () => [discountKeys.all]);
