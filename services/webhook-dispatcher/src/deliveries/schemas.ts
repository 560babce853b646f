import { z } from "zod";
import { API_VERSIONS, isoTimestamp, momentInput, paging, repeated } from "@tollgate/kit";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import { TEST_EVENT_TYPE } from "../events/test-event.js";

/** The events an endpoint is sent: billing's, and the test event a seller sends to try it. */
const SENT_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;

/** Polar's WebhookEvent: `succeeded` is null while attempts remain. */
export const WebhookEvent = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    last_http_code: z.int().nullable(),
    succeeded: z.boolean().nullable(),
    skipped: z.boolean(),
    payload: z.string().nullable(),
    type: z.enum(SENT_EVENT_TYPES),
    is_archived: z.boolean(),
    api_version: z.enum(API_VERSIONS).meta({ description: "The API version the payload is sent in: its endpoint's" }),
  })
  .meta({ id: "WebhookEvent" });

/** Polar's WebhookDelivery: one attempt to send an event, with the event. */
export const WebhookDelivery = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    succeeded: z.boolean(),
    http_code: z.int().nullable(),
    response: z.string().nullable(),
    duration_ms: z.int().nullable(),
    webhook_event: WebhookEvent,
  })
  .meta({ id: "WebhookDelivery" });

export const DeliveryFilters = z.object({
  ...paging,
  endpoint_id: repeated(z.string()),
  start_timestamp: momentInput().optional(),
  end_timestamp: momentInput().optional(),
  succeeded: z.enum(["true", "false"]).transform((value) => value === "true").optional(),
  query: z.string().optional(),
  http_code_class: z.enum(["2xx", "3xx", "4xx", "5xx"]).optional(),
  event_type: repeated(z.enum(SENT_EVENT_TYPES)),
});

/** An event named in the path. */
export const EventIdParams = z.object({ id: z.string() });
