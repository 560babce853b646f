import { z } from "zod";
import { defineEndpoint, listResource, notFound, pageJson, pageOf, reachable, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { findEvent, findEvents, requeue } from "../events/events.sql.js";
import { deliveriesFound, type DeliveryRow } from "./deliveries.sql.js";
import { deliveryJson } from "./output.js";
import { WEBHOOK_DELIVERY } from "./set-aside.js";
import { DeliveryFilters, EventIdParams, WebhookDelivery } from "./schemas.js";

export function deliveryEndpoints(dispatcher: Parts): Endpoint[] {
  const { db, access } = dispatcher;

  return [
    defineEndpoint(
      "/v1/webhooks/deliveries",
      { method: "GET", query: DeliveryFilters, response: listResource(WebhookDelivery, "ListResource_WebhookDelivery_"), summary: "List webhook deliveries", tag: "webhooks" },
      async ({ query, identity }) => {
        const found = deliveriesFound(db, await access.organizationIds(identity, "webhooks:read"), query);
        const { rows, total } = await pageOf<DeliveryRow, "created_at">(found, {
          ...query,
          sort: [{ property: "created_at", descending: true }],
          columns: { created_at: "webhook_deliveries.created_at" },
          table: "webhook_deliveries",
        });
        const events = new Map((await findEvents(db, [...new Set(rows.map((delivery) => delivery.webhook_event_id))])).map((event) => [event.id, event]));
        return pageJson(
          rows.flatMap((delivery) => {
            const event = events.get(delivery.webhook_event_id);
            return event ? [deliveryJson(delivery, event)] : [];
          }),
          total,
          query.limit,
        );
      },
    ),

    defineEndpoint(
      "/v1/webhooks/events/:id/redeliver",
      { method: "POST", status: 202, params: EventIdParams, response: z.strictObject({}), summary: "Send a webhook event again", tag: "webhooks" },
      async ({ params, identity }) => {
        const event = await reachable(access, identity, "webhooks:write", await findEvent(db, params.id), "Webhook event");
        if (!(await requeue(db, event.id))) throw notFound("Webhook event");
        // Sent afresh: an event set aside is so no more.
        await dispatcher.failures.succeeded(WEBHOOK_DELIVERY, [event.id]);
        dispatcher.wakeScheduler();
        return {};
      },
    ),
  ];
}
