import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createCustomer, deleteCustomer, getCustomerState, listCustomerChoices, listNames, updateCustomer, type CustomerFields, type NamedResource } from "./api";

/** Every customers query sits under `all`, so a change (or an order or refund that moves a customer's state) refreshes each of them. */
export const customerKeys = {
  all: ["customers"] as const,
  list: (organizationId: string, search: string) => [...customerKeys.all, "list", organizationId, search] as const,
  state: (id: string) => [...customerKeys.all, "state", id] as const,
  choices: (organizationId: string) => [...customerKeys.all, "choices", organizationId] as const,
};

export const customerStateQuery = (id: string) => queryOptions({ queryKey: customerKeys.state(id), queryFn: () => getCustomerState(id) });
export const customerChoices = (organizationId: string) => queryOptions({ queryKey: customerKeys.choices(organizationId), queryFn: () => listCustomerChoices(organizationId) });

/** The names of the seller's products, benefits or meters, kept under that resource's own keys so that its changes refresh them. */
export const namesOf = (organizationId: string, resource: NamedResource) => queryOptions({ queryKey: [resource, "names", organizationId], queryFn: () => listNames(organizationId, resource) });

export const useCreateCustomer = () => useChange(({ organizationId, fields }: { organizationId: string; fields: CustomerFields }) => createCustomer(organizationId, fields), () => [customerKeys.all]);
export const useUpdateCustomer = () => useChange(({ id, change }: { id: string; change: Parameters<typeof updateCustomer>[1] }) => updateCustomer(id, change), () => [customerKeys.all]);
export const useDeleteCustomer = () => useChange(deleteCustomer, () => [customerKeys.all]);
