import { request, type Listing } from "../../api/client";
import type { RequestBody, WebhookDelivery, WebhookEndpoint } from "../../api/wire";

export type { WebhookDelivery, WebhookEndpoint } from "../../api/wire";

export const WEBHOOK_FORMATS = ["raw", "discord", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

// Billing's own lists (zod-free modules of proto), so a new event type or API version reaches the form without a copy to keep.
export { WEBHOOK_EVENT_TYPES } from "../../../../proto/src/webhook-event-types";
export { API_VERSIONS, NEWEST_API_VERSION } from "../../../../proto/src/api-versions";

/** What the form sends of an endpoint (Polar's WebhookEndpointCreate, less the organization the caller adds). */
export type EndpointChange = Pick<RequestBody<"/v1/webhooks/endpoints", "post">, "url" | "format" | "events" | "api_version">;

export const listEndpoints = ({ organizationId, page, limit }: { organizationId: string; page: number; limit: number }) =>
  request<Listing<WebhookEndpoint>>(`/v1/webhooks/endpoints?${new URLSearchParams({ organization_id: organizationId, page: String(page), limit: String(limit) }).toString()}`);

export const getEndpoint = (id: string) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}`);

export const createEndpoint = (organizationId: string, body: EndpointChange) => request<WebhookEndpoint>("/v1/webhooks/endpoints", { method: "POST", body: { ...body, organization_id: organizationId } });

export const updateEndpoint = (id: string, body: Partial<EndpointChange> & { enabled?: boolean }) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}`, { method: "PATCH", body });

export const deleteEndpoint = (id: string) => request<null>(`/v1/webhooks/endpoints/${id}`, { method: "DELETE" });

export const rotateSecret = (id: string) => request<WebhookEndpoint>(`/v1/webhooks/endpoints/${id}/secret`, { method: "PATCH" });

export const listDeliveries = ({ endpointId, page, limit }: { endpointId: string; page: number; limit: number }) =>
  request<Listing<WebhookDelivery>>(`/v1/webhooks/deliveries?${new URLSearchParams({ endpoint_id: endpointId, page: String(page), limit: String(limit) }).toString()}`);

/** Tollgate's own: a signed `webhook.test` event, sent and logged as any other. */
export const sendTestEvent = (endpointId: string) => request<object>(`/v1/webhooks/endpoints/${endpointId}/test`, { method: "POST" });

export const redeliver = (eventId: string) => request<object>(`/v1/webhooks/events/${eventId}/redeliver`, { method: "POST" });
