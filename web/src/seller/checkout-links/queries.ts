import { useChange } from "../../api/mutations";
import { createCheckoutLink, deleteCheckoutLink } from "./checkout-links-api";

export const checkoutLinkKeys = {
  all: ["checkout-links"] as const,
  list: (organizationId: string) => [...checkoutLinkKeys.all, "list", organizationId] as const,
};

export const useCreateCheckoutLink = () => useChange(createCheckoutLink, () => [checkoutLinkKeys.all]);
export const useDeleteCheckoutLink = () => useChange(deleteCheckoutLink, () => [checkoutLinkKeys.all]);
