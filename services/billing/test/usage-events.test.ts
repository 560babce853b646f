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
      ["events", 3],
      ["events", 4],
    ]);
    // Unknown customers are found once the batch's shape is right, and refused the same way.
    const unknown = seller.polar.events.ingest({ events: [{ name: "ok", customerId: customer.id }, { name: "stranger", customerId: "not-a-customer" }] });
    await expect(unknown).rejects.toMatchObject({ detail: [{ loc: ["body", "events", 1, "customer_id"], msg: "Customer not found.", type: "customer_id", input: "not-a-customer" }] });
    expect((await seller.polar.events.list({})).items).toEqual([]);
  });
});
