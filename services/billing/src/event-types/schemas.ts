import { z } from "zod";
import { isoTimestamp, listResource, paging, queryFlag, sorting, trimmedText } from "@tollgate/kit";
import { customerListFilters } from "../http/list-filters.js";
import { EVENT_TYPE_SORTABLE } from "./event-types.sql.js";

const EventSource = z.enum(["user", "system"]);

export const EventType = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    name: z.string(),
    label: z.string(),
    label_property_selector: z.string().nullable(),
    organization_id: z.string(),
  })
  .meta({ id: "EventType" });

export const EventTypeWithStats = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    name: z.string(),
    label: z.string(),
    label_property_selector: z.string().nullable(),
    organization_id: z.string(),
    source: EventSource,
    occurrences: z.int(),
    first_seen: isoTimestamp(),
    last_seen: isoTimestamp(),
  })
  .meta({ id: "EventTypeWithStats" });

export const EventTypeWithStatsList = listResource(EventTypeWithStats, "ListResource_EventTypeWithStats_");

/** Polar's EventTypeUpdate: a label, and where an event's own label is read from in its metadata (blank is none). */
export const EventTypeUpdate = z.object({
  label: trimmedText({ min: 1, max: 128 }),
  label_property_selector: z
    .string()
    .min(1)
    .max(256)
    .transform((selector) => selector.trim() || null)
    .nullish(),
});

/** The parameters of Polar's list of event types, in its order. */
export const EventTypeListQuery = z.object({
  ...customerListFilters,
  query: z.string().optional(),
  root_events: queryFlag().default(false),
  parent_id: z.string().optional(),
  source: EventSource.optional(),
  ...paging,
  sorting: sorting(EVENT_TYPE_SORTABLE, "-last_seen"),
});
