import { z } from "zod";
import { defineEndpoint, pageJson, paging, reachable, repeated, sorting, type Endpoint, type Knex, type OrganizationAccess, type Units } from "@tollgate/kit";
import { eventNameJson } from "./output.js";
import { EventList, EventNameList, EventsIngest, EventsIngestResponse, UserEvent } from "./schemas.js";
import { eventsJson, ingestEvents } from "./service.js";
import { EVENT_NAME_SORTABLE, findEvent, pageOfEventNames, pageOfEvents } from "./usage-events.sql.js";

const TAG = "events";
const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** Usage events: the seller's system sends them in batches; meters measure them. */
export function usageEventEndpoints({ db, units, access, wakeMeasurer }: { db: Knex; units: Units; access: OrganizationAccess; wakeMeasurer: () => void }): Endpoint[] {
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
          name: repeated(z.string()),
          source: repeated(z.enum(["user", "system"])),
          start_timestamp: timestamp.optional(),
          end_timestamp: timestamp.optional(),
          parent_id: z.string().optional(),
          query: z.string().optional(),
          sorting: sorting(["timestamp"], "-timestamp"),
        }),
        response: EventList,
        summary: "List events",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "events:read");
        const { rows, total } = await pageOfEvents(db, { ...query, organizationIds, customerIds: query.customer_id }, { ...query, sort: query.sorting });
        return pageJson(await eventsJson(db, rows), total, query.limit);
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
          sorting: sorting(Object.keys(EVENT_NAME_SORTABLE) as (keyof typeof EVENT_NAME_SORTABLE)[], "-last_seen"),
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
