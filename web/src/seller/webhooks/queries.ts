import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, redeliver, rotateSecret, sendTestEvent, updateEndpoint, type EndpointChange } from "./webhooks-api";

type Page = { page: number; limit: number };

/** An endpoint's page and the list both sit under `all`; a deleted endpoint refreshes only the lists, as its page is being left. */
export const endpointKeys = {
  all: ["webhook-endpoints"] as const,
  lists: () => [...endpointKeys.all, "list"] as const,
  list: (query: { organizationId: string } & Page) => [...endpointKeys.lists(), query] as const,
  detail: (id: string) => [...endpointKeys.all, "detail", id] as const,
};

export const deliveryKeys = {
  all: ["webhook-deliveries"] as const,
  page: (query: { endpointId: string } & Page) => [...deliveryKeys.all, query] as const,
};

export const endpointsQuery = (query: { organizationId: string } & Page) => queryOptions({ queryKey: endpointKeys.list(query), queryFn: () => listEndpoints(query) });
export const endpointQuery = (id: string) => queryOptions({ queryKey: endpointKeys.detail(id), queryFn: () => getEndpoint(id) });
export const deliveriesQuery = (query: { endpointId: string } & Page) => queryOptions({ queryKey: deliveryKeys.page(query), queryFn: () => listDeliveries(query) });

export const useCreateEndpoint = () => useChange(({ organizationId, change }: { organizationId: string; change: EndpointChange }) => createEndpoint(organizationId, change), () => [endpointKeys.lists()]);
export const useUpdateEndpoint = () => useChange(({ id, change }: { id: string; change: Parameters<typeof updateEndpoint>[1] }) => updateEndpoint(id, change), () => [endpointKeys.all]);
/** Switching on or off: refused or not, the page shows the endpoint as the server has it. */
export const useSwitchEndpoint = () => useChange(({ id, enabled }: { id: string; enabled: boolean }) => updateEndpoint(id, { enabled }), () => [endpointKeys.all], { evenIfRefused: true });
export const useDeleteEndpoint = () => useChange(deleteEndpoint, () => [endpointKeys.lists()]);
export const useRotateSecret = () => useChange(rotateSecret, () => [endpointKeys.all]);
/** Sending an event again: the log shows the new attempt, or that none was made. */
export const useRedeliver = () => useChange(redeliver, () => [deliveryKeys.all], { evenIfRefused: true });
/** A test event: the log shows its delivery once made. */
export const useSendTestEvent = () => useChange(sendTestEvent, () => [deliveryKeys.all]);
