import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createCheckoutLink, deleteCheckoutLink, getCheckoutLink, updateCheckoutLink, type CheckoutLinkUpdate } from "./checkout-links-api";

export const checkoutLinkKeys = {
  all: ["checkout-links"] as const,
  list: (organizationId: string) => [...checkoutLinkKeys.all, "list", organizationId] as const,
  detail: (id: string) => [...checkoutLinkKeys.all, "detail", id] as const,
};

export const checkoutLinkQuery = (id: string) => queryOptions({ queryKey: checkoutLinkKeys.detail(id), queryFn: () => getCheckoutLink(id) });

export const useCreateCheckoutLink = () => useChange(createCheckoutLink, () => [checkoutLinkKeys.all]);
export const useUpdateCheckoutLink = () => useChange(({ id, change }: { id: string; change: CheckoutLinkUpdate }) => updateCheckoutLink(id, change), () => [checkoutLinkKeys.all]);
export const useDeleteCheckoutLink = () => useChange(deleteCheckoutLink, () => [checkoutLinkKeys.all]);
