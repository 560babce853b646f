import type { WebhookEventType } from "../../../../proto/src/webhook-event-types";
import { type Listing, request } from "../../api/client";

export const WEBHOOK_FORMATS = ["raw", "discord", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

// Billing's own list (a zod-free module of proto), so a new event type reaches the form without a copy to keep.
export { WEBHOOK_EVENT_TYPES } from "../../../../proto/src/webhook-event-types";

/** Polar's WebhookEndpoint. */
export interface WebhookEndpoint {
  id: string;
  created_at: string;
  url: string;
  name: string | null;
  format: WebhookFormat;
  secret: string;
  events: WebhookEventType[];
  enabled: boolean;
}

/** Polar's WebhookDelivery, with its event. */
export interface WebhookDelivery {
  id: string;
  created_at: string;
  succeeded: boolean;
  http_code: number | null;
  response: string | null;
  duration_ms: number | null;
  webhook_event: { id: string; type: WebhookEventType; payload: string | null; succeeded: boolean | null };
}

export interface EndpointChange {
  url: string;
  format: WebhookFormat;
  events: WebhookEventType[];
}

export const listEndpoints = ({ organizationId, page, limit }: { organizationId: string; page: number; limit: number }) =>
  request<Listing<WebhookEndpoint>>(`/v1/webhooks/endpoints?${new URLSearchParams({ organization_id: organizationId, page: String(page), limit: String(limit) }).toString()}`);

export const getEndpoint = (id: string) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}`);

export const createEndpoint = (organizationId: string, body: EndpointChange) => request<WebhookEndpoint>("/v1/webhooks/endpoints", { method: "POST", body: { ...body, organization_id: organizationId } });

export const updateEndpoint = (id: string, body: Partial<EndpointChange> & { enabled?: boolean }) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}`, { method: "PATCH", body });

export const deleteEndpoint = (id: string) => request<null>(`/v1/webhooks/endpoints/${id}`, { method: "DELETE" });

export const rotateSecret = (id: string) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}/secret`, { method: "PATCH" });

export const listDeliveries = ({ endpointId, page, limit }: { endpointId: string; page: number; limit: number }) =>
  request<Listing<WebhookDelivery>>(`/v1/webhooks/deliveries?${new URLSearchParams({ endpoint_id: endpointId, page: String(page), limit: String(limit) }).toString()}`);

export const redeliver = (eventId: string) => request<object>(`/v1/webhooks/events/${eventId}/redeliver`, { method: "POST" });
