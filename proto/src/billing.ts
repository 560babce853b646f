import { z } from "zod";
import { defineEvent } from "./envelope.js";
import { defineRequest } from "./requests.js";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-event-types.js";

const id = z.string().min(1);
const tokenHash = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hex digest");

/**
 * The gateway's cache miss for `Authorization: Bearer polar_oat_…`: the organization access token a
 * digest belongs to, if it is live. Billing answers (and notes when the token was last used).
 */
export const resolveAccessToken = defineRequest("billing.access_token.resolve", {
  request: z.object({ token_hash: tokenHash }),
  response: z.object({
    token: z.object({ id, organization_id: id, scopes: z.array(z.string()), expires_at: z.iso.datetime({ offset: true }).nullable() }).nullable(),
  }),
});

/**
 * The customer session (`polar_cst_…`, made by a seller for the customer portal) whose SHA-256 hex
 * digest this is, if it is live. Billing answers.
 */
export const resolveCustomerSession = defineRequest("billing.customer_session.resolve", {
  request: z.object({ token_hash: tokenHash }),
  response: z.object({
    // member_id: a member's session (they see what is theirs); absent from an older billing's answer.
    session: z.object({ id: id.optional(), customer_id: id, member_id: id.nullish(), organization_id: id, expires_at: z.iso.datetime({ offset: true }) }).nullable(),
  }),
});

/** A token was deleted or its scopes changed: the gateway drops what it cached for it at once. */
export const accessTokenRevoked = defineEvent("access_token.revoked", z.object({ id, token_hash: tokenHash }));

/**
 * Billing's events for sellers' webhooks: the Polar webhook `type` after `billing.`, the organization
 * it happened in, and the payload (the resource, as Polar's webhook payloads carry it). They are
 * named apart from the organization service's own events (`organization.updated` is both).
 */
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-event-types.js";

export const BILLING_EVENT_PREFIX = "billing.";

const billingEventData = z.object({ organization_id: id, payload: z.record(z.string(), z.unknown()) });

export const billingEvents = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, defineEvent(`${BILLING_EVENT_PREFIX}${type}`, billingEventData)]),
) as { [Type in WebhookEventType]: ReturnType<typeof defineEvent<`billing.${Type}`, typeof billingEventData>> };
