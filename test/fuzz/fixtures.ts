import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { PUBLIC_URL, ROOT_ADMIN, signInRootAdmin, type AuthStack, type Browser } from "../stacks/auth.js";
import { cardToken } from "../stacks/purchases.js";
import type { Seller } from "../stacks/billing.js";
import type { DispatcherStack } from "../stacks/dispatcher.js";
import { join, password, signedUp, type Person } from "../stacks/people.js";

/** Things the fuzzer first makes, so that requests naming them get past the 404. */
export type FixtureKind =
  | "organization"
  | "organization_slug"
  | "access_token"
  | "product"
  | "price"
  | "custom_field"
  | "discount"
  | "discount_code"
  | "benefit"
  | "benefit_grant"
  | "customer"
  | "customer_external_id"
  | "customer_email"
  | "checkout"
  | "checkout_client_secret"
  | "checkout_link"
  | "checkout_link_client_secret"
  | "order"
  | "subscription"
  | "license_key"
  | "license_key_key"
  | "license_key_activation"
  | "file"
  | "upload_token"
  | "confirmation_token"
  | "webhook_endpoint"
  | "webhook_event"
  | "webhook_url"
  | "team"
  | "user"
  | "member"
  | "invitation"
  | "email"
  | "password"
  | "session_token"
  | "member_session_token"
  | "provider_id";

/** Stands in a generated request for a fixture's id (or secret), resolved when the request is sent. */
export class Fixture {
  constructor(readonly kind: FixtureKind) {}

  [fc.toStringMethod](): string {
    return `fixture(${this.kind})`;
  }
}

/** Path parameters by the segment before them: `/v1/products/{id}` names a product. */
export const PATH_KINDS: Record<string, FixtureKind> = {
  "organizations/{id}": "organization",
  "organizations/{slug}": "organization_slug",
  "organization-access-tokens/{id}": "access_token",
  "products/{id}": "product",
  "custom-fields/{id}": "custom_field",
  "discounts/{id}": "discount",
  "benefits/{id}": "benefit",
  "benefit-grants/{id}": "benefit_grant",
  "customers/{id}": "customer",
  "external/{externalId}": "customer_external_id",
  "checkouts/{id}": "checkout",
  "client/{client_secret}": "checkout_client_secret",
  "checkout-links/{id}": "checkout_link",
  "checkout-links/{client_secret}": "checkout_link_client_secret",
  "orders/{id}": "order",
  "subscriptions/{id}": "subscription",
  "license-keys/{id}": "license_key",
  "activations/{activation_id}": "license_key_activation",
  "files/{id}": "file",
  "public/{id}": "file",
  "uploads/{token}": "upload_token",
  "clock/{organization_id}": "organization",
  "endpoints/{id}": "webhook_endpoint",
  "events/{id}": "webhook_event",
};

/**
 * Body and query fields by name (or `last-path-segment:name` where a name means different things),
 * in both APIs: `product_id` names a product, `organizationId` an organization.
 */
export const FIELD_KINDS: Record<string, FixtureKind> = {
  organization_id: "organization",
  product_id: "product",
  products: "product",
  product_price_id: "price",
  customer_id: "customer",
  external_customer_id: "customer_external_id",
  customer_email: "customer_email",
  checkout_id: "checkout",
  discount_id: "discount",
  discount_code: "discount_code",
  benefit_id: "benefit",
  benefits: "benefit",
  order_id: "order",
  subscription_id: "subscription",
  custom_field_id: "custom_field",
  key: "license_key_key",
  activation_id: "license_key_activation",
  medias: "file",
  files: "file",
  confirmation_token_id: "confirmation_token",
  endpoint_id: "webhook_endpoint",
  organizationId: "organization",
  organizationSlug: "organization_slug",
  teamId: "team",
  userId: "user",
  memberId: "member",
  memberIdOrEmail: "member",
  invitationId: "invitation",
  "get-invitation:id": "invitation",
  "get-user:id": "user",
  email: "email",
  password: "password",
  currentPassword: "password",
  token: "session_token",
  sessionToken: "member_session_token",
  providerId: "provider_id",
};

/** What a fixture stands for: known at once, or made when a request needs one (single-use things). */
export type FixtureValues = Partial<Record<FixtureKind, string | (() => Promise<string>)>>;

/** A generated value with every fixture replaced by what it stands for. */
export async function resolved(value: unknown, values: FixtureValues): Promise<unknown> {
  if (value instanceof Fixture) {
    const known = values[value.kind];
    if (known === undefined) throw new Error(`no fixture of kind ${value.kind}`);
    return typeof known === "string" ? known : known();
  }
  if (Array.isArray(value)) return Promise.all(value.map((item: unknown) => resolved(item, values)));
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty keeps a `__proto__` key an own property, as the mutation wrote it.
    Object.defineProperty(copy, key, { value: await resolved(child, values), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Answers every webhook delivery with 204, so the dispatcher sends them nowhere but here. */
export async function startWebhookReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server };
}

/** The cookie header a browser sends to the gateway. */
export const cookieOf = (browser: Browser, gatewayUrl: string) => browser.jar.getCookieString(gatewayUrl);

/** The session token inside a browser's signed session cookie (`token.signature`). */
export async function sessionTokenOf(browser: Browser, gatewayUrl: string): Promise<string> {
  const cookie = (await browser.jar.getCookies(gatewayUrl)).find((candidate) => candidate.key.endsWith("session_token"));
  if (!cookie) throw new Error("the browser holds no session");
  return decodeURIComponent(cookie.value).split(".")[0] ?? "";
}

/** A JSON request to the gateway that must succeed (a GET without a body, a POST with one unless told): how fixtures are made. */
async function made<T>(gatewayUrl: string, path: string, headers: Record<string, string>, body?: unknown, via: typeof fetch = fetch, method = body === undefined ? "GET" : "POST"): Promise<T> {
  const response = await via(`${gatewayUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", origin: PUBLIC_URL, ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`making a fixture: ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The /v1 fixtures: a seller's shop with one of everything, a customer with a subscription, and the people who call. */
export interface Shop {
  seller: Seller;
  /** A signed-in user who is no member of the shop: the customer's browser outside the portal. */
  buyer: Browser;
  /** The customer's portal session (`polar_cst_…`). */
  customerSession: string;
  values: FixtureValues;
}

let shops = 0;

export async function openShop(stack: DispatcherStack, webhookUrl: string): Promise<Shop> {
  shops += 1;
  const seller = await stack.seller();
  const asSeller = { authorization: `Bearer ${seller.token}` };
  const call = <T>(path: string, body?: unknown) => made<T>(stack.gateway.url, path, asSeller, body);
  const buyerEmail = `fuzz-buyer-${shops}-${Date.now()}@example.com`;
  const buyer = await signedUp(stack, buyerEmail, { verified: false });

  const licenses = await call<{ id: string }>("/v1/benefits/", { type: "license_keys", description: "Licence", properties: { activations: { limit: 50, enable_customer_admin: true } } });
  const note = await call<{ id: string }>("/v1/benefits/", { type: "custom", description: "Support", properties: { note: "Write to us" } });
  const plan = await call<{ id: string; prices: { id: string }[] }>("/v1/products/", { name: "Plan", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "usd" }] });
  await call(`/v1/products/${plan.id}/benefits`, { benefits: [licenses.id, note.id] });
  const paid = await call<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [plan.id] });
  const card = await cardToken(stack, "4242424242424242");
  await made(stack.gateway.url, `/v1/checkouts/client/${paid.client_secret}/confirm`, {}, { customer_email: buyerEmail, customer_billing_address: { country: "FR" }, confirmation_token_id: card });
  const subscription = await firstOf<{ id: string; customer_id: string }>(() => call(`/v1/subscriptions/?product_id=${plan.id}`));
  const customField = await call<{ id: string }>("/v1/custom-fields/", { type: "text", slug: "company", name: "Company", properties: {} });
  const discount = await call<{ id: string; code: string }>("/v1/discounts/", { name: "Friends", code: "FRIENDS", type: "percentage", basis_points: 1000, duration: "once" });
  const customer = await call<{ id: string; email: string }>("/v1/customers/", { email: `fuzz-customer-${shops}@example.com`, external_id: `external-${shops}` });
  const open = await call<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [plan.id] });
  const link = await call<{ id: string; client_secret: string }>("/v1/checkout-links/", { products: [plan.id] });
  const file = await call<{ id: string; upload: { parts: { url: string }[] } }>("/v1/files/", {
    service: "downloadable",
    name: "notes.txt",
    mime_type: "text/plain",
    size: 5,
    upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 4 }] },
  });
  const spareToken = await made<{ organization_access_token: { id: string } }>(stack.gateway.url, "/v1/organization-access-tokens/", {}, { organization_id: seller.organizationId, comment: "spare", scopes: ["products:read"] }, seller.owner.fetch);
  const endpoint = await call<{ id: string }>("/v1/webhooks/endpoints", { url: webhookUrl, format: "raw", events: ["product.updated", "customer.updated"] });
  const { token: customerSession } = await call<{ token: string }>("/v1/customer-sessions/", { customer_id: subscription.customer_id });
  const key = await firstOf<{ id: string; key: string }>(() => call(`/v1/license-keys/?benefit_id=${licenses.id}`));
  const grant = await firstOf<{ id: string }>(() => call(`/v1/benefits/${licenses.id}/grants`));
  const activation = await call<{ id: string }>("/v1/customer-portal/license-keys/activate", { key: key.key, organization_id: seller.organizationId, label: "fuzz" });
  // A change the endpoint listens for, so that a delivery (and its event) exists.
  await made(stack.gateway.url, `/v1/products/${plan.id}`, asSeller, { description: "Renamed for the fuzzer" }, fetch, "PATCH");
  const event = await firstOf<{ webhook_event: { id: string } }>(() => call("/v1/webhooks/deliveries"));
  const organization = await call<{ slug: string }>(`/v1/organizations/${seller.organizationId}`);
  const [order] = (await call<{ items: { id: string }[] }>(`/v1/orders/?checkout_id=${paid.id}`)).items;

  return {
    seller,
    buyer,
    customerSession,
    values: {
      organization: seller.organizationId,
      organization_slug: organization.slug,
      access_token: spareToken.organization_access_token.id,
      product: plan.id,
      price: plan.prices[0]?.id ?? "",
      custom_field: customField.id,
      discount: discount.id,
      discount_code: discount.code,
      benefit: licenses.id,
      benefit_grant: grant.id,
      customer: customer.id,
      customer_external_id: `external-${shops}`,
      customer_email: customer.email,
      checkout: open.id,
      checkout_client_secret: open.client_secret,
      checkout_link: link.id,
      checkout_link_client_secret: link.client_secret,
      order: order?.id ?? "",
      subscription: subscription.id,
      license_key: key.id,
      license_key_key: key.key,
      license_key_activation: activation.id,
      file: file.id,
      upload_token: new URL(file.upload.parts[0]?.url ?? "http://missing/").pathname.split("/").pop() ?? "",
      confirmation_token: () => cardToken(stack, "4242424242424242"),
      webhook_endpoint: endpoint.id,
      webhook_event: event.webhook_event.id,
      webhook_url: webhookUrl,
    },
  };
}

/** The first item of a list that fills in as events are handled. */
async function firstOf<T>(list: () => Promise<{ items: T[] }>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [first] = (await list()).items;
    if (first) return first;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("a fixture never appeared");
}

/**
 * The /api/auth fixtures, made anew for each operation so that none is blinded by what another did:
 * an owner with an organization (its team, a member, a pending invitation) and a plain user.
 */
export interface Club {
  owner: Person;
  /** A signed-in user of no organization, invited to this one: the "customer" of /api/auth. */
  plain: Person;
  member: Person;
  values: FixtureValues;
}

let clubs = 0;

export async function openClub(stack: AuthStack): Promise<Club> {
  clubs += 1;
  const tag = `${clubs}-${Date.now()}`;
  const [owner, member, plain] = await Promise.all([
    signedUp(stack, `fuzz-owner-${tag}@example.com`, { verified: false }),
    signedUp(stack, `fuzz-member-${tag}@example.com`),
    signedUp(stack, `fuzz-plain-${tag}@example.com`),
  ]);
  const organization = await made<{ id: string; slug: string }>(stack.gateway.url, "/api/auth/organization/create", {}, { name: `Club ${tag}`, slug: `club-${tag}` }, owner.fetch);
  const [joined, invitation, teams] = await Promise.all([
    join(owner, organization.id, member),
    made<{ id: string }>(stack.gateway.url, "/api/auth/organization/invite-member", {}, { email: plain.email, role: "member", organizationId: organization.id }, owner.fetch),
    made<{ id: string }[]>(stack.gateway.url, `/api/auth/organization/list-teams?organizationId=${organization.id}`, {}, undefined, owner.fetch),
  ]);
  return {
    owner,
    member,
    plain,
    values: {
      organization: organization.id,
      organization_slug: organization.slug,
      team: teams[0]?.id ?? "",
      user: member.id,
      member: joined.id,
      invitation: invitation.id,
      email: owner.email,
      password,
      member_session_token: await sessionTokenOf(member, stack.gateway.url),
      provider_id: "credential",
    },
  };
}

/** Signs a person in again in a browser of its own: a fresh session, whatever became of the last one. Null when they can no longer sign in. */
export async function freshSession(stack: AuthStack, email: string, secret = password): Promise<Browser | null> {
  const browser = stack.browser();
  const { data } = await browser.client.signIn.email({ email, password: secret });
  return data ? browser : null;
}

/** The platform admin (ROOT_ADMIN, named in ADMIN_USER_IDS), signed in afresh. */
export async function freshAdmin(stack: AuthStack): Promise<Browser> {
  const session = await freshSession(stack, ROOT_ADMIN.email, ROOT_ADMIN.password);
  return session ?? signInRootAdmin(stack);
}
