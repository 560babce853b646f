import { z } from "zod";
import { defineEndpoint, reachable, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { eventTypeJson } from "./output.js";
import { EventType, EventTypeUpdate } from "./schemas.js";
import { findEventType, relabelEventType } from "./service.js";

/**
 * Event types: the seller's labels for the names their events carry. Listed with their events'
 * statistics by usage-events/, which counts the events.
 */
export function eventTypeEndpoints({ db, units, access }: Pick<Parts, "db" | "units" | "access">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/event-types/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: EventTypeUpdate, response: EventType, summary: "Update an event type's label", tag: "event-types" },
      async ({ params, body, identity }) => eventTypeJson(await relabelEventType(units, await reachable(access, identity, "events:write", await findEventType(db, params.id), "Event type"), body)),
    ),
  ];
}
