import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { eventTypesAbout, paidOrderOf, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** A paid one-time order of `amount`. */
async function paidOrder(amount: number, email: string) {
  const product = await shop.polar.products.create({ name: `Item for ${email}`, prices: [{ amountType: "fixed", priceAmount: amount, priceCurrency: "usd" }] });
  return paidOrderOf({ stack, shop, customerSide }, product.id, email);
}

describe("refunds", () => {
  it("give back part of an order, then the rest, and never more than was paid", async () => {
    const order = await paidOrder(5_000, "refund@example.com");
    const partial = await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 2_000, comment: "Half the course" });
    expect(partial).toMatchObject({ status: "succeeded", amount: 2_000, taxAmount: 0, currency: "usd", orderId: order.id, customerId: order.customerId, reason: "customer_request", revokeBenefits: false });
    expect(await shop.polar.orders.get({ id: order.id })).toMatchObject({ status: "partially_refunded", refundedAmount: 2_000 });

    await expect(shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 3_001 })).rejects.toMatchObject({ statusCode: 422 });
    const rest = await shop.polar.refunds.create({ orderId: order.id, reason: "satisfaction_guarantee", amount: 3_000 });
    expect(rest.status).toBe("succeeded");
    expect(await shop.polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: 5_000 });
    await expect(shop.polar.refunds.create({ orderId: order.id, reason: "duplicate", amount: 1 })).rejects.toMatchObject({ statusCode: 403 });

    const listed = (await shop.polar.refunds.list({ orderId: order.id })).result.items;
    expect(listed.map((refund) => refund.amount).sort()).toEqual([2_000, 3_000]);
    await expect.poll(() => eventTypesAbout(stack, partial.id)).toEqual(["refund.created", "refund.updated"]);
    await expect.poll(async () => (await eventTypesAbout(stack, order.id)).filter((type) => type === "order.refunded")).toHaveLength(2);
  });

  it("refunded side by side never add up to more than the order", async () => {
    const order = await paidOrder(1_000, "race@example.com");
    const outcomes = await Promise.allSettled([600, 600, 600].map((amount) => shop.polar.refunds.create({ orderId: order.id, reason: "duplicate", amount })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(await shop.polar.orders.get({ id: order.id })).toMatchObject({ status: "partially_refunded", refundedAmount: 600 });
  });

  it("are only for orders the token's organization can reach", async () => {
    const order = await paidOrder(1_000, "private@example.com");
    const stranger = await stack.seller();
    await expect(stranger.polar.refunds.create({ orderId: order.id, reason: "other", amount: 100 })).rejects.toMatchObject({ statusCode: 404 });
    expect((await stranger.polar.refunds.list({})).result.items).toEqual([]);
  });
});
