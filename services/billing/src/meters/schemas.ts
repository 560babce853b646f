import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, queryFlag, sorting, timeZoneName, trimmedText } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { Aggregation, Filter } from "./filter.js";
import { METER_SORTABLE } from "./meters.sql.js";

const MeterUnit = z.enum(["scalar", "token", "custom"]);
export const Interval = z.enum(["hour", "day", "week", "month", "year"]);

export const Meter = z
  .strictObject({
    metadata: metadataOutput,
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    name: z.string(),
    unit: MeterUnit,
    custom_label: z.string().nullable(),
    custom_multiplier: z.number().nullable(),
    filter: Filter,
    aggregation: Aggregation,
    organization_id: z.string(),
    archived_at: isoTimestamp().nullable(),
  })
  .meta({ id: "Meter" });

export const MeterList = listResource(Meter, "ListResource_Meter_");

const unitFields = {
  custom_label: z.string().min(1).max(100).nullish(),
  custom_multiplier: z.number().positive().nullish(),
};

export const MeterCreate = z.object({
  name: trimmedText({ min: 3, max: 300 }),
  unit: MeterUnit.default("scalar"),
  ...unitFields,
  filter: Filter,
  aggregation: Aggregation,
  metadata: metadataInput.optional(),
  organization_id: z.string().nullish(),
});

export const MeterUpdate = z.object({
  name: trimmedText({ min: 3, max: 300 }).nullish(),
  unit: MeterUnit.nullish(),
  ...unitFields,
  filter: Filter.nullish(),
  aggregation: Aggregation.nullish(),
  metadata: metadataInput.optional(),
  is_archived: z.boolean().nullish(),
});

export const CustomerAggregationFunction = z.enum(["count", "sum", "max", "min", "avg", "unique"]);

/** Polar's meter quantities query, in a time zone this Postgres knows (`timeZones`, read at start). */
export const meterQuantitiesQuery = (timeZones: ReadonlySet<string>) =>
  z.object({
    start_timestamp: momentInput(),
    end_timestamp: momentInput(),
    interval: Interval,
    timezone: timeZoneName(timeZones).default("UTC"),
    customer_aggregation_function: CustomerAggregationFunction.optional(),
    // The events' own metadata (metadata[key]=value), read by name (metadataFilters).
    metadata: metadataQuery,
  });

export const MeterQuantities = z
  .strictObject({
    quantities: z.array(z.strictObject({ timestamp: isoTimestamp(), quantity: z.number() }).meta({ id: "MeterQuantity" })),
    total: z.number(),
  })
  .meta({ id: "MeterQuantities" });

/** The properties a list of meters may be sorted by. */
export const METER_SORT_KEYS = Object.keys(METER_SORTABLE) as (keyof typeof METER_SORTABLE)[];

export const MeterListQuery = z.object({
  ...paging,
  ...sellerFilter,
  query: z.string().optional(),
  is_archived: queryFlag().optional(),
  metadata: metadataQuery,
  sorting: sorting(METER_SORT_KEYS, "name"),
});
