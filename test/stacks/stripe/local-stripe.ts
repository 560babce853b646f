import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { listOf, parseForm, textOf, type Form } from "./form-body.js";
import { Ledger, StripeFailure } from "./ledger.js";
import { stripeId } from "./objects.js";
import { WebhookSender, type WebhookEndpointObject } from "./webhooks.js";

/** The API version this account answers in when a request names none (Stripe's account default). */
const ACCOUNT_API_VERSION = "2026-10-28.endive";

type Key = "secret" | "publishable";

interface Route {
  method: "GET" | "POST";
  path: RegExp;
  /** Which key may call it: the secret key always; the publishable key only where Stripe.js calls. */
  publishable?: boolean;
  answer: (ids: string[], form: Form) => object;
}

/** A request as the log keeps it, for tests to check what Tollgate asked (idempotency keys included). */
export interface LoggedRequest {
  method: string;
  path: string;
  key: Key;
  idempotencyKey: string | null;
  form: Form;
  status: number;
}

const list = (path: string, data: object[]) => ({ object: "list", data, has_more: false, url: path });

/**
 * A Stripe-compatible HTTP server on loopback for the endpoints Tollgate calls, answering with
 * Stripe's objects and errors, for the official `stripe` SDK pointed at it (its `host`, `port` and
 * `protocol` options, from a `STRIPE_API_URL`). It keeps Stripe's rules that matter for money:
 * secret and publishable keys, idempotency keys (same key and body: the first answer again; same key,
 * other body: refused), single-use confirmation tokens, the test cards' behaviours, and events
 * signed for webhook endpoints with Stripe's scheme.
 */
export class LocalStripe {
  readonly secretKey = `sk_test_local_${stripeId("k").slice(2)}`;
  readonly publishableKey = `pk_test_local_${stripeId("k").slice(2)}`;
  readonly webhooks = new WebhookSender();
  readonly ledger: Ledger;
  readonly requests: LoggedRequest[] = [];
  /** While set, every API call answers 503 with an `api_error`, as during an outage. */
  unavailable = false;
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  private request: { id: string; idempotencyKey: string | null; apiVersion: string } | null = null;
  private server: Server | null = null;
  private readonly routes: Route[];

  private constructor() {
    this.ledger = new Ledger((type, object) => this.webhooks.publish(type, object, this.request, this.request?.apiVersion ?? ACCOUNT_API_VERSION));
    const l = this.ledger;
    const route = (method: Route["method"], path: string, answer: Route["answer"], publishable = false): Route => ({ method, path: new RegExp(`^${path.replace(/:id/g, "([^/]+)")}$`), answer, publishable });
    this.routes = [
      route("POST", "/v1/customers", (_, form) => l.createCustomer(form)),
      route("GET", "/v1/customers/:id", ([id = ""]) => l.find(l.customers, "customer", id)),
      route("POST", "/v1/customers/:id", ([id = ""], form) => l.updateCustomer(id, form)),
      route("GET", "/v1/customers/:id/payment_methods", ([id = ""]) => list(`/v1/customers/${id}/payment_methods`, [...l.paymentMethods.values()].filter((method) => method.customer === l.find(l.customers, "customer", id).id))),
      route("GET", "/v1/payment_methods/:id", ([id = ""]) => l.find(l.paymentMethods, "payment_method", id)),
      route("POST", "/v1/payment_methods/:id/attach", ([id = ""], form) => l.attach(id, textOf(form.customer) ?? "")),
      route("POST", "/v1/payment_methods/:id/detach", ([id = ""]) => l.detach(id)),
      route("POST", "/v1/test_helpers/confirmation_tokens", (_, form) => l.createConfirmationToken(form)),
      route("POST", "/v1/confirmation_tokens", (_, form) => l.createConfirmationToken(form), true),
      route("GET", "/v1/confirmation_tokens/:id", ([id = ""]) => l.find(l.confirmationTokens, "confirmation_token", id)),
      route("POST", "/v1/payment_intents", (_, form) => this.expanded(l.createPaymentIntent(form), form)),
      route("GET", "/v1/payment_intents/:id", ([id = ""], form) => this.expanded(l.find(l.paymentIntents, "payment_intent", id), form)),
      route("POST", "/v1/payment_intents/:id/confirm", ([id = ""], form) => this.expanded(l.confirmPaymentIntent(id, form), form)),
      route("POST", "/v1/payment_intents/:id/cancel", ([id = ""]) => l.cancelPaymentIntent(id)),
      route("POST", "/v1/setup_intents", (_, form) => this.expanded(l.createSetupIntent(form), form)),
      route("GET", "/v1/setup_intents/:id", ([id = ""], form) => this.expanded(l.find(l.setupIntents, "setup_intent", id), form)),
      route("POST", "/v1/refunds", (_, form) => l.createRefund(form)),
      route("GET", "/v1/refunds/:id", ([id = ""]) => l.find(l.refunds, "refund", id)),
      route("GET", "/v1/charges/:id", ([id = ""]) => l.find(l.charges, "charge", id)),
      route("GET", "/v1/disputes", () => list("/v1/disputes", [...l.disputes.values()].reverse())),
      route("GET", "/v1/disputes/:id", ([id = ""]) => l.find(l.disputes, "dispute", id)),
      route("POST", "/v1/disputes/:id", ([id = ""], form) => l.updateDispute(id, form)),
      route("POST", "/v1/disputes/:id/close", ([id = ""]) => l.closeDispute(id)),
      route("POST", "/v1/webhook_endpoints", (_, form) => this.webhooks.createEndpoint(form)),
      route("POST", "/v1/webhook_endpoints/:id", ([id = ""], form) => this.webhooks.updateEndpoint(id, form)),
      route("GET", "/v1/events/:id", ([id = ""]) => l.find(this.webhooks.events, "event", id)),
      // Not Stripe's API: the page of the buyer's bank for 3-D Secure, which the local Stripe.js stand-in opens.
      route("POST", "/_local/authenticate/:id", ([id = ""], form) => l.authenticate(id, textOf(form.outcome) !== "fail"), true),
    ];
  }

  static async start(): Promise<LocalStripe> {
    const stripe = new LocalStripe();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => stripe.handle(request, Buffer.concat(chunks).toString("utf8"), response));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stripe.server = server;
    return stripe;
  }

  /** What `STRIPE_API_URL` is set to for Tollgate to reach this server. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    return `http://127.0.0.1:${address?.port ?? 0}`;
  }

  /** The official SDK's options that send its calls here. */
  get sdkOptions(): { host: string; port: number; protocol: "http" } {
    const { hostname, port } = new URL(this.url);
    return { host: hostname, port: Number(port), protocol: "http" };
  }

  /** A webhook endpoint for `url` receiving every event, as a seller would add in Stripe's dashboard. */
  addWebhookEndpoint(url: string, events = ["*"]): WebhookEndpointObject {
    return this.webhooks.createEndpoint({ url, enabled_events: Object.fromEntries(events.map((event, index) => [String(index), event])) });
  }

  async stop(): Promise<void> {
    await this.webhooks.stop();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, body: string, response: ServerResponse): void {
    const url = new URL(request.url ?? "/", "http://stripe.local");
    const method = request.method ?? "GET";
    const form = parseForm(method === "GET" ? url.search.slice(1) : body);
    const idempotencyKey = method === "POST" ? (request.headers["idempotency-key"]?.toString() ?? null) : null;
    const key = this.keyOf(request.headers.authorization);
    const log = (status: number) => this.requests.push({ method, path: url.pathname, key: key ?? "secret", idempotencyKey, form, status });
    const send = (status: number, text: string, replayed = false) => {
      log(status);
      const requestId = this.request?.id ?? stripeId("req");
      response.writeHead(status, { "content-type": "application/json", "request-id": requestId, ...(replayed ? { "idempotent-replayed": "true" } : {}), ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) }).end(text);
    };
    const failure = (failed: StripeFailure) => JSON.stringify({ error: failed.error }, null, 2);

    const matched = this.routes.flatMap((candidate) => {
      const found = candidate.method === method ? candidate.path.exec(url.pathname) : null;
      return found ? [{ route: candidate, ids: found.slice(1) }] : [];
    })[0];
    if (!key || (key === "publishable" && !matched?.route.publishable)) {
      const message = key ? "This API call cannot be made with a publishable API key. Please use a secret API key." : "Invalid API Key provided.";
      return send(401, failure(new StripeFailure(401, { type: "invalid_request_error", message })));
    }
    if (this.unavailable) return send(503, failure(new StripeFailure(503, { type: "api_error", message: "Stripe is temporarily unavailable." })));
    if (!matched) return send(404, failure(new StripeFailure(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname}).` })));

    const fingerprint = `${method} ${url.pathname} ${JSON.stringify(form)}`;
    const before = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (before && before.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
      return send(400, failure(new StripeFailure(400, { type: "idempotency_error", message })));
    }
    if (before) return send(before.status, before.body, true);

    this.request = { id: stripeId("req"), idempotencyKey, apiVersion: request.headers["stripe-version"]?.toString() ?? ACCOUNT_API_VERSION };
    let status = 200;
    let text: string;
    try {
      text = JSON.stringify(matched.route.answer(matched.ids, form), null, 2);
    } catch (error) {
      // A fault of this server's own answers as Stripe's do, so the test sees it rather than a dropped connection.
      const failed = error instanceof StripeFailure ? error : new StripeFailure(500, { type: "api_error", message: String(error) });
      status = failed.status;
      text = failure(failed);
    }
    // Stripe keeps the answer to an idempotent request, errors included, and gives it again for the same key.
    if (idempotencyKey) this.idempotent.set(idempotencyKey, { fingerprint, status, body: text });
    send(status, text);
    this.request = null;
  }

  private keyOf(authorization: string | undefined): Key | null {
    const given = authorization?.replace(/^Bearer /, "");
    return given === this.secretKey ? "secret" : given === this.publishableKey ? "publishable" : null;
  }

  /** `expand[]` of an intent's charge or payment method: the object in place of its id. */
  private expanded<T extends { latest_charge?: unknown; payment_method: unknown }>(intent: T, form: Form): T {
    const expand = listOf(form.expand);
    const copy = structuredClone(intent);
    if (expand.includes("latest_charge") && typeof copy.latest_charge === "string") copy.latest_charge = this.ledger.charges.get(copy.latest_charge) ?? copy.latest_charge;
    if (expand.includes("payment_method") && typeof copy.payment_method === "string") copy.payment_method = this.ledger.paymentMethods.get(copy.payment_method) ?? copy.payment_method;
    return copy;
  }
}
