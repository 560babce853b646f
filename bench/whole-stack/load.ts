/**
 * The mixed load of the whole-stack runs (bench/scale, bench/chaos), through the gateway as browsers
 * and sellers' code send it: people sign up and sign in, make and rename organizations; buyers check
 * out with sandbox cards (each purchase granting the product's benefit) and start monthly
 * subscriptions; sellers refund part of an order and move their test clock a month on, which renews
 * the subscriptions. Every request is recorded with when it started and ended and how it was
 * answered, and what the load was told was done is kept in a {@link Ledger} for the audit.
 */
import { randomBytes } from "node:crypto";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";

export interface RequestRecord {
  /** The flow it was part of: `sign-up`, `checkout`, … */
  operation: string;
  /** `POST /v1/checkouts/client/{secret}/confirm`: the path with its ids left out. */
  route: string;
  /** The service the gateway sends the path to. */
  service: string;
  startedAt: number;
  endedAt: number;
  /** 0 when no answer came (the connection failed). */
  status: number;
  /** The answer's start when it was not a 2xx, or the connection's error. */
  detail: string;
  /** For a request sent again because the first got no answer: the first, whose disruption explains this one's failure too. */
  retryOf?: RequestRecord;
}

/** A request answered with something other than 2xx: the flow it was part of stops there. */
export class RequestFailed extends Error {
  constructor(readonly record: RequestRecord) {
    super(`${record.route} answered ${record.status || "nothing"}: ${record.detail}`);
    this.name = "RequestFailed";
  }
}

const SERVICE_PREFIXES: [string, string][] = [
  ["/api/auth/organization", "organization"],
  ["/api/auth", "auth"],
  ["/v1/webhooks", "webhook-dispatcher"],
  ["/v1", "billing"],
];

const serviceOf = (path: string) => SERVICE_PREFIXES.find(([prefix]) => path.startsWith(prefix))?.[1] ?? "gateway";

const PASSWORD = "correct horse battery staple";
const nextYear = new Date().getUTCFullYear() + 1;

/** Where the gateway is, and the site's origin (PUBLIC_URL) that browsers name in Origin. */
export interface Gateway {
  url: string;
  site: string;
}

/** What the load was told was done (a 2xx answer): each must be found done once, whatever failed meanwhile. */
export interface Ledger {
  /** Checkouts whose confirmation was accepted: each must end paid, with one order and one charge. */
  confirmedCheckouts: string[];
  /** Refunds answered 201, with the Idempotency-Key they were asked with (kept in their metadata). */
  refunds: { id: string; orderId: string; amount: number; key: string }[];
}

export const newLedger = (): Ledger => ({ confirmedCheckouts: [], refunds: [] });

/** One browser or API client of the gateway: keeps its cookies and records every request. */
export class Client {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly gateway: Gateway,
    private readonly records: RequestRecord[],
    private readonly bearer: string | null = null,
  ) {}

  /** Sends a request and answers its JSON; throws {@link RequestFailed} on anything but a 2xx. */
  async send<Answer>(operation: string, method: string, path: string, options: { body?: unknown; route?: string; headers?: Record<string, string>; retryOf?: RequestRecord } = {}): Promise<Answer> {
    const headers: Record<string, string> = { origin: this.gateway.site, ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const startedAt = performance.now();
    const record: RequestRecord = { operation, route: `${method} ${options.route ?? path}`, service: serviceOf(path), startedAt, endedAt: startedAt, status: 0, detail: "", retryOf: options.retryOf };
    this.records.push(record);
    pending.set(record.service, inFlight(record.service) + 1);
    try {
      const response = await fetch(`${this.gateway.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ""] = cookie.split(";");
        const split = pair.indexOf("=");
        this.cookies.set(pair.slice(0, split), pair.slice(split + 1));
      }
      const text = await response.text();
      record.endedAt = performance.now();
      record.status = response.status;
      if (!response.ok) {
        record.detail = text.slice(0, 200);
        throw new RequestFailed(record);
      }
      return (text === "" ? null : JSON.parse(text)) as Answer;
    } catch (error) {
      if (error instanceof RequestFailed) throw error;
      record.endedAt = performance.now();
      record.detail = error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error);
      throw new RequestFailed(record);
    } finally {
      pending.set(record.service, inFlight(record.service) - 1);
    }
  }
}

/** Requests waiting for their answer, by the service the gateway sends them to. */
const pending = new Map<string, number>();

/** How many of the load's requests to `service` (`billing`, …, `gateway`) are waiting for their answer right now. */
export const inFlight = (service: string) => pending.get(service) ?? 0;

/** Runs `work` alone among those given the same lock: a seller's clock never moves while one of its buyers is checking out. */
export class Lock {
  private tail: Promise<void> = Promise.resolve();

  async hold<Result>(work: () => Promise<Result>): Promise<Result> {
    const previous = this.tail;
    let release = () => {};
    this.tail = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

export interface Seller {
  organizationId: string;
  api: Client;
  /** Its product, which grants one custom benefit to every buyer. */
  product: { id: string };
  /** The shop's webhook endpoint. */
  endpoint: { id: string };
  lock: Lock;
}

let people = 0;
const runId = randomBytes(3).toString("hex");
const newEmail = (kind: string) => `${kind}${++people}-${runId}@example.com`;

/** A person signed up and in: their browser, keeping the session cookie. */
export async function signUp(gateway: Gateway, records: RequestRecord[], operation = "sign-up"): Promise<{ browser: Client; email: string }> {
  const browser = new Client(gateway, records);
  const email = newEmail("person");
  await browser.send(operation, "POST", "/api/auth/sign-up/email", { body: { name: "Scale Person", email, password: PASSWORD } });
  return { browser, email };
}

/**
 * A seller: an owner with an organization, an access token (once billing has heard of the
 * organization), a signed webhook endpoint at the receiver for every event type (its secret handed to
 * `receiver.trust` at once, before the first delivery), and one product, one-time or monthly, that
 * grants a custom benefit.
 */
export async function openShop(gateway: Gateway, records: RequestRecord[], receiver: { url: string; trust(secret: string): void }, kind: "one-time" | "monthly"): Promise<Seller> {
  const { browser } = await signUp(gateway, records, "setup");
  const slug = `shop-${runId}-${++people}`;
  const organization = await browser.send<{ id: string }>("setup", "POST", "/api/auth/organization/create", { body: { name: `Shop ${slug}`, slug } });
  let token: string | null = null;
  for (let attempt = 0; attempt < 100 && !token; attempt++) {
    // Billing learns of the organization from its events; until then it answers 403.
    token = await browser
      .send<{ token: string }>("setup", "POST", "/v1/organization-access-tokens/", { body: { organization_id: organization.id, comment: "scale", scopes: SELLER_SCOPES } })
      .then((created) => created.token, () => null);
    if (!token) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!token) throw new Error(`billing never learned of organization ${organization.id}`);
  const api = new Client(gateway, records, token);
  // Before anything the seller sells: every billing event of the organization is one the endpoint should get.
  const endpoint = await api.send<{ id: string; secret: string }>("setup", "POST", "/v1/webhooks/endpoints", { body: { url: receiver.url, format: "raw", events: WEBHOOK_EVENT_TYPES } });
  receiver.trust(endpoint.secret);
  const prices = [{ amount_type: "fixed", price_amount: kind === "monthly" ? 1_000 : 1_900, price_currency: "usd" }];
  const product = await api.send<{ id: string }>("setup", "POST", "/v1/products/", {
    body: kind === "monthly" ? { name: "Pro (monthly)", recurring_interval: "month", prices } : { name: "E-book", prices },
  });
  const benefit = await api.send<{ id: string }>("setup", "POST", "/v1/benefits/", { body: { type: "custom", description: "Priority support", properties: { note: "Write to us" } } });
  await api.send("setup", "POST", `/v1/products/${product.id}/benefits`, { body: { benefits: [benefit.id] } });
  return { organizationId: organization.id, api, product, endpoint, lock: new Lock() };
}

const SELLER_SCOPES = [
  "products:read",
  "products:write",
  "benefits:read",
  "benefits:write",
  "checkouts:read",
  "checkouts:write",
  "orders:read",
  "refunds:read",
  "refunds:write",
  "subscriptions:read",
  "subscriptions:write",
  "webhooks:read",
  "webhooks:write",
];

/**
 * A buyer pays for the seller's product with the 4242 card, then waits (as the checkout page does)
 * until it has succeeded; answers the checkout's id and the status it was last seen in.
 */
export async function checkOut(gateway: Gateway, records: RequestRecord[], ledger: Ledger, seller: Seller, operation: string): Promise<{ id: string; status: string }> {
  const buyer = new Client(gateway, records);
  const checkout = await seller.api.send<{ id: string; client_secret: string }>(operation, "POST", "/v1/checkouts/", { body: { products: [seller.product.id] } });
  const token = await buyer.send<{ id: string }>(operation, "POST", "/v1/sandbox/confirmation-tokens", { body: { card_number: "4242424242424242", exp_month: 12, exp_year: nextYear, cvc: "123" } });
  const page = `/v1/checkouts/client/${checkout.client_secret}`;
  await buyer.send(operation, "POST", `${page}/confirm`, {
    route: "/v1/checkouts/client/{secret}/confirm",
    body: { customer_email: newEmail("buyer"), customer_billing_address: { country: "US", state: "NY", postal_code: "10001" }, confirmation_token_id: token.id },
  });
  ledger.confirmedCheckouts.push(checkout.id);
  let status = "confirmed";
  for (let poll = 0; poll < 150 && status === "confirmed"; poll++) {
    if (poll > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    ({ status } = await buyer.send<{ status: string }>(operation, "GET", page, { route: "/v1/checkouts/client/{secret}" }));
  }
  return { id: checkout.id, status };
}

/** How often, and how far apart, a refund whose answer did not come is asked for again (with the same key). */
const REFUND_ATTEMPTS = 15;
const REFUND_RETRY_MS = 1_000;

/**
 * A buyer's order, refunded in part by its seller as Polar's SDK would, with an Idempotency-Key: a
 * refund whose answer was lost (a 5xx, no answer) is asked for again with the same key, so it is
 * made once however often it is sent. One that never got an answer is left out of the ledger.
 */
async function refund(gateway: Gateway, records: RequestRecord[], ledger: Ledger, seller: Seller, operation: string): Promise<void> {
  const checkout = await checkOut(gateway, records, ledger, seller, operation);
  if (checkout.status !== "succeeded") return;
  const orders = await seller.api.send<{ items: { id: string }[] }>(operation, "GET", `/v1/orders/?checkout_id=${checkout.id}`, { route: "/v1/orders/?checkout_id={id}" });
  const order = orders.items[0];
  if (!order) throw new Error(`checkout ${checkout.id} succeeded without an order`);
  const key = `refund-${runId}-${++people}`;
  const body = { order_id: order.id, reason: "customer_request", amount: REFUND_AMOUNT, metadata: { load_key: key } };
  let first: RequestRecord | undefined;
  for (let attempt = 0; attempt < REFUND_ATTEMPTS; attempt++) {
    if (first) await new Promise((resolve) => setTimeout(resolve, REFUND_RETRY_MS));
    try {
      const made = await seller.api.send<{ id: string }>(operation, "POST", "/v1/refunds/", { body, headers: { "idempotency-key": key }, retryOf: first });
      ledger.refunds.push({ id: made.id, orderId: order.id, amount: REFUND_AMOUNT, key });
      return;
    } catch (error) {
      // Asked again: no answer, a failure of ours, or the first attempt still counted as in progress.
      if (!(error instanceof RequestFailed) || !(error.record.status === 0 || error.record.status >= 500 || error.record.status === 409)) throw error;
      first ??= error.record;
    }
  }
}

/** Part of the one-time product's 1,900: a refund leaves the rest of the order paid. */
const REFUND_AMOUNT = 500;

/** Everything a client of the mix can do, and how often, out of the weights' sum. */
const MIX = [
  { operation: "sign-up", weight: 3 },
  { operation: "organization", weight: 2 },
  { operation: "checkout", weight: 4 },
  { operation: "refund", weight: 1 },
  { operation: "subscribe", weight: 2 },
  { operation: "renew", weight: 1 },
] as const;

export interface Shops {
  /** Sellers of a one-time product, whose clocks never move. */
  oneTime: Seller[];
  /** Sellers of a monthly plan, whose clocks the load moves a month at a time. */
  monthly: Seller[];
}

/**
 * One client of the mix until `until()` says stop: each round picks an operation by weight. A failed
 * request ends its round (it is in the records); the client goes on with the next after a pause.
 */
export async function runClient(gateway: Gateway, records: RequestRecord[], ledger: Ledger, shops: Shops, until: () => boolean): Promise<void> {
  let person: Awaited<ReturnType<typeof signUp>> | null = null;
  const total = MIX.reduce((sum, entry) => sum + entry.weight, 0);
  const pick = <Item>(items: Item[]): Item => {
    const item = items[Math.floor(Math.random() * items.length)];
    if (item === undefined) throw new Error("nothing to pick from");
    return item;
  };
  while (!until()) {
    let roll = Math.random() * total;
    const { operation } = MIX.find((entry) => (roll -= entry.weight) < 0) ?? MIX[0];
    try {
      if (operation === "sign-up") {
        const { browser, email } = await signUp(gateway, records);
        await browser.send(operation, "POST", "/api/auth/sign-in/email", { body: { email, password: PASSWORD } });
        await browser.send(operation, "GET", "/api/auth/get-session");
      } else if (operation === "organization") {
        person ??= await signUp(gateway, records, operation);
        const slug = `org-${runId}-${++people}`;
        const created = await person.browser.send<{ id: string }>(operation, "POST", "/api/auth/organization/create", { body: { name: `Org ${slug}`, slug } });
        await person.browser.send(operation, "POST", "/api/auth/organization/update", { body: { organizationId: created.id, data: { name: `Renamed ${slug}` } } });
      } else if (operation === "checkout") {
        await checkOut(gateway, records, ledger, pick(shops.oneTime), operation);
      } else if (operation === "refund") {
        await refund(gateway, records, ledger, pick(shops.oneTime), operation);
      } else if (operation === "subscribe") {
        const seller = pick(shops.monthly);
        await seller.lock.hold(() => checkOut(gateway, records, ledger, seller, operation));
      } else {
        const seller = pick(shops.monthly);
        await seller.lock.hold(() => seller.api.send(operation, "POST", `/v1/sandbox/clock/${seller.organizationId}/advance`, { route: "/v1/sandbox/clock/{organization}/advance", body: { days: 31 } }));
      }
    } catch (error) {
      if (!(error instanceof RequestFailed)) throw error;
      // As a person or a seller's code would, rather than hammer a service that is down.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_AFTER_FAILURE_MS));
    }
  }
}

const PAUSE_AFTER_FAILURE_MS = 500;
