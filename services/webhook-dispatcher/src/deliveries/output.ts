import type { VersionedEventRow } from "../events/events.sql.js";
import type { DeliveryRow } from "./deliveries.sql.js";

/** An event as Polar's WebhookEvent: `succeeded` is null while attempts remain. */
export const eventJson = (event: VersionedEventRow) => ({
  created_at: event.created_at,
  modified_at: event.modified_at,
  id: event.id,
  last_http_code: event.last_http_code,
  succeeded: event.status === "succeeded" ? true : event.status === "failed" ? false : null,
  skipped: event.status === "skipped",
  payload: event.payload,
  type: event.type,
  is_archived: false,
  api_version: event.api_version,
});

/** An attempt as Polar's WebhookDelivery, with its event in the API version this attempt sent it in. */
export const deliveryJson = (delivery: DeliveryRow, event: VersionedEventRow) => ({
  created_at: delivery.created_at,
  modified_at: delivery.modified_at,
  id: delivery.id,
  succeeded: delivery.succeeded,
  http_code: delivery.http_code,
  response: delivery.response ?? delivery.error,
  duration_ms: delivery.duration_ms,
  webhook_event: { ...eventJson(event), api_version: delivery.api_version ?? event.api_version },
});
