import { describe, expect, it } from "vitest";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const ingest = (seller: Seller, events: unknown[]) =>
  fetch(`${stack.gateway.url}/v1/events/ingest`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` }, body: JSON.stringify({ events }) });

describe("usage events", () => {
  it("are ingested in batches, duplicates by external_id ignored and counted, and listed with their customer", async () => {
    const seller = await stack.seller();
    const customer = await seller.polar.customers.create({ email: `events-${Date.now()}@example.com`, externalId: "user-42" });
    const first = await seller.polar.events.ingest({
      events: [
        { name: "signup", externalCustomerId: "user-42", externalId: "evt-1", metadata: { plan: "pro", seats: 3, trial: true } },
        { name: "signup", externalCustomerId: "user-42", externalId: "evt-1" },
        { name: "login", customerId: customer.id, externalId: "evt-2" },
      ],
    });
    expect(first).toEqual({ inserted: 2, duplicates: 1 });
    const again = await seller.polar.events.ingest({ events: [{ name: "login", customerId: customer.id, externalId: "evt-2" }, { name: "login", customerId: customer.id }] });
    expect(again).toEqual({ inserted: 1, duplicates: 1 });

    const listed = await seller.polar.events.list({ name: "signup" });
    expect(listed.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    const [signup] = listed.items;
    expect(signup).toMatchObject({ name: "signup", source: "user", customerId: customer.id, externalCustomerId: "user-42", metadata: { plan: "pro", seats: 3, trial: true } });
    expect(signup && "customer" in signup ? signup.customer?.email : null).toBe(customer.email);
    expect(await seller.polar.events.get({ id: signup?.id ?? "" })).toMatchObject({ id: signup?.id, name: "signup" });
    expect((await seller.polar.events.list({ customerId: customer.id, limit: 100 })).items).toHaveLength(3);

    const names = async () => (await seller.polar.events.listNames({ sorting: ["name"] })).result.items.map(({ name, occurrences }) => ({ name, occurrences }));
    await expect.poll(names).toEqual([
      { name: "login", occurrences: 2 },
      { name: "signup", occurrences: 1 },
    ]);
    await expect(shop.polar.events.get({ id: signup?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("refuse a batch whole, naming each bad event by its index", async () => {
    const seller = await stack.seller();
    const customer = await seller.polar.customers.create({ email: `refused-${Date.now()}@example.com` });
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const refused = await ingest(seller, [
      { name: "ok", customer_id: customer.id },
      { name: "nested", customer_id: customer.id, metadata: { deep: { a: 1 } } },
      { name: "stranger", customer_id: "not-a-customer" },
      { name: "later", customer_id: customer.id, timestamp: future },
      { name: "nobody" },
    ]);
    expect(refused.status).toBe(422);
    const { detail } = (await refused.json()) as { detail: { loc: (string | number)[]; msg: string }[] };
    expect(detail.map((issue) => issue.loc.slice(1, 3))).toEqual([
      ["events", 1],
      ["events", 4],
    ]);
    // Unknown customers and times after the seller's now are found once the batch's shape is right, and refused the same way.
    const unknown = seller.polar.events.ingest({
      events: [
        { name: "ok", customerId: customer.id },
        { name: "stranger", customerId: "not-a-customer" },
        { name: "later", customerId: customer.id, timestamp: new Date(future) },
      ],
    });
    await expect(unknown).rejects.toMatchObject({
      detail: [
        { loc: ["body", "events", 1, "customer_id"], msg: "Customer not found.", type: "customer_id", input: "not-a-customer" },
        { loc: ["body", "events", 2, "timestamp"], msg: "Timestamp must be in the past.", input: future },
      ],
    });
    expect((await seller.polar.events.list({})).items).toEqual([]);
  });

  it("are listed as Polar filters them: by meter, filter, metadata, customer, time and hierarchy", async () => {
    const seller = await stack.seller();
    const externalId = `late-${Date.now()}`;
    const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 12, minute));
    // Sent for the customer's external id before the customer exists: still theirs once it does.
    await seller.polar.events.ingest({ events: [{ name: "api.call", externalCustomerId: externalId, timestamp: at(1), metadata: { model: "gpt-4o", tokens: 10 } }] });
    const customer = await seller.polar.customers.create({ email: `listed-${Date.now()}@example.com`, externalId });
    await seller.polar.events.ingest({
      events: [
        { name: "api.call", customerId: customer.id, timestamp: at(2), metadata: { model: "claude", tokens: "many" } },
        { name: "upload", customerId: customer.id, timestamp: at(3), metadata: { model: "gpt-4o", size: 5 } },
        { name: "request", customerId: customer.id, timestamp: at(4), externalId: "request-1" },
      ],
    });
    const names = async (request: Parameters<typeof seller.polar.events.list>[0]) => {
      const { items, pagination } = await seller.polar.events.list({ ...request, sorting: ["timestamp"], limit: 100 });
      expect(pagination).toMatchObject({ totalCount: items.length });
      return items.map((event) => `${event.name}@${event.timestamp.getUTCMinutes()}`);
    };
    const [request] = (await seller.polar.events.list({ name: "request" })).items;
    const step = await seller.polar.events.ingest({ events: [{ name: "llm", customerId: customer.id, timestamp: at(5), parentId: request?.id }] });
    expect(step.inserted).toBe(1);
    const [llm] = (await seller.polar.events.list({ name: "llm" })).items;
    await seller.polar.events.ingest({ events: [{ name: "tokens", customerId: customer.id, timestamp: at(6), parentId: llm?.id, metadata: { model: "gpt-4o" } }] });

    expect(await names({ customerId: customer.id })).toEqual(["api.call@1", "api.call@2", "upload@3", "request@4", "llm@5", "tokens@6"]);
    expect(await names({ externalCustomerId: externalId, name: "api.call" })).toEqual(["api.call@1", "api.call@2"]);
    // Timestamps bound the list exclusively.
    expect(await names({ startTimestamp: at(1), endTimestamp: at(3) })).toEqual(["api.call@2"]);

    const calls = { conjunction: "and" as const, clauses: [{ property: "name", operator: "eq" as const, value: "api.call" }] };
    const counted = await seller.polar.meters.create({ name: "Calls", filter: calls, aggregation: { func: "count" } });
    const summed = await seller.polar.meters.create({ name: "Tokens", filter: calls, aggregation: { func: "sum", property: "tokens" } });
    expect(await names({ meterId: counted.id })).toEqual(["api.call@1", "api.call@2"]);
    // An event without a number to sum is not one the meter measures.
    expect(await names({ meterId: summed.id })).toEqual(["api.call@1"]);
    await expect(seller.polar.events.list({ meterId: "no-such-meter" })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["query", "meter_id"], msg: "Meter not found." }] });

    const gpt = { conjunction: "or", clauses: [{ property: "model", operator: "like", value: "gpt" }, { property: "metadata.size", operator: "gte", value: 5 }] };
    expect(await names({ filter: JSON.stringify(gpt) })).toEqual(["api.call@1", "upload@3", "tokens@6"]);
    expect(await names({ filter: JSON.stringify({ conjunction: "and", clauses: [gpt, { property: "name", operator: "ne", value: "tokens" }] }) })).toEqual(["api.call@1", "upload@3"]);
    await expect(seller.polar.events.list({ filter: "{not json" })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["query", "filter"] }] });

    expect(await names({ metadata: { model: "gpt-4o" } })).toEqual(["api.call@1", "upload@3", "tokens@6"]);
    expect(await names({ metadata: { model: ["claude", "gpt-4o"], size: 5 } })).toEqual(["upload@3"]);
    expect(await names({ query: "claude" })).toEqual(["api.call@2"]);

    // Roots only; roots and their children; what lies under an event, down to a depth.
    expect(await names({ depth: 0 })).toEqual(["api.call@1", "api.call@2", "upload@3", "request@4"]);
    expect(await names({ depth: 1, name: ["request", "llm", "tokens"] })).toEqual(["request@4", "llm@5"]);
    expect(await names({ depth: 1, parentId: request?.id })).toEqual(["llm@5"]);
    expect(await names({ depth: 2, parentId: request?.id })).toEqual(["llm@5", "tokens@6"]);
    expect(request?.childCount).toBe(0);
    expect((await seller.polar.events.get({ id: request?.id ?? "" })).childCount).toBe(1);
  });
});
