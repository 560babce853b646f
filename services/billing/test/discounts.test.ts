import { describe, expect, it } from "vitest";
import { announced, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

describe("discounts", () => {
  it("are fixed or percentage, once, forever or repeating, with codes unique whatever their case", async () => {
    const product = await shop.polar.products.create({ name: "Discounted", prices: [{ amountType: "fixed", priceAmount: 2000 }] });
    const launch = await shop.polar.discounts.create({
      type: "percentage",
      basisPoints: 2500,
      duration: "repeating",
      durationInMonths: 3,
      name: "Launch",
      code: "LAUNCH25",
      maxRedemptions: 100,
      products: [product.id],
      startsAt: new Date("2026-01-01T00:00:00Z"),
      endsAt: new Date("2027-01-01T00:00:00Z"),
    });
    expect(launch).toMatchObject({ type: "percentage", basisPoints: 2500, duration: "repeating", durationInMonths: 3, code: "LAUNCH25", redemptionsCount: 0, maxRedemptions: 100 });
    expect(launch.products.map((item) => item.id)).toEqual([product.id]);
    const fixed = await shop.polar.discounts.create({ type: "fixed", amount: 500, currency: "usd", duration: "once", name: "Five off" });
    expect(fixed).toMatchObject({ type: "fixed", amount: 500, currency: "usd", duration: "once", code: null });

    const clash = await call("/v1/discounts/", { method: "POST", body: JSON.stringify({ type: "fixed", amount: 100, currency: "usd", duration: "forever", name: "Clash", code: "launch25" }) });
    expect(await clash.json()).toEqual({ detail: [{ loc: ["body", "code"], msg: "A discount with this code already exists.", type: "value_error", input: "launch25" }] });
    const incomplete = await call("/v1/discounts/", { method: "POST", body: JSON.stringify({ type: "percentage", basis_points: 1000, duration: "repeating", name: "Months?" }) });
    expect(await incomplete.json()).toMatchObject({ detail: [{ loc: ["body", "duration_in_months"] }] });

    const renamed = await shop.polar.discounts.update({ id: fixed.id, discountUpdate: { name: "Five dollars off", code: "FIVE" } });
    expect(renamed).toMatchObject({ name: "Five dollars off", code: "FIVE" });
    const found = await shop.polar.discounts.list({ query: "five" });
    expect(found.result.items.map((discount) => discount.id)).toEqual([fixed.id]);
    await shop.polar.discounts.delete({ id: fixed.id });
    await expect(shop.polar.discounts.get({ id: fixed.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    // Sellers' webhooks hear of each change, as Polar's discount.created, .updated and .deleted.
    await expect.poll(async () => (await announced(stack, "discount.created", fixed.id)).map((payload) => payload.code)).toEqual([null]);
    expect((await announced(stack, "discount.updated", fixed.id)).map((payload) => payload.name)).toEqual(["Five dollars off"]);
    expect(await announced(stack, "discount.deleted", fixed.id)).toHaveLength(1);
    // A deleted discount's code is free again.
    expect((await shop.polar.discounts.create({ type: "fixed", amount: 500, currency: "usd", duration: "once", name: "Again", code: "five" })).code).toBe("five");
  });
});
