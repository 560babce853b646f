import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { MeterQuantities } from "../meters/schemas.js";
import { findMeter } from "../meters/service.js";
import type { Parts } from "../parts.js";
import { eventTypeWithStatsJson } from "../event-types/output.js";
import { EventTypeListQuery, EventTypeWithStatsList } from "../event-types/schemas.js";
import { customersMeterQuantitiesQuery, EventList, EventListQuery, EventNameList, EventNameListQuery, EventsIngest, EventsIngestResponse, UserEvent } from "./schemas.js";
import { customerKeysFor, meterQuantities } from "./quantities.js";
import { eventsJson, findEvent, ingestEvents, listEventNames, listEvents, listEventTypes } from "./service.js";

const TAG = "events";

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
        query: EventListQuery,
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
        query: EventNameListQuery,
        response: EventNameList,
        summary: "List the names of events",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { items, total } = await listEventNames(db, await access.organizationIds(identity, "events:read"), query, { ...query, sort: query.sorting });
        return pageJson(items, total, query.limit);
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
        query: customersMeterQuantitiesQuery(timeZones),
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

/**
 * Event types with the statistics of their events, as the query narrows them: usage-events counts the
 * events, so the list is here (event-types/ changes the types).
 */
export function eventTypeStatsEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/event-types/",
      {
        method: "GET",
        query: EventTypeListQuery,
        response: EventTypeWithStatsList,
        summary: "List event types with their events' statistics",
        tag: "event-types",
      },
      async ({ query, identity }) => {
        const { rows, total } = await listEventTypes(db, await access.organizationIds(identity, "events:read"), { ...query, source: query.source && [query.source] }, { ...query, sort: query.sorting });
        return pageJson(rows.map(eventTypeWithStatsJson), total, query.limit);
      },
    ),
  ];
}
