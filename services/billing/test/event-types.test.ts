import { describe, expect, inject, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { createDatabase as connectTo, migrate } from "@tollgate/kit";
import { createDatabase, databaseUrl } from "@tollgate/kit/testing";
import { billingMigrations } from "../src/migrations/index.js";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
useShop((opened) => ({ stack } = opened));

type Polar = ReturnType<typeof createPolar>;
type EventTypesQuery = NonNullable<Parameters<Polar["eventTypes"]["list"]>[0]>;
type NamesQuery = NonNullable<Parameters<Polar["events"]["listNames"]>[0]>;

/** The seller's code talking to Polar: SDK 1.x with their token. */
const sdkOf = (seller: Seller): Polar => createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
const sellerSdk = async () => sdkOf(await stack.seller());

const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();

/** Each listed name with its label and occurrences, in the order listed. */
const typesOf = async (polar: Polar, query: EventTypesQuery = {}) =>
  (await polar.eventTypes.list({ sorting: ["name"], limit: 100, ...query })).items.map(({ name, label, occurrences }) => ({ name, label, occurrences }));
const namesOf = async (polar: Polar, query: NamesQuery = {}) =>
  (await polar.events.listNames({ sorting: ["name"], limit: 100, ...query })).items.map(({ name, label, occurrences }) => ({ name, label, occurrences }));

describe("event types", () => {
  it("are made as events bring new names, listed with their events' statistics, narrowed as Polar narrows them", async () => {
    const polar = await sellerSdk();
    const ada = await polar.customers.create({ email: `ada-${Date.now()}@example.com`, external_id: "ada-1" });
    const bob = await polar.customers.create({ email: `bob-${Date.now()}@example.com` });
    await polar.events.ingest({
      events: [
        { name: "api.call", customer_id: ada.id, timestamp: at(2) },
        { name: "api.call", external_customer_id: "ada-1", timestamp: at(5) },
        { name: "api.call", customer_id: bob.id, timestamp: at(9) },
        { name: "upload", customer_id: bob.id, timestamp: at(3) },
        // Sent for a customer the seller has not told us of yet: theirs once they are.
        { name: "upload", external_customer_id: "carol-1", timestamp: at(4) },
        { name: "request", customer_id: ada.id, external_id: "request-1", timestamp: at(6) },
        { name: "llm", customer_id: ada.id, parent_id: "request-1", timestamp: at(7) },
      ],
    });

    // The seller's whole history is counted as the events are measured.
    await expect
      .poll(() => typesOf(polar))
      .toEqual([
        { name: "api.call", label: "api.call", occurrences: 3 },
        { name: "llm", label: "llm", occurrences: 1 },
        { name: "request", label: "request", occurrences: 1 },
        { name: "upload", label: "upload", occurrences: 2 },
      ]);
    const listed = await polar.eventTypes.list({ query: "api" });
    expect(listed.pagination).toEqual({ total_count: 1, max_page: 1 });
    const [apiCall] = listed.items;
    expect(apiCall).toMatchObject({ name: "api.call", label_property_selector: null, source: "user", first_seen: at(2), last_seen: at(9) });
    expect(apiCall?.id).toEqual(expect.any(String));
    expect(apiCall?.organization_id).toBe(ada.organization_id);

    expect(await typesOf(polar, { customer_id: ada.id })).toEqual([
      { name: "api.call", label: "api.call", occurrences: 2 },
      { name: "llm", label: "llm", occurrences: 1 },
      { name: "request", label: "request", occurrences: 1 },
    ]);
    expect(await typesOf(polar, { external_customer_id: "ada-1" })).toEqual(await typesOf(polar, { customer_id: ada.id }));
    expect(await typesOf(polar, { customer_id: bob.id, external_customer_id: "carol-1" })).toEqual([
      { name: "api.call", label: "api.call", occurrences: 1 },
      { name: "upload", label: "upload", occurrences: 2 },
    ]);
    expect((await typesOf(polar, { root_events: true })).map(({ name }) => name)).toEqual(["api.call", "request", "upload"]);
    const [request] = (await polar.events.list({ name: "request" })).items;
    expect(await typesOf(polar, { parent_id: request?.id })).toEqual([{ name: "llm", label: "llm", occurrences: 1 }]);
    expect(await typesOf(polar, { source: "system" })).toEqual([]);
    expect((await typesOf(polar, { sorting: ["-occurrences", "name"] })).map(({ name }) => name)).toEqual(["api.call", "upload", "llm", "request"]);
    const firstPage = await polar.eventTypes.list({ sorting: ["first_seen"], limit: 2, page: 2 });
    expect(firstPage.items.map(({ name }) => name)).toEqual(["request", "llm"]);
    expect(firstPage.pagination).toEqual({ total_count: 4, max_page: 2 });

    // Another seller's names are neither counted nor listed.
    expect(await typesOf(await sellerSdk())).toEqual([]);
  });

  it("take the seller's label, shown in the list of event types and in the list of names", async () => {
    const polar = await sellerSdk();
    const ada = await polar.customers.create({ email: `ada-${Date.now()}@example.com` });
    const bob = await polar.customers.create({ email: `bob-${Date.now()}@example.com`, external_id: "bob-1" });
    await polar.events.ingest({
      events: [
        { name: "upload", customer_id: ada.id, metadata: { file: "report.pdf" } },
        { name: "tokens", customer_id: ada.id },
        { name: "tokens", external_customer_id: "bob-1" },
      ],
    });
    await expect.poll(async () => (await typesOf(polar)).length).toBe(2);
    const [upload] = (await polar.eventTypes.list({ query: "upload" })).items;

    const relabelled = await polar.eventTypes.update(upload?.id ?? "", { label: "  File upload ", label_property_selector: "file" });
    expect(relabelled).toMatchObject({ id: upload?.id, name: "upload", label: "File upload", label_property_selector: "file", organization_id: upload?.organization_id });
    expect(relabelled.modified_at).toEqual(expect.any(String));

    expect(await typesOf(polar, { sorting: ["-label"] })).toEqual([
      { name: "tokens", label: "tokens", occurrences: 2 },
      { name: "upload", label: "File upload", occurrences: 1 },
    ]);
    expect((await typesOf(polar, { query: "FILE" })).map(({ name }) => name)).toEqual(["upload"]);
    expect(await namesOf(polar)).toEqual([
      { name: "tokens", label: "tokens", occurrences: 2 },
      { name: "upload", label: "File upload", occurrences: 1 },
    ]);
    // A customer's names, known by their id or by the seller's id for them.
    expect(await namesOf(polar, { customer_id: bob.id })).toEqual([{ name: "tokens", label: "tokens", occurrences: 1 }]);
    expect(await namesOf(polar, { external_customer_id: "bob-1" })).toEqual([{ name: "tokens", label: "tokens", occurrences: 1 }]);
    expect(await namesOf(polar, { customer_id: ada.id, query: "up" })).toEqual([{ name: "upload", label: "File upload", occurrences: 1 }]);
    // Each event is labelled by what its type's selector finds in its metadata, else by its type's label.
    const labelled = async () => Object.fromEntries((await polar.events.list({ customer_id: ada.id })).items.map((event) => [event.name, event.label]));
    expect(await labelled()).toEqual({ upload: "report.pdf", tokens: "tokens" });

    // As Polar, an update that sends no selector leaves the type without one.
    expect(await polar.eventTypes.update(upload?.id ?? "", { label: "Upload" })).toMatchObject({ label: "Upload", label_property_selector: null });
    expect(await labelled()).toEqual({ upload: "Upload", tokens: "tokens" });
  });

  it("are another seller's to change: theirs, or an unknown id, is not found, and a bad label is refused", async () => {
    const seller = await stack.seller();
    const polar = sdkOf(seller);
    const customer = await polar.customers.create({ email: `ada-${Date.now()}@example.com` });
    await polar.events.ingest({ events: [{ name: "signup", customer_id: customer.id }] });
    await expect.poll(async () => (await polar.eventTypes.list({})).items.length).toBe(1);
    const [signup] = (await polar.eventTypes.list({})).items;
    const id = signup?.id ?? "";

    await expect((await sellerSdk()).eventTypes.update(id, { label: "Mine now" })).rejects.toMatchObject({ statusCode: 404, error: { error: "ResourceNotFound" } });
    await expect(polar.eventTypes.update("no-such-type", { label: "Nothing" })).rejects.toMatchObject({ statusCode: 404 });
    for (const label of ["   ", "x".repeat(129)]) {
      await expect(polar.eventTypes.update(id, { label }), JSON.stringify(label)).rejects.toMatchObject({ statusCode: 422, error: { detail: [expect.objectContaining({ loc: ["body", "label"] })] } });
    }
    const unlabelled = await fetch(`${stack.gateway.url}/v1/event-types/${id}`, { method: "PATCH", headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` }, body: JSON.stringify({}) });
    expect(unlabelled.status).toBe(422);
    expect((await polar.eventTypes.list({})).items[0]?.label).toBe("signup");
  });

  it("are made once for a name that concurrent batches bring together", async () => {
    const polar = await sellerSdk();
    const customer = await polar.customers.create({ email: `ada-${Date.now()}@example.com` });
    const names = ["alpha", "beta", "gamma", "delta"];
    // Each batch sends the new names in another order: they must neither deadlock nor make a type twice.
    await Promise.all(
      names.map((_, shift) => polar.events.ingest({ events: [...names.slice(shift), ...names.slice(0, shift)].map((name) => ({ name, customer_id: customer.id })) })),
    );
    await expect
      .poll(() => typesOf(polar))
      .toEqual(["alpha", "beta", "delta", "gamma"].map((name) => ({ name, label: name, occurrences: 4 })));
  });
});

describe("event types' migration", () => {
  it("makes a type for each name of the events already stored, of the sellers billing knows", async () => {
    const { postgresUrl, runId } = inject("tollgate");
    const database = `${runId}_event_types_backfill`;
    await createDatabase(postgresUrl, database);
    const url = databaseUrl(postgresUrl, database);
    const before = Object.fromEntries(Object.entries(billingMigrations).filter(([name]) => name !== "0035_event_types"));
    await migrate({ url, schema: "billing" }, before);
    const db = connectTo({ url, schema: "billing", poolMax: 1 });
    try {
      await db("organizations").insert({ id: "org-1", name: "Shop", slug: "shop" });
      const event = (id: string, organizationId: string, name: string) => ({ id, organization_id: organizationId, name, timestamp: new Date() });
      await db("usage_events").insert([event("e1", "org-1", "upload"), event("e2", "org-1", "upload"), event("e3", "org-1", "login"), event("e4", "org-gone", "upload")]);

      await migrate({ url, schema: "billing" }, billingMigrations);
      const made = await db("event_types").orderBy("name").select("organization_id", "name", "label", "label_property_selector");
      expect(made).toEqual([
        { organization_id: "org-1", name: "login", label: "login", label_property_selector: null },
        { organization_id: "org-1", name: "upload", label: "upload", label_property_selector: null },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
