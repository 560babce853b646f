import { z } from "zod";
import { metadataQuery } from "../http/metadata.js";
import { isoTimestamp, listResource, momentInput, paging, repeated, sorting } from "@tollgate/kit";
import { Customer } from "../customers/schemas.js";
import { customerFilter, customerListFilters } from "../http/list-filters.js";
import { Filter } from "../meters/filter.js";
import { meterQuantitiesQuery } from "../meters/schemas.js";
import { EVENT_NAME_SORTABLE } from "./usage-events.sql.js";

/**
 * How large a number in an event's metadata may be. Polar types it only as a JSON number; here meters
 * add such numbers up in double precision (rollups and customer meters are float8) over as many events
 * as a bigint counts (under 2^63), so with every value within 1e289 no sum can pass float8's largest
 * (1.8e308) and measuring can never overflow.
 */
export const METADATA_NUMBER_LIMIT = 1e289;

/** Lone UTF-16 surrogates: JSON can carry them, jsonb refuses them, so they become U+FFFD as text columns store them. */
const wellFormed = (text: string) => text.replace(/\p{Surrogate}/gu, "\uFFFD");

/** Polar's metadata value: a string of 1 to 500 characters (NUL is refused for every input), a number or a boolean. */
const MetadataValue = z.union([
  z.string().min(1).max(500).transform(wellFormed),
  // Refused as pydantic refuses a number past a bound; the bounds are stated for the API description.
  z
    .number()
    .refine((value) => value <= METADATA_NUMBER_LIMIT, { error: `Input should be less than or equal to ${METADATA_NUMBER_LIMIT}`, params: { type: "less_than_equal" } })
    .refine((value) => value >= -METADATA_NUMBER_LIMIT, { error: `Input should be greater than or equal to ${-METADATA_NUMBER_LIMIT}`, params: { type: "greater_than_equal" } })
    .meta({ minimum: -METADATA_NUMBER_LIMIT, maximum: METADATA_NUMBER_LIMIT }),
  z.boolean(),
]);

/**
 * One event of a batch, for a customer known by its id or by the seller's own id for it. A single
 * shape (rather than a union of two) so that a fault is reported at the field that has it.
 */
const EventCreate = z
  .object({
    timestamp: momentInput().optional(),
    name: z.string().min(1).max(128),
    organization_id: z.string().nullish(),
    external_id: z.string().max(256).nullish(),
    parent_id: z.string().nullish(),
    metadata: z.record(z.string().min(1).max(40).transform(wellFormed), MetadataValue).optional(),
    customer_id: z.string().optional(),
    member_id: z.string().nullish(),
    external_customer_id: z.string().min(1).optional(),
    external_member_id: z.string().nullish(),
  })
  .superRefine((event, context) => {
    if ((event.customer_id === undefined) === (event.external_customer_id === undefined)) {
      context.addIssue({ code: "custom", path: ["customer_id"], message: "Give either customer_id or external_customer_id", input: event.customer_id });
    }
  });

export const EventsIngest = z.object({ events: z.array(EventCreate).min(1).max(1000) });
export type EventCreate = z.output<typeof EventCreate>;

export const EventsIngestResponse = z.strictObject({ inserted: z.int(), duplicates: z.int() }).meta({ id: "EventsIngestResponse" });

export const UserEvent = z
  .strictObject({
    id: z.string(),
    timestamp: isoTimestamp(),
    organization_id: z.string(),
    customer_id: z.string().nullable(),
    customer: Customer.nullable(),
    external_customer_id: z.string().nullable(),
    child_count: z.int(),
    parent_id: z.string().nullable(),
    label: z.string(),
    name: z.string(),
    source: z.literal("user"),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .meta({ id: "UserEvent" });

export const EventList = listResource(UserEvent, "ListResource_Event_");

export const EventName = z
  .strictObject({ name: z.string(), label: z.string(), source: z.enum(["user", "system"]), occurrences: z.int(), first_seen: isoTimestamp(), last_seen: isoTimestamp() })
  .meta({ id: "EventName" });

export const EventNameList = listResource(EventName, "ListResource_EventName_");

/** The properties a list of event names may be sorted by. */
export const EVENT_NAME_SORT_KEYS = Object.keys(EVENT_NAME_SORTABLE) as (keyof typeof EVENT_NAME_SORTABLE)[];

/** A meter filter sent as JSON text in the query, as Polar's `filter` is. */
const jsonFilter = z
  .string()
  .transform((text, context): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      context.addIssue({ code: "custom", message: "Invalid JSON", input: text });
      return z.NEVER;
    }
  })
  .pipe(Filter);

export const EventListQuery = z.object({
  metadata: metadataQuery,
  ...paging,
  ...customerListFilters,
  meter_id: z.string().optional(),
  filter: jsonFilter.optional(),
  name: repeated(z.string()),
  source: repeated(z.enum(["user", "system"])),
  start_timestamp: momentInput().optional(),
  end_timestamp: momentInput().optional(),
  parent_id: z.string().optional(),
  depth: z.coerce.number().int().min(0).max(5).optional(),
  query: z.string().optional(),
  sorting: sorting(["timestamp"], "-timestamp"),
});

export const EventNameListQuery = z.object({
  ...customerListFilters,
  source: repeated(z.enum(["user", "system"])),
  query: z.string().optional(),
  ...paging,
  sorting: sorting(EVENT_NAME_SORT_KEYS, "-last_seen"),
});

/** A meter's quantities, in all or for some of its seller's customers. */
export const customersMeterQuantitiesQuery = (timeZones: ReadonlySet<string>) => meterQuantitiesQuery(timeZones).extend(customerFilter);
