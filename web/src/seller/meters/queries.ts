import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createMeter, getMeter, getMeterQuantities, listEventNames, listMeters, updateMeter, type EventFilters, type MeterChange, type MeterListFilter, type MeterUpdate, type QuantityRange } from "./meters-api";

/**
 * Every usage billing query sits under `all` (the product and benefit forms' meter pickers too): a
 * meter changed refreshes its lists, its quantities, the events it counts and the customers' meters.
 */
export const meterKeys = {
  all: ["meters"] as const,
  list: (organizationId: string, filter: MeterListFilter) => [...meterKeys.all, "list", organizationId, filter] as const,
  choices: (organizationId: string) => [...meterKeys.all, "choices", organizationId] as const,
  detail: (id: string) => [...meterKeys.all, "detail", id] as const,
  quantities: (id: string, range: QuantityRange) => [...meterKeys.all, "quantities", id, range] as const,
  events: (organizationId: string, filters: EventFilters) => [...meterKeys.all, "events", organizationId, filters] as const,
  eventNames: (organizationId: string) => [...meterKeys.all, "event-names", organizationId] as const,
  ofCustomer: (customerId: string) => [...meterKeys.all, "customer", customerId] as const,
};

export const meterQuery = (id: string) => queryOptions({ queryKey: meterKeys.detail(id), queryFn: () => getMeter(id) });
/** The first hundred active meters by name: the choices of the events' meter filter. */
export const meterChoices = (organizationId: string) =>
  queryOptions({ queryKey: meterKeys.choices(organizationId), queryFn: () => listMeters(organizationId, { archived: false, search: "" }, { sorting: "name", page: 1, limit: 100 }) });
export const quantitiesQuery = (id: string, range: QuantityRange) => queryOptions({ queryKey: meterKeys.quantities(id, range), queryFn: () => getMeterQuantities(id, range) });
export const eventNamesQuery = (organizationId: string) => queryOptions({ queryKey: meterKeys.eventNames(organizationId), queryFn: () => listEventNames(organizationId) });

export const useCreateMeter = () => useChange(({ organizationId, change }: { organizationId: string; change: MeterChange }) => createMeter(organizationId, change), () => [meterKeys.all]);
export const useUpdateMeter = () => useChange(({ id, change }: { id: string; change: MeterUpdate }) => updateMeter(id, change), () => [meterKeys.all]);
