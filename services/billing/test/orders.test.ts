import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { paidOrderOf, subscribe, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** A paid one-time order of 3000 for a customer known to the seller as `externalId`. */
async function boughtOnce(email: string, externalId: string) {
  const product = await shop.polar.products.create({ name: `Book for ${email}`, prices: [{ amountType: "fixed", priceAmount: 3_000, priceCurrency: "usd" }] });
  await shop.polar.customers.create({ email, externalId });
  return paidOrderOf({ stack, shop, customerSide }, product.id, email, { customerEmail: email });
}

/** The ids of the orders a raw query string finds: Polar's newer filters, which the SDK 0.47 does not send. */
async function idsFound(query: string): Promise<string[]> {
  const response = await fetch(`${stack.gateway.url}/v1/orders/?organization_id=${shop.organizationId}&${query}`, { headers: { authorization: `Bearer ${shop.token}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items.map((order) => order.id);
}

describe("orders", () => {
  it("are listed by billing type, subscription, external customer id, status and creation time, as Polar filters them", async () => {
    const before = new Date();
    const once = await boughtOnce("once@example.com", "user-once");
    const { subscription } = await subscribe(stack, shop, "4242424242424242", "monthly@example.com");
    const [first] = (await shop.polar.orders.list({ subscriptionId: subscription.id })).result.items;
    if (!first) throw new Error("the subscription has no order");

    const ids = async (request: Parameters<Polar["orders"]["list"]>[0]) => (await shop.polar.orders.list({ organizationId: shop.organizationId, ...request })).result.items.map((order) => order.id);
    expect(await ids({ productBillingType: "one_time" })).toEqual([once.id]);
    expect(await ids({ productBillingType: "recurring" })).toEqual([first.id]);
    expect(await ids({ productBillingType: ["one_time", "recurring"] })).toHaveLength(2);
    expect(await ids({ externalCustomerId: "user-once" })).toEqual([once.id]);
    expect(await ids({ externalCustomerId: "nobody" })).toEqual([]);

    await shop.polar.refunds.create({ orderId: once.id, reason: "customer_request", amount: 1_000 });
    expect(await idsFound("status=partially_refunded")).toEqual([once.id]);
    expect((await idsFound("status=paid&status=partially_refunded")).sort()).toEqual([once.id, first.id].sort());
    expect(await idsFound("status=refunded")).toEqual([]);
    expect(await idsFound(`created_after=${encodeURIComponent(before.toISOString())}&sorting=created_at`)).toEqual([once.id, first.id]);
    expect(await idsFound(`created_before=${encodeURIComponent(before.toISOString())}`)).toEqual([]);

    const refused = await fetch(`${stack.gateway.url}/v1/orders/?status=lost&created_after=yesterday`, { headers: { authorization: `Bearer ${shop.token}` } });
    expect(refused.status).toBe(422);
    const { detail } = (await refused.json()) as { detail: { loc: string[] }[] };
    expect(detail.map((issue) => issue.loc.at(-1))).toEqual(expect.arrayContaining(["status", "created_after"]));
  });
});
