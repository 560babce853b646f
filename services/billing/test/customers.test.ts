import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { createPolar } from "polar-sdk-1/2026-10";
import { startBillingStack, type BillingStack, type Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

beforeAll(async () => {
  stack = await startBillingStack({ CUSTOMER_STATE_DEBOUNCE_MS: "300" });
  shop = await stack.seller();
});

afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

const eventsAbout = async (type: string, customerId: string) =>
  (await publishedEvents(stack.billing.context.bus)).filter((event) => event.type === `billing.${type}` && (event.data.payload as { id?: string }).id === customerId);

describe("customers", () => {
  it("are created with a lower-cased address, found by id or external id, and updated", async () => {
    const customer = await shop.polar.customers.create({
      email: "Ada@Example.COM",
      name: "Ada Lovelace",
      externalId: "user_1",
      billingAddress: { country: "GB", city: "London", line1: "12 St James's Square", postalCode: "SW1Y 4JH" },
      taxId: "GB123456789",
      metadata: { plan: "pro", seats: 3 },
    });
    expect(customer).toMatchObject({
      email: "ada@example.com",
      emailVerified: false,
      type: "individual",
      name: "Ada Lovelace",
      externalId: "user_1",
      organizationId: shop.organizationId,
      deletedAt: null,
      metadata: { plan: "pro", seats: 3 },
      billingAddress: { country: "GB", city: "London", line1: "12 St James's Square", postalCode: "SW1Y 4JH", line2: null, state: null },
    });
    expect(customer.taxId?.[0]).toBe("GB123456789");
    expect(customer.avatarUrl).toMatch(/^https:\/\//);

    expect((await shop.polar.customers.getExternal({ externalId: "user_1" })).id).toBe(customer.id);
    const renamed = await shop.polar.customers.update({ id: customer.id, customerUpdate: { name: "Ada King" } });
    expect(renamed.name).toBe("Ada King");
    const viaExternal = await shop.polar.customers.updateExternal({ externalId: "user_1", customerUpdateExternalID: { metadata: { plan: "team" } } });
    expect(viaExternal.metadata).toEqual({ plan: "team" });

    await expect.poll(async () => (await eventsAbout("customer.created", customer.id)).length).toBe(1);
    await expect.poll(async () => (await eventsAbout("customer.updated", customer.id)).length).toBe(2);
  });

  it("keep addresses unique per organization and an external id once set", async () => {
    await shop.polar.customers.create({ email: "grace@example.com" });
    const twin = await call("/v1/customers/", { method: "POST", body: JSON.stringify({ email: "GRACE@example.com" }) });
    expect(twin.status).toBe(422);
    expect(await twin.json()).toEqual({ detail: [{ loc: ["body", "email"], msg: "A customer with this email address already exists.", type: "value_error", input: "grace@example.com" }] });

    const later = await shop.polar.customers.create({ email: "linus@example.com" });
    const set = await shop.polar.customers.update({ id: later.id, customerUpdate: { externalId: "user_9" } });
    expect(set.externalId).toBe("user_9");
    const moved = await call(`/v1/customers/${later.id}`, { method: "PATCH", body: JSON.stringify({ external_id: "user_10" }) });
    expect(await moved.json()).toMatchObject({ detail: [{ loc: ["body", "external_id"], msg: "Customer external ID cannot be updated." }] });
    const taken = await call("/v1/customers/", { method: "POST", body: JSON.stringify({ email: "other@example.com", external_id: "user_9" }) });
    expect(await taken.json()).toMatchObject({ detail: [{ loc: ["body", "external_id"], msg: "A customer with this external ID already exists." }] });
  });

  it("are listed with paging, search, e-mail and metadata filters", async () => {
    for (let index = 0; index < 12; index++) await shop.polar.customers.create({ email: `bulk${index}@example.com`, metadata: { batch: index % 2 === 0 ? "even" : "odd" } });
    const page = await shop.polar.customers.list({ query: "bulk", limit: 5, page: 3, sorting: ["email"] });
    expect(page.result.pagination).toEqual({ totalCount: 12, maxPage: 3 });
    expect(page.result.items.map((customer) => customer.email)).toEqual(["bulk8@example.com", "bulk9@example.com"]);
    const exact = await shop.polar.customers.list({ email: "BULK3@example.com" });
    expect(exact.result.items.map((customer) => customer.email)).toEqual(["bulk3@example.com"]);
    const even = await call("/v1/customers/?metadata[batch]=even&limit=100");
    expect(((await even.json()) as { items: unknown[] }).items).toHaveLength(6);
    const capped = await call("/v1/customers/?limit=500");
    expect(((await capped.json()) as { items: unknown[] }).items.length).toBeLessThanOrEqual(100);
  });

  it("have a state, announced once after a burst of changes", async () => {
    const customer = await shop.polar.customers.create({ email: "burst@example.com" });
    for (const name of ["One", "Two", "Three"]) await shop.polar.customers.update({ id: customer.id, customerUpdate: { name } });
    const state = await shop.polar.customers.getState({ id: customer.id });
    expect(state).toMatchObject({ id: customer.id, email: "burst@example.com", name: "Three", activeSubscriptions: [], grantedBenefits: [], activeMeters: [] });
    await expect.poll(async () => (await eventsAbout("customer.state_changed", customer.id)).length, { timeout: 5_000 }).toBe(1);
    const [announced] = await eventsAbout("customer.state_changed", customer.id);
    expect(announced?.data.payload).toMatchObject({ name: "Three", active_subscriptions: [], granted_benefits: [] });
    // Nothing more comes for the same burst.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await eventsAbout("customer.state_changed", customer.id)).toHaveLength(1);
    expect((await shop.polar.customers.getStateExternal({ externalId: "missing" }).catch((error: unknown) => error)) as object).toMatchObject({ error: "ResourceNotFound" });
  });

  it("are deleted softly, or anonymized, and their address may be used again", async () => {
    const customer = await shop.polar.customers.create({ email: "leaving@example.com", externalId: "user_leaving", name: "Leaving" });
    await shop.polar.customers.delete({ id: customer.id });
    await expect(shop.polar.customers.get({ id: customer.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    await expect.poll(async () => (await eventsAbout("customer.deleted", customer.id)).length).toBe(1);
    expect((await shop.polar.customers.create({ email: "leaving@example.com" })).email).toBe("leaving@example.com");

    const anonymous = await shop.polar.customers.create({ email: "private@example.com", externalId: "user_private", name: "Private" });
    await shop.polar.customers.deleteExternal({ externalId: "user_private", anonymize: true });
    const stored = await stack.billing.context.db("customers").where({ id: anonymous.id }).first<{ email: string; name: string | null; external_id: string | null }>();
    expect(stored).toMatchObject({ name: null, external_id: null });
    expect(stored?.email).not.toContain("private@");
  });

  it("belong to their organization alone", async () => {
    const other = await stack.seller();
    const theirs = await other.polar.customers.create({ email: "theirs@example.com", externalId: "their_user" });
    await expect(shop.polar.customers.get({ id: theirs.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    await expect(shop.polar.customers.getExternal({ externalId: "their_user" })).rejects.toMatchObject({ error: "ResourceNotFound" });
    // The same address is a different customer of another seller.
    expect((await shop.polar.customers.create({ email: "theirs@example.com" })).organizationId).toBe(shop.organizationId);
  });

  it("tell through SDK 1.x when the first event the seller sent about them happened, by id or external id", async () => {
    const polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const byId = await polar.customers.create({ email: "first-event@example.com" });
    const byExternalId = await polar.customers.create({ email: "first-external@example.com", external_id: "first-external" });
    expect(byId.first_user_event_at).toBeNull();
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).toISOString();
    await polar.events.ingest({ events: [
      { name: "api.call", customer_id: byId.id, timestamp: at(10) },
      { name: "api.call", customer_id: byId.id, timestamp: at(12) },
      { name: "api.call", external_customer_id: "first-external", timestamp: at(11) },
    ] });
    await expect.poll(async () => (await polar.customers.get(byId.id)).first_user_event_at, { timeout: 10_000 }).toBe(at(10));
    await expect.poll(async () => (await polar.customers.getExternal("first-external")).first_user_event_at, { timeout: 10_000 }).toBe(at(11));
    // An earlier event sent late moves it back; a later one never forward.
    await polar.events.ingest({ events: [{ name: "api.call", customer_id: byId.id, timestamp: at(8) }, { name: "api.call", external_customer_id: "first-external", timestamp: at(20) }] });
    await expect.poll(async () => (await polar.customers.get(byId.id)).first_user_event_at, { timeout: 10_000 }).toBe(at(8));
    expect((await polar.customers.get(byExternalId.id)).first_user_event_at).toBe(at(11));
    // It travels with the customer wherever Polar shows one.
    expect((await polar.customers.list({ email: "first-event@example.com" })).items[0]?.first_user_event_at).toBe(at(8));

    // Events sent under an external id before anyone had it count for the customer who takes it, made with it or given it later.
    await polar.events.ingest({ events: [
      { name: "api.call", external_customer_id: "named-early", timestamp: at(5) },
      { name: "api.call", external_customer_id: "named-later", timestamp: at(6) },
      { name: "api.call", external_customer_id: "named-later", timestamp: at(7) },
    ] });
    expect((await polar.customers.create({ email: "early@example.com", external_id: "named-early" })).first_user_event_at).toBe(at(5));
    const later = await polar.customers.create({ email: "later@example.com" });
    expect(later.first_user_event_at).toBeNull();
    expect((await polar.customers.update(later.id, { external_id: "named-later" })).first_user_event_at).toBe(at(6));
  });

  it("export as CSV through SDK 1.x: every customer of the seller with Polar's columns, the address spread out, metadata as JSON, formulas neutralised", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const ada = await polar.customers.create({ email: "ada@example.com", name: "=cmd|' /C calc'!A0", external_id: "user-ada", metadata: { plan: "pro" }, billing_address: { country: "DE", city: "Berlin", line1: "Unter den Linden 1", postal_code: "10117" } });
    const bob = await polar.customers.create({ email: "bob@example.com" });
    const gone = await polar.customers.create({ email: "gone@example.com" });
    await polar.customers.delete(gone.id);
    await (await stack.seller()).polar.customers.create({ email: "elsewhere@example.com" });

    const [header, ...rows] = (await polar.customers.export({})).trimEnd().split("\r\n");
    expect(header).toBe("ID,External ID,Created At,Email,Name,Tax ID,Billing Address Line 1,Billing Address Line 2,Billing Address City,Billing Address State,Billing Address Zip,Billing Address Country,Metadata");
    expect(rows).toEqual([
      `${ada.id},user-ada,${new Date(ada.created_at).toISOString()},ada@example.com,'=cmd|' /C calc'!A0,,Unter den Linden 1,,Berlin,,10117,DE,"{""plan"":""pro""}"`,
      `${bob.id},,${new Date(bob.created_at).toISOString()},bob@example.com,,,,,,,,,`,
    ]);
  });
});
