import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import { API_VERSIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from "./webhooks-api";

const messages = defineMessages({
  url: { id: "forms.webhook.url", defaultMessage: "Enter the address to send events to, such as https://example.com/webhooks" },
  events: { id: "forms.webhook.events", defaultMessage: "Choose at least one event to send" },
});

/**
 * A webhook endpoint in the seller's console: where events go, in which format and API version, and which events.
 * The server has the last word on the address (https only in production, no private hosts).
 */
export const webhookEndpointForm = z.object({
  url: z.string().check(z.trim(), z.url({ protocol: /^https?$/, error: () => t(messages.url) })),
  format: z.enum(WEBHOOK_FORMATS),
  api_version: z.enum(API_VERSIONS),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(z.minLength(1, { error: () => t(messages.events) })),
});
export type WebhookEndpointForm = z.infer<typeof webhookEndpointForm>;
