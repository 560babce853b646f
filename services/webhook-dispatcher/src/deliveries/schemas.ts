import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";

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
    type: z.enum(WEBHOOK_EVENT_TYPES),
    is_archived: z.boolean(),
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
