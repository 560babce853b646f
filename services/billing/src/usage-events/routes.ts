import { z } from "zod";
import { defineEndpoint, momentInput, pageJson, paging, reachable, repeated, sorting, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { Filter } from "../meters/filter.js";
import { MeterQuantities, meterQuantitiesQuery } from "../meters/schemas.js";
import { findMeter } from "../meters/service.js";
import type { Parts } from "../parts.js";
import { eventNameJson } from "./output.js";
import { EventList, EventNameList, EVENT_NAME_SORT_KEYS, EventsIngest, EventsIngestResponse, UserEvent } from "./schemas.js";
import { customerKeysFor, meterQuantities } from "./quantities.js";
import { eventsJson, findEvent, ingestEvents, listEvents, pageOfEventNames } from "./service.js";

const TAG = "events";

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

/** Usage events: the seller's system sends them in batches; meters measure them. */
export function usageEventEndpoints({ db, units, access, wakeMeasurer }: Pick<Parts, "db" | "units" | "access"> & { wakeMeasurer: () => void }): Endpoint[] {
  return [
    defineEndpoint("/v1/events/ingest", { method: "POST", body: EventsIngest, response: EventsIngestResponse, summary: "Ingest a batch of events", tag: TAG }, async ({ body, identity }) =>
      ingestEvents(db, units, await access.organizationIds(identity, "events:write"), body.events, wakeMeasurer),
    ),
    defineEndpoint(
      "/v1/events/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          external_customer_id: repeated(z.string()),
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
        }),
        response: EventList,
        summary: "List events",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const { items, total } = await listEvents(db, await access.organizationIds(identity, "events:read"), query, metadataFilters(req), { ...query, sort: query.sorting });
        return pageJson(items, total, query.limit);
      },
    ),
    defineEndpoint(
      "/v1/events/names",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          source: repeated(z.enum(["user", "system"])),
          query: z.string().optional(),
          sorting: sorting(EVENT_NAME_SORT_KEYS, "-last_seen"),
        }),
        response: EventNameList,
        summary: "List the names of events",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "events:read");
        const { rows, total } = await pageOfEventNames(db, { ...query, organizationIds }, { ...query, sort: query.sorting });
        return pageJson(rows.map(eventNameJson), total, query.limit);
      },
    ),
    defineEndpoint("/v1/events/:id", { method: "GET", params: z.object({ id: z.string() }), response: UserEvent, summary: "Get an event", tag: TAG }, async ({ params, identity }) => {
      const [json] = await eventsJson(db, [await reachable(access, identity, "events:read", await findEvent(db, params.id), "Event")]);
      return json;
    }),
  ];
}

/** A meter's quantities per period: what it measured of the seller's usage events, in all or for some customers. */
export function meterQuantityEndpoints({ db, access, timeZones }: Pick<Parts, "db" | "access" | "timeZones">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/meters/:id/quantities",
      {
        method: "GET",
        params: z.object({ id: z.string() }),
        query: meterQuantitiesQuery(timeZones).extend({ customer_id: repeated(z.string()), external_customer_id: repeated(z.string()) }),
        response: MeterQuantities,
        summary: "Get a meter's quantities per period",
        tag: "meters",
      },
      async ({ params, query, identity, req }) => {
        const found = await reachable(access, identity, "meters:read", await findMeter(db, params.id), "Meter");
        const customerKeys = await customerKeysFor(db, found.organization_id, query.customer_id, query.external_customer_id, query.customer_aggregation_function !== undefined);
        const { start_timestamp: start, end_timestamp: end, interval, timezone } = query;
        return meterQuantities(db, found, { customerKeys, start, end, interval, timezone }, query.customer_aggregation_function, metadataFilters(req));
      },
    ),
  ];
}
