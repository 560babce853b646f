import { describe, expect, it } from "vitest";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import type { Polar } from "@polar-sh/sdk";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

describe("customer meters", () => {
  it("show each customer's consumption, credits and balance, current within a second of the batch", async () => {
    const seller = await stack.seller();
    const [ada, bo] = await Promise.all(["ada", "bo"].map((name) => seller.polar.customers.create({ email: `${name}-${Date.now()}@example.com`, name, externalId: `${name}-ext` })));
    if (!ada || !bo) throw new Error("customers were not created");
    const seconds = await seller.polar.meters.create({ name: "GPU seconds", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "gpu" }] }, aggregation: { func: "sum", property: "seconds" } });
    const regions = await seller.polar.meters.create({ name: "Regions", filter: { conjunction: "and", clauses: [] }, aggregation: { func: "unique", property: "region" } });
    await seller.polar.events.ingest({
      events: [
        { name: "gpu", customerId: ada.id, metadata: { seconds: 1.5, region: "eu" } },
        { name: "gpu", externalCustomerId: "ada-ext", metadata: { seconds: 2.25, region: "us" } },
        { name: "gpu", customerId: bo.id, metadata: { seconds: 4, region: "eu" } },
      ],
    });

    const ofAda = () => seller.polar.customerMeters.list({ customerId: ada.id, sorting: ["meter_name"] });
    await expect.poll(async () => (await ofAda()).result.items.map(({ meterId, consumedUnits, creditedUnits, balance }) => ({ meterId, consumedUnits, creditedUnits, balance }))).toEqual([
      { meterId: seconds.id, consumedUnits: 3.75, creditedUnits: 0, balance: -3.75 },
      { meterId: regions.id, consumedUnits: 2, creditedUnits: 0, balance: -2 },
    ]);
    const [first] = (await ofAda()).result.items;
    expect(first).toMatchObject({ customer: { id: ada.id, email: ada.email }, meter: { id: seconds.id, name: "GPU seconds" } });
    expect(await seller.polar.customerMeters.get({ id: first?.id ?? "" })).toMatchObject({ consumedUnits: 3.75 });

    const mostUsed = await seller.polar.customerMeters.list({ meterId: seconds.id, sorting: ["-consumed_units"] });
    expect(mostUsed.result.items.map((item) => item.customerId)).toEqual([bo.id, ada.id]);
    expect((await seller.polar.customerMeters.list({ externalCustomerId: "bo-ext" })).result.items.map((item) => item.consumedUnits).sort()).toEqual([1, 4]);

    await seller.polar.events.ingest({ events: [{ name: "gpu", customerId: ada.id, metadata: { seconds: 0.25, region: "eu" } }] });
    await expect.poll(async () => (await seller.polar.customerMeters.get({ id: first?.id ?? "" })).consumedUnits).toBe(4);
    await expect(shop.polar.customerMeters.get({ id: first?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("are the customer's own in the portal", async () => {
    const customer = await shop.polar.customers.create({ email: `portal-meter-${Date.now()}@example.com` });
    const other = await shop.polar.customers.create({ email: `portal-other-${Date.now()}@example.com` });
    const meter = await shop.polar.meters.create({ name: "Portal pages", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "page" }] }, aggregation: { func: "count" } });
    await shop.polar.events.ingest({ events: [{ name: "page", customerId: customer.id }, { name: "page", customerId: customer.id }, { name: "page", customerId: other.id }] });

    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId: customer.id })).token };
    await expect.poll(async () => (await customerSide.customerPortal.customerMeters.list(security, { query: "portal" })).result.items.length).toBe(1);
    const mine = await customerSide.customerPortal.customerMeters.list(security, { query: "portal" });
    expect(mine.result.items[0]).toMatchObject({ customerId: customer.id, meterId: meter.id, consumedUnits: 2, balance: -2, meter: { id: meter.id, name: "Portal pages" } });
    const id = mine.result.items[0]?.id ?? "";
    expect((await customerSide.customerPortal.customerMeters.get(security, { id })).consumedUnits).toBe(2);

    await expect.poll(async () => (await shop.polar.customerMeters.list({ customerId: other.id })).result.items.length).toBe(1);
    const [theirs] = (await shop.polar.customerMeters.list({ customerId: other.id })).result.items;
    await expect(customerSide.customerPortal.customerMeters.get(security, { id: theirs?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });
});
