import { queryOptions, useQueryClient } from "@tanstack/react-query";
import { getOrganization, getTaxSettings, updateOrganization, updateTaxSettings, type OrganizationUpdate, type TaxSettingsUpdate } from "./settings-api";

/** The seller as billing keeps it (its settings, currency and subscription rules), apart from auth's organization. */
export const sellerKeys = {
  all: ["seller"] as const,
  organization: (id: string) => [...sellerKeys.all, "organization", id] as const,
  taxSettings: (id: string) => [...sellerKeys.all, "tax-settings", id] as const,
};

export const sellerOrganizationQuery = (id: string) => queryOptions({ queryKey: sellerKeys.organization(id), queryFn: () => getOrganization(id) });

export const taxSettingsQuery = (id: string) => queryOptions({ queryKey: sellerKeys.taxSettings(id), queryFn: () => getTaxSettings(id) });

/** Saves the seller's tax settings; the organization shows its country and default tax behaviour too, so it is read again. */
export function useTaxSettingsChange(id: string) {
  const queryClient = useQueryClient();
  return async (update: TaxSettingsUpdate) => {
    const changed = await updateTaxSettings(id, update);
    queryClient.setQueryData(sellerKeys.taxSettings(id), changed);
    await queryClient.invalidateQueries({ queryKey: sellerKeys.organization(id) });
    return changed;
  };
}

/** Saves a change to the seller and shows the server's answer wherever the organization is read. */
export function useOrganizationChange(id: string) {
  const queryClient = useQueryClient();
  return async (update: OrganizationUpdate) => {
    try {
      const changed = await updateOrganization(id, update);
      queryClient.setQueryData(sellerKeys.organization(id), changed);
      return changed;
    } finally {
      await queryClient.invalidateQueries({ queryKey: sellerKeys.organization(id) });
    }
  };
}
