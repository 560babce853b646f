import { useQueryClient } from "@tanstack/react-query";
import { organizationQueryKey, updateOrganization, type OrganizationUpdate } from "./settings-api";

/** Saves a change to the seller and shows the server's answer wherever the organization is read. */
export function useOrganizationChange(id: string) {
  const queryClient = useQueryClient();
  return async (update: OrganizationUpdate) => {
    const result = await updateOrganization(id, update);
    if (result.data) queryClient.setQueryData(organizationQueryKey(id), result);
    await queryClient.invalidateQueries({ queryKey: organizationQueryKey(id) });
    return result;
  };
}
