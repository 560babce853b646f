import { request, type Listing } from "../../api/client";
import type { CustomerMeter, EventName, Meter, MeterQuantities, RequestBody, UsageEvent } from "../../api/wire";
import type { PageRequest } from "../../ui/server-listing";

export type { CustomerMeter, Meter, MeterFilter, MeterFilterClause, MeterQuantities, SubscriptionMeter, UsageEvent } from "../../api/wire";

export const AGGREGATIONS = ["count", "sum", "max", "min", "avg", "unique"] as const;
export type AggregationFunction = (typeof AGGREGATIONS)[number];
export const OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"] as const;
export type Operator = (typeof OPERATORS)[number];
/** The intervals the console charts in (Polar's, less the year: no range it offers is that long). */
export const QUANTITY_INTERVALS = ["hour", "day", "week", "month"] as const;
export type QuantityInterval = (typeof QUANTITY_INTERVALS)[number];

/** A meter as the form sends it (Polar's MeterCreate); the caller adds the organization. */
export type MeterChange = RequestBody<"/v1/meters/", "post">;
export type MeterUpdate = RequestBody<"/v1/meters/{id}", "patch">;

export interface MeterListFilter {
  archived: boolean;
  search: string;
}

export function listMeters(organizationId: string, filter: MeterListFilter, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, is_archived: String(filter.archived), sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (filter.search) query.set("query", filter.search);
  return request<Listing<Meter>>(`/v1/meters/?${query.toString()}`);
}

export const getMeter = (id: string) => request<Meter>(`/v1/meters/${id}`);
export const createMeter = (organizationId: string, body: MeterChange) => request<Meter>("/v1/meters/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateMeter = (id: string, body: MeterUpdate) => request<Meter>(`/v1/meters/${id}`, { method: "PATCH", body });

/** Which stretch of a meter's measurements to chart: whole days in the browser's time zone, both included. */
export interface QuantityRange {
  start: string;
  end: string;
  interval: QuantityInterval;
  customerId: string;
}

/** Midnight at the start of a day (YYYY-MM-DD) in the browser's time zone, as the API takes a moment. */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** The day's last moment: the day is included whole, and the next day's period is not charted (the API includes the end). */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

export function getMeterQuantities(id: string, range: QuantityRange) {
  const query = new URLSearchParams({
    start_timestamp: startOfDay(range.start),
    end_timestamp: endOfDay(range.end),
    interval: range.interval,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  if (range.customerId) query.set("customer_id", range.customerId);
  return request<MeterQuantities>(`/v1/meters/${id}/quantities?${query.toString()}`);
}

/** The narrowing Polar's event list offers: by name, source, customer, meter, days, and one metadata value. */
export interface EventFilters {
  name: string;
  source: "" | "user" | "system";
  customerId: string;
  meterId: string;
  from: string;
  to: string;
  metadataKey: string;
  metadataValue: string;
}

export const NO_EVENT_FILTERS: EventFilters = { name: "", source: "", customerId: "", meterId: "", from: "", to: "", metadataKey: "", metadataValue: "" };

export function listEvents(organizationId: string, filters: EventFilters, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (filters.name) query.set("name", filters.name);
  if (filters.source) query.set("source", filters.source);
  if (filters.customerId) query.set("customer_id", filters.customerId);
  if (filters.meterId) query.set("meter_id", filters.meterId);
  if (filters.from) query.set("start_timestamp", startOfDay(filters.from));
  if (filters.to) query.set("end_timestamp", endOfDay(filters.to));
  if (filters.metadataKey && filters.metadataValue) query.set(`metadata[${filters.metadataKey}]`, filters.metadataValue);
  return request<Listing<UsageEvent>>(`/v1/events/?${query.toString()}`);
}

/** The names the seller's events carry, most recently seen first: the choices of the name filter. */
export const listEventNames = (organizationId: string) => request<Listing<EventName>>(`/v1/events/names?${new URLSearchParams({ organization_id: organizationId, limit: "100" }).toString()}`);

export function listCustomerMeters(customerId: string, page: PageRequest) {
  const query = new URLSearchParams({ customer_id: customerId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  return request<Listing<CustomerMeter>>(`/v1/customer-meters/?${query.toString()}`);
}
