import { describe, expect, it } from "vitest";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import type { EventCreateCustomer } from "@polar-sh/sdk/models/components/eventcreatecustomer.js";
import type { Filter } from "@polar-sh/sdk/models/components/filter.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const at = (iso: string) => new Date(iso);

describe("meters", () => {
  it("measure events through each aggregation and filter, in daily quantities with the total", async () => {
    const customer = await shop.polar.customers.create({ email: `meters-${Date.now()}@example.com` });
    const events: EventCreateCustomer[] = [
      { name: "api.call", customerId: customer.id, timestamp: at("2026-03-01T10:00:00Z"), metadata: { tokens: 10, model: "gpt-4o", cached: false } },
      { name: "api.call", customerId: customer.id, timestamp: at("2026-03-01T23:00:00Z"), metadata: { tokens: 30, model: "gpt-4o-mini", cached: true } },
      { name: "api.call", customerId: customer.id, timestamp: at("2026-03-02T08:00:00Z"), metadata: { tokens: 20, model: "gpt-4o", cached: false } },
      { name: "api.call", customerId: customer.id, timestamp: at("2026-03-03T08:00:00Z"), metadata: { tokens: "many", model: "claude" } },
      { name: "upload", customerId: customer.id, timestamp: at("2026-03-02T09:00:00Z"), metadata: { tokens: 1000 } },
    ];
    expect(await shop.polar.events.ingest({ events })).toEqual({ inserted: 5, duplicates: 0 });

    const calls: Filter = { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api.call" }] };
    const create = (name: string, aggregation: Parameters<typeof shop.polar.meters.create>[0]["aggregation"], filter = calls) => shop.polar.meters.create({ name, filter, aggregation });
    // Created after the events: each meter measures what was already sent.
    const count = await create("Calls", { func: "count" });
    const sum = await create("Tokens", { func: "sum", property: "tokens" });
    const max = await create("Largest", { func: "max", property: "metadata.tokens" });
    const min = await create("Smallest", { func: "min", property: "tokens" });
    const avg = await create("Average", { func: "avg", property: "tokens" });
    const models = await create("Models", { func: "unique", property: "model" });
    const gpt = await create("GPT calls, uncached", { func: "count" }, {
      conjunction: "and",
      clauses: [calls, { conjunction: "or", clauses: [{ property: "model", operator: "like", value: "gpt" }, { property: "tokens", operator: "gt", value: 500 }] }, { property: "cached", operator: "ne", value: true }],
    });

    const daily = async (id: string) => {
      const quantities = await shop.polar.meters.quantities({ id, startTimestamp: at("2026-03-01T00:00:00Z"), endTimestamp: at("2026-03-03T00:00:00Z"), interval: "day", timezone: "UTC" });
      return { quantities: quantities.quantities.map((period) => period.quantity), total: quantities.total };
    };
    await expect.poll(() => daily(count.id)).toEqual({ quantities: [2, 1, 1], total: 4 });
    // The event whose tokens are text counts, but has nothing to sum.
    await expect.poll(() => daily(sum.id)).toEqual({ quantities: [40, 20, 0], total: 60 });
    await expect.poll(() => daily(max.id)).toEqual({ quantities: [30, 20, 0], total: 30 });
    await expect.poll(() => daily(min.id)).toEqual({ quantities: [10, 20, 0], total: 10 });
    await expect.poll(() => daily(avg.id)).toEqual({ quantities: [20, 20, 0], total: 20 });
    await expect.poll(() => daily(models.id)).toEqual({ quantities: [2, 1, 1], total: 3 });
    await expect.poll(() => daily(gpt.id)).toEqual({ quantities: [1, 1, 0], total: 2 });
    // The events list agrees with the meter on which events it measures.
    const measured = await shop.polar.events.list({ meterId: gpt.id, startTimestamp: at("2026-03-01T00:00:00Z"), endTimestamp: at("2026-03-04T00:00:00Z"), limit: 100 });
    expect(measured.items.map((event) => event.timestamp)).toEqual([at("2026-03-02T08:00:00Z"), at("2026-03-01T10:00:00Z")]);

    // Metadata narrows the events a quantity measures, as Polar's does.
    const narrowed = async (id: string, metadata: Record<string, string | boolean | string[]>, customerAggregationFunction?: "max") => {
      const range = { id, startTimestamp: at("2026-03-01T00:00:00Z"), endTimestamp: at("2026-03-03T00:00:00Z"), interval: "day" as const, metadata, customerAggregationFunction };
      const quantities = await shop.polar.meters.quantities(range);
      return { quantities: quantities.quantities.map((period) => period.quantity), total: quantities.total };
    };
    expect(await narrowed(sum.id, { model: "gpt-4o" })).toEqual({ quantities: [10, 20, 0], total: 30 });
    expect(await narrowed(count.id, { model: ["gpt-4o", "claude"] })).toEqual({ quantities: [1, 1, 1], total: 3 });
    expect(await narrowed(models.id, { cached: false })).toEqual({ quantities: [1, 1, 0], total: 1 });
    expect(await narrowed(max.id, { model: "gpt-4o-mini" }, "max")).toEqual({ quantities: [30, 0, 0], total: 30 });

    // Events sent later are measured as they arrive.
    await shop.polar.events.ingest({ events: [{ name: "api.call", customerId: customer.id, timestamp: at("2026-03-03T09:00:00Z"), metadata: { tokens: 5, model: "gpt-4o" } }] });
    await expect.poll(() => daily(sum.id)).toEqual({ quantities: [40, 20, 5], total: 65 });
    await expect.poll(() => daily(models.id)).toEqual({ quantities: [2, 1, 2], total: 3 });
  });

  it("bucket days in the time zone asked for, half-hour offsets included, and for the customers asked for", async () => {
    const [alice, bob] = await Promise.all(["alice", "bob"].map((name) => shop.polar.customers.create({ email: `${name}-${Date.now()}@example.com`, externalId: `${name}-${Date.now()}` })));
    if (!alice?.externalId || !bob) throw new Error("customers were not created");
    const meter = await shop.polar.meters.create({ name: "Minutes", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "minute" }] }, aggregation: { func: "count" } });
    // 18:40 UTC is 00:10 on the next day in Kolkata (UTC+5:30); 18:20 UTC is still 23:50.
    await shop.polar.events.ingest({
      events: [
        { name: "minute", externalCustomerId: alice.externalId, timestamp: at("2026-04-01T18:20:00Z") },
        { name: "minute", externalCustomerId: alice.externalId, timestamp: at("2026-04-01T18:40:00Z") },
        { name: "minute", customerId: bob.id, timestamp: at("2026-04-01T18:50:00Z") },
      ],
    });
    const range = { id: meter.id, startTimestamp: at("2026-04-01T00:00:00+05:30"), endTimestamp: at("2026-04-02T00:00:00+05:30"), interval: "day" as const, timezone: "Asia/Kolkata" };
    // Measured within a second of the batch.
    await expect.poll(async () => (await shop.polar.meters.quantities(range)).quantities).toEqual([
      { timestamp: at("2026-03-31T18:30:00Z"), quantity: 1 },
      { timestamp: at("2026-04-01T18:30:00Z"), quantity: 2 },
    ]);
    expect((await shop.polar.meters.quantities({ ...range, externalCustomerId: alice.externalId })).quantities.map((period) => period.quantity)).toEqual([1, 1]);
    expect((await shop.polar.meters.quantities({ ...range, customerId: bob.id })).total).toBe(1);
    const busiest = await shop.polar.meters.quantities({ ...range, customerAggregationFunction: "max" });
    expect(busiest.quantities.map((period) => period.quantity)).toEqual([1, 1]);
  });

  it("are listed, renamed, redefined and archived", async () => {
    const other = await stack.seller();
    const meter = await other.polar.meters.create({ name: "Requests", filter: { conjunction: "and", clauses: [] }, aggregation: { func: "count" }, metadata: { team: "core" } });
    expect(meter).toMatchObject({ name: "Requests", unit: "scalar", organizationId: other.organizationId, metadata: { team: "core" }, archivedAt: null });
    const customer = await other.polar.customers.create({ email: `requests-${Date.now()}@example.com` });
    await other.polar.events.ingest({ events: [{ name: "a", customerId: customer.id, metadata: { weight: 2 } }, { name: "b", customerId: customer.id, metadata: { weight: 3 } }] });
    const now = new Date();
    const today = { id: meter.id, startTimestamp: now, endTimestamp: now, interval: "day" as const, timezone: "UTC" };
    await expect.poll(async () => (await other.polar.meters.quantities(today)).total).toBe(2);

    const redefined = await other.polar.meters.update({ id: meter.id, meterUpdate: { name: "Weight", aggregation: { func: "sum", property: "weight" } } });
    expect(redefined).toMatchObject({ name: "Weight", aggregation: { func: "sum", property: "weight" } });
    expect((await other.polar.meters.quantities(today)).total).toBe(5);

    await other.polar.meters.update({ id: meter.id, meterUpdate: { isArchived: true } });
    expect((await other.polar.meters.get({ id: meter.id })).archivedAt).toBeInstanceOf(Date);
    expect((await other.polar.meters.list({ isArchived: false })).result.items).toEqual([]);
    expect((await other.polar.meters.list({})).result.items.map((item) => item.id)).toEqual([meter.id]);
    // Another seller's meter is nobody's business.
    await expect(shop.polar.meters.get({ id: meter.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("refuse to be archived while a product on sale or a meter credit benefit uses them", async () => {
    const other = await stack.seller();
    const meter = await other.polar.meters.create({ name: "Seats", filter: { conjunction: "and", clauses: [] }, aggregation: { func: "count" } });
    const archive = () => other.polar.meters.update({ id: meter.id, meterUpdate: { isArchived: true } });
    const refusal = (msg: string) => ({ statusCode: 422, detail: [{ loc: ["body", "is_archived"], msg, type: "value_error" }] });
    const product = await other.polar.products.create({ name: "Per seat", recurringInterval: "month", prices: [{ amountType: "metered_unit", meterId: meter.id, unitAmount: "100", priceCurrency: "usd" }] });
    await expect(archive()).rejects.toMatchObject(refusal("Cannot archive meter that is still attached to active products"));

    await other.polar.products.update({ id: product.id, productUpdate: { isArchived: true } });
    const credit = await other.polar.benefits.create({ type: "meter_credit", description: "Ten seats", properties: { meterId: meter.id, units: 10, rollover: false } });
    await expect(archive()).rejects.toMatchObject(refusal("Cannot archive meter that is still referenced by active benefits"));
    expect((await other.polar.meters.get({ id: meter.id })).archivedAt).toBeNull();

    await other.polar.benefits.delete({ id: credit.id });
    expect((await archive()).archivedAt).toBeInstanceOf(Date);
  });
});
