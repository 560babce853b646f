import { useQueryClient } from "@tanstack/react-query";
import { organizationQueryKey, updateOrganization, type OrganizationUpdate } from "./settings-api";

/** Saves a change to the seller and shows the server's answer wherever the organization is read. */
export function useOrganizationChange(id: string) {
  const queryClient = useQueryClient();
  return async (update: OrganizationUpdate) => {
    try {
      const changed = await updateOrganization(id, update);
      queryClient.setQueryData(organizationQueryKey(id), changed);
      return changed;
    } finally {
      await queryClient.invalidateQueries({ queryKey: organizationQueryKey(id) });
    }
  };
}
