import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import {
  addMember,
  askOrganizationLink,
  assignSeat,
  createCustomer,
  deleteCustomer,
  endOrganizationLink,
  getCustomerState,
  getOrganizationLink,
  listCustomerChoices,
  listMembers,
  listNames,
  listSeatHolders,
  listSeats,
  removeMember,
  resendSeat,
  revokeSeat,
  updateCustomer,
  updateMember,
  type CustomerFields,
  type NamedResource,
  type SeatHolder,
} from "./api";

/** Every customers query sits under `all`, so a change (or an order or refund that moves a customer's state) refreshes each of them. */
export const customerKeys = {
  all: ["customers"] as const,
  list: (organizationId: string, search: string) => [...customerKeys.all, "list", organizationId, search] as const,
  state: (id: string) => [...customerKeys.all, "state", id] as const,
  choices: (organizationId: string) => [...customerKeys.all, "choices", organizationId] as const,
  members: (id: string) => [...customerKeys.all, "members", id] as const,
  seatHolders: (id: string) => [...customerKeys.all, "seat-holders", id] as const,
  seats: (holder: SeatHolder) => [...customerKeys.all, "seats", holder.holds, holder.holderId] as const,
  organizationLink: (id: string) => [...customerKeys.all, "organization-link", id] as const,
};

export const customerStateQuery = (id: string) => queryOptions({ queryKey: customerKeys.state(id), queryFn: () => getCustomerState(id) });
export const membersQuery = (customerId: string) => queryOptions({ queryKey: customerKeys.members(customerId), queryFn: () => listMembers(customerId) });
export const seatHoldersQuery = (customerId: string) => queryOptions({ queryKey: customerKeys.seatHolders(customerId), queryFn: () => listSeatHolders(customerId) });
export const seatsQuery = (holder: SeatHolder) => queryOptions({ queryKey: customerKeys.seats(holder), queryFn: () => listSeats(holder) });
export const customerChoices = (organizationId: string) => queryOptions({ queryKey: customerKeys.choices(organizationId), queryFn: () => listCustomerChoices(organizationId) });

/** The names of the seller's products, benefits or meters, kept under that resource's own keys so that its changes refresh them. */
export const namesOf = (organizationId: string, resource: NamedResource) => queryOptions({ queryKey: [resource, "names", organizationId], queryFn: () => listNames(organizationId, resource) });

export const useCreateCustomer = () => useChange(({ organizationId, fields }: { organizationId: string; fields: CustomerFields }) => createCustomer(organizationId, fields), () => [customerKeys.all]);
export const useUpdateCustomer = () => useChange(({ id, change }: { id: string; change: Parameters<typeof updateCustomer>[1] }) => updateCustomer(id, change), () => [customerKeys.all]);
export const useDeleteCustomer = () => useChange(deleteCustomer, () => [customerKeys.all]);

// A team's members and seats change together (a member removed gives up their seat), and a refusal may mean the screen is out of date.
export const useAddMember = () => useChange(({ customerId, fields }: { customerId: string; fields: Parameters<typeof addMember>[1] }) => addMember(customerId, fields), () => [customerKeys.all], { evenIfRefused: true });
export const useUpdateMember = () =>
  useChange(({ customerId, memberId, change }: { customerId: string; memberId: string; change: Parameters<typeof updateMember>[2] }) => updateMember(customerId, memberId, change), () => [customerKeys.all], { evenIfRefused: true });
export const useRemoveMember = () => useChange(({ customerId, memberId }: { customerId: string; memberId: string }) => removeMember(customerId, memberId), () => [customerKeys.all], { evenIfRefused: true });
export const useAssignSeat = () => useChange(({ holder, email }: { holder: SeatHolder; email: string }) => assignSeat(holder, email), () => [customerKeys.all], { evenIfRefused: true });
export const useResendSeat = () => useChange(resendSeat, () => [customerKeys.all]);
export const useRevokeSeat = () => useChange(revokeSeat, () => [customerKeys.all], { evenIfRefused: true });

/** Not retried: a customer the seller never asked a link for answers 404, which is an answer. */
export const organizationLinkQuery = (customerId: string) => queryOptions({ queryKey: customerKeys.organizationLink(customerId), queryFn: () => getOrganizationLink(customerId), retry: false });
export const useAskOrganizationLink = () => useChange(askOrganizationLink, (customerId) => [customerKeys.organizationLink(customerId)]);
export const useEndOrganizationLink = () => useChange(endOrganizationLink, (customerId) => [customerKeys.organizationLink(customerId)]);
