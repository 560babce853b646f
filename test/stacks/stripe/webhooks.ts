import { createHmac, randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { listOf, metadataOf, textOf, type Form } from "./form-body.js";
import { StripeFailure } from "./ledger.js";
import { now, stripeId, type EventObject } from "./objects.js";

export type WebhookEndpointObject = Pick<Stripe.WebhookEndpoint, "id" | "object" | "url" | "enabled_events" | "status" | "api_version" | "created" | "livemode" | "metadata" | "description"> & { secret: string };

/** One POST of an event to an endpoint, and how it was answered (0: no answer). */
export interface Delivery {
  eventId: string;
  type: string;
  endpointId: string;
  attempt: number;
  status: number;
}

/** Stripe's signature header for `payload` sent at `timestamp` (seconds): `t=…,v1=` HMAC-SHA256 of `t.payload` keyed with the endpoint's secret. */
export const signatureOf = (payload: string, secret: string, timestamp: number) => `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`;

/**
 * The webhook side of the local Stripe: endpoints made through the API (as the dashboard or
 * `stripe.webhookEndpoints.create` makes them), each event signed and POSTed to every endpoint
 * enabled for its type, retried while not answered 2xx. Tests can hold deliveries to send them
 * later (a webhook after the synchronous answer) and send one again (delivered twice).
 */
export class WebhookSender {
  readonly endpoints = new Map<string, WebhookEndpointObject>();
  readonly events = new Map<string, EventObject>();
  readonly deliveries: Delivery[] = [];
  /** Delays between attempts, in ms; Stripe's are hours apart, these keep tests short. */
  retryDelaysMs = [200, 500, 1_000, 2_000];
  private held: { event: EventObject; endpoint: WebhookEndpointObject }[] | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  createEndpoint(form: Form): WebhookEndpointObject {
    const url = textOf(form.url);
    if (!url) throw new StripeFailure(400, { type: "invalid_request_error", code: "parameter_missing", param: "url", message: "Missing required param: url." });
    const endpoint: WebhookEndpointObject = {
      id: stripeId("we"), object: "webhook_endpoint", url, enabled_events: listOf(form.enabled_events), status: "enabled",
      api_version: textOf(form.api_version) ?? null, created: now(), livemode: false, metadata: metadataOf(form.metadata),
      description: textOf(form.description) ?? null, secret: `whsec_${randomBytes(24).toString("base64url")}`,
    };
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  /** Changes an endpoint's address or events, as Stripe's dashboard does; its secret stays. */
  updateEndpoint(id: string, form: Form): WebhookEndpointObject {
    const endpoint = this.endpoints.get(id);
    if (!endpoint) throw new StripeFailure(404, { type: "invalid_request_error", code: "resource_missing", param: "id", message: `No such webhook endpoint: '${id}'` });
    const url = textOf(form.url);
    if (url) endpoint.url = url;
    if (form.enabled_events !== undefined) endpoint.enabled_events = listOf(form.enabled_events);
    return endpoint;
  }

  /** Records an event about `object` and sends it to the endpoints that want it. */
  publish(type: string, object: object, request: { id: string; idempotencyKey: string | null } | null, apiVersion: string): EventObject {
    const event: EventObject = {
      id: stripeId("evt"), object: "event", type, api_version: apiVersion, created: now(), livemode: false, pending_webhooks: 0,
      request: { id: request?.id ?? null, idempotency_key: request?.idempotencyKey ?? null },
      data: { object: structuredClone(object) },
    };
    const targets = [...this.endpoints.values()].filter((endpoint) => endpoint.status === "enabled" && (endpoint.enabled_events.includes("*") || endpoint.enabled_events.includes(type)));
    event.pending_webhooks = targets.length;
    this.events.set(event.id, event);
    for (const endpoint of targets) this.send(event, endpoint);
    return event;
  }

  /** From now on, deliveries wait until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends what was held, in order, and stops holding. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { event, endpoint } of held) this.send(event, endpoint);
  }

  /** Sends an event again to every endpoint enabled for it, as Stripe's "Resend" does. */
  resend(eventId: string): void {
    const event = this.events.get(eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    for (const endpoint of this.endpoints.values()) if (endpoint.enabled_events.includes("*") || endpoint.enabled_events.includes(event.type)) this.send(event, endpoint);
  }

  /** Waits for every delivery under way (retries included), then stops sending. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private send(event: EventObject, endpoint: WebhookEndpointObject): void {
    if (this.held) {
      this.held.push({ event, endpoint });
      return;
    }
    const sending = this.deliver(event, endpoint).finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  private async deliver(event: EventObject, endpoint: WebhookEndpointObject): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    for (let attempt = 1; !this.stopped; attempt++) {
      let status = 0;
      try {
        const answer = await fetch(endpoint.url, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)", "stripe-signature": signatureOf(payload, endpoint.secret, now()) },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        status = answer.status;
        await answer.arrayBuffer();
      } catch {
        // No answer: retried like an error status.
      }
      this.deliveries.push({ eventId: event.id, type: event.type, endpointId: endpoint.id, attempt, status });
      const delay = this.retryDelaysMs[attempt - 1];
      if ((status >= 200 && status < 300) || delay === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
