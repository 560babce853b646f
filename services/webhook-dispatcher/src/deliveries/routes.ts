import { z } from "zod";
import { defineEndpoint, listResource, momentInput, notFound, pageJson, pageOf, paging, reachable, repeated, type Endpoint } from "@tollgate/kit";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findEvent, findEvents, requeue, type WebhookEventRow } from "../events/events.sql.js";
import type { DeliveryRow } from "./deliveries.sql.js";
import { deliveryJson } from "./output.js";
import { WEBHOOK_DELIVERY } from "./set-aside.js";
import { WebhookDelivery } from "./schemas.js";

const STATUS_CLASSES = { "2xx": [200, 299], "3xx": [300, 399], "4xx": [400, 499], "5xx": [500, 599] } as const;

const deliveryFilters = z.object({
  ...paging,
  endpoint_id: repeated(z.string()),
  start_timestamp: momentInput().optional(),
  end_timestamp: momentInput().optional(),
  succeeded: z.enum(["true", "false"]).transform((value) => value === "true").optional(),
  query: z.string().optional(),
  http_code_class: z.enum(["2xx", "3xx", "4xx", "5xx"]).optional(),
  event_type: repeated(z.enum(WEBHOOK_EVENT_TYPES)),
});

export function deliveryEndpoints(dispatcher: Parts): Endpoint[] {
  const { db, access } = dispatcher;

  return [
    defineEndpoint(
      "/v1/webhooks/deliveries",
      { method: "GET", query: deliveryFilters, response: listResource(WebhookDelivery, "ListResource_WebhookDelivery_"), summary: "List webhook deliveries", tag: "webhooks" },
      async ({ query, identity }) => {
        const found = db<DeliveryRow>("webhook_deliveries")
          .join<WebhookEventRow>("webhook_events", "webhook_events.id", "webhook_deliveries.webhook_event_id")
          .whereIn("webhook_events.organization_id", await access.organizationIds(identity, "webhooks:read"))
          .select("webhook_deliveries.*");
        if (query.endpoint_id) void found.whereIn("webhook_deliveries.endpoint_id", query.endpoint_id);
        if (query.start_timestamp) void found.where("webhook_deliveries.created_at", ">=", query.start_timestamp);
        if (query.end_timestamp) void found.where("webhook_deliveries.created_at", "<=", query.end_timestamp);
        if (query.succeeded !== undefined) void found.where("webhook_deliveries.succeeded", query.succeeded);
        if (query.http_code_class) void found.whereBetween("webhook_deliveries.http_code", [...STATUS_CLASSES[query.http_code_class]]);
        if (query.event_type) void found.whereIn("webhook_events.type", query.event_type);
        if (query.query) void found.where("webhook_events.payload", "ilike", `%${query.query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
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
      { method: "POST", status: 202, params: z.object({ id: z.string() }), response: z.strictObject({}), summary: "Send a webhook event again", tag: "webhooks" },
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
