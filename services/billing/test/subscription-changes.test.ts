import { describe, expect, it } from "vitest";
import { advanceDays, eventTypesAbout, ordersOf, subscribe, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import { amountFor, chosenPrice } from "../src/products/prices.js";
import { productsWithParts } from "../src/products/products.sql.js";
import { changeProduct } from "../src/flows/charge-change.js";
import { lockSubscription } from "../src/subscriptions/subscriptions.sql.js";
import { sellerNow } from "../src/test-clock/clock.js";

let stack: BillingStack;

// Each test has a seller of its own: the test clock moves a seller's whole time.
useShop((opened) => ({ stack } = opened));

const DAY_MS = 86_400_000;

/** A subscription update as a client sends it, for the forms the SDK's types cannot express (`trial_end: "now"`). */
const patch = (seller: Seller, id: string, body: object) =>
  fetch(`${stack.gateway.url}/v1/subscriptions/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` },
    body: JSON.stringify(body),
  });

describe("subscription changes", () => {
  it("take a discount from the next renewal on, once redeemed, and give it up", async () => {
    const seller = await stack.seller();
    const { plan, subscription } = await subscribe(stack, seller, "4242424242424242", "discounted@example.com");
    const half = await seller.polar.discounts.create({ type: "percentage", basisPoints: 5000, duration: "forever", name: "Half", maxRedemptions: 1 });
    const elsewhere = await seller.polar.products.create({ name: "Other", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }] });
    const other = await seller.polar.discounts.create({ type: "fixed", amount: 100, currency: "usd", duration: "once", name: "Other product only", products: [elsewhere.id] });

    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { discountId: other.id } })).rejects.toMatchObject({ statusCode: 422 });
    const discounted = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { discountId: half.id } });
    expect(discounted).toMatchObject({ discountId: half.id, discount: { id: half.id } });
    expect((await seller.polar.discounts.get({ id: half.id })).redemptionsCount).toBe(1);
    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { discountId: half.id } })).rejects.toMatchObject({ statusCode: 422 });
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).at(-1)).toBe("subscription.updated");

    await advanceDays(stack, seller, 31);
    const renewal = (await ordersOf(seller, subscription.id)).at(-1);
    expect(renewal).toMatchObject({ billingReason: "subscription_cycle", subtotalAmount: 1000, discountAmount: 500, totalAmount: 500, discountId: half.id, status: "paid" });

    const plain = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { discountId: null } });
    expect(plain.discountId).toBeNull();
    await advanceDays(stack, seller, 31);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([1000, 500, 1000]);
    expect(plan.id).toBe(plain.productId);
  });

  it("start a trial after the paid period, and end one now: charged at once and active", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "trial-later@example.com");
    const tooSoon = new Date(subscription.currentPeriodEnd.getTime() - DAY_MS);
    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { trialEnd: tooSoon } })).rejects.toMatchObject({ statusCode: 422 });
    expect((await patch(seller, subscription.id, { trial_end: "now" })).status).toBe(422);

    const trialEnd = new Date(subscription.currentPeriodEnd.getTime() + 10 * DAY_MS);
    const trialing = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { trialEnd } });
    expect(trialing).toMatchObject({ status: "trialing", trialEnd, currentPeriodEnd: trialEnd });
    // The paid month and the ten days after it go by without a charge.
    await advanceDays(stack, seller, 35);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([1000]);

    const ended = await patch(seller, subscription.id, { trial_end: "now" });
    expect(ended.status).toBe(200);
    const active = (await ended.json()) as { status: string; trial_end: string; current_period_start: string; current_period_end: string };
    expect(active.status).toBe("active");
    expect(new Date(active.current_period_start).getTime()).toBe(new Date(active.trial_end).getTime());
    expect(new Date(active.current_period_end).getTime() - new Date(active.current_period_start).getTime()).toBeGreaterThanOrEqual(28 * DAY_MS);
    expect((await ordersOf(seller, subscription.id)).map((order) => [order.billingReason, order.totalAmount])).toEqual([
      ["subscription_create", 1000],
      ["subscription_cycle", 1000],
    ]);
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).slice(-3)).toEqual(["subscription.updated", "subscription.active", "subscription.cycled"]);
  });

  it("extend a trial in progress, refusing an end already past, then end it now: charged once as a renewal, and active", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "trial-extended@example.com", { trialDays: 14 });
    expect(subscription.status).toBe("trialing");
    const past = new Date(Date.now() - DAY_MS);
    const refused = await patch(seller, subscription.id, { trial_end: past.toISOString() });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ detail: [{ loc: ["body", "trial_end"] }] });

    const trialEnd = new Date(subscription.currentPeriodEnd.getTime() + 16 * DAY_MS);
    const extended = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { trialEnd } });
    expect(extended).toMatchObject({ status: "trialing", trialEnd, currentPeriodEnd: trialEnd });
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).at(-1)).toBe("subscription.updated");
    // The first two weeks, and the sixteen days added, go by without a charge.
    await advanceDays(stack, seller, 20);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([0]);

    const ended = await patch(seller, subscription.id, { trial_end: "now" });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toMatchObject({ status: "active" });
    expect((await ordersOf(seller, subscription.id)).map((order) => [order.billingReason, order.totalAmount])).toEqual([
      ["subscription_create", 0],
      ["subscription_cycle", 1000],
    ]);
    // Ended, a trial cannot be ended again.
    expect((await patch(seller, subscription.id, { trial_end: "now" })).status).toBe(422);
  });

  it("renew on a period end moved earlier, and refuse to move one that is ending", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "anchor@example.com");
    const { now } = await advanceDays(stack, seller, 1);
    const sooner = new Date(new Date(now).getTime() + 5 * DAY_MS);
    const moved = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: sooner } });
    expect(moved.currentPeriodEnd).toEqual(sooner);
    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(new Date(now).getTime() - DAY_MS) } })).rejects.toMatchObject({ statusCode: 422 });

    await advanceDays(stack, seller, 6);
    const renewed = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(renewed.currentPeriodStart).toEqual(sooner);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.billingReason)).toEqual(["subscription_create", "subscription_cycle"]);

    await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(sooner.getTime() + 40 * DAY_MS) } })).rejects.toMatchObject({ statusCode: 403 });
  });

  it("move to a yearly plan: a new period starts now, invoiced at once less the unused month", async () => {
    const seller = await stack.seller();
    const yearly = await seller.polar.products.create({ name: "Pro yearly", recurringInterval: "year", prices: [{ amountType: "fixed", priceAmount: 10_000, priceCurrency: "usd" }] });
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "yearly@example.com");
    const { now } = await advanceDays(stack, seller, 10);
    const moved = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: yearly.id, prorationBehavior: "prorate" } });
    expect(moved).toMatchObject({ productId: yearly.id, amount: 10_000, recurringInterval: "year", status: "active" });
    expect(Math.abs(moved.currentPeriodStart.getTime() - new Date(now).getTime())).toBeLessThan(60_000);
    expect(moved.currentPeriodEnd.getTime() - moved.currentPeriodStart.getTime()).toBeGreaterThanOrEqual(365 * DAY_MS);

    const update = (await ordersOf(seller, subscription.id)).find((order) => order.billingReason === "subscription_update");
    const unused = Math.round(1000 * ((subscription.currentPeriodEnd.getTime() - new Date(now).getTime()) / (subscription.currentPeriodEnd.getTime() - subscription.currentPeriodStart.getTime())));
    expect(update?.status).toBe("paid");
    expect(update?.items.map((item) => [item.label, item.amount, item.proration])).toEqual([
      ["Pro yearly", 10_000, false],
      ["Unused time on Pro yearly@example.com", -unused, true],
    ]);
    expect(update?.totalAmount).toBe(10_000 - unused);
  });

  it("change plans during a trial without a charge, and refuse seats: the prices are not per seat", async () => {
    const seller = await stack.seller();
    const team = await seller.polar.products.create({ name: "Team", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }] });
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "trial-upgrade@example.com", { trialDays: 14 });
    const moved = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: team.id, prorationBehavior: "invoice" } });
    expect(moved).toMatchObject({ productId: team.id, amount: 3000, status: "trialing", currentPeriodEnd: subscription.currentPeriodEnd });
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([0]);
    await advanceDays(stack, seller, 15);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([0, 3000]);

    const seats = await patch(seller, subscription.id, { seats: 3 });
    expect(seats.status).toBe(400);
    expect(await seats.json()).toMatchObject({ error: "NotASeatBasedSubscription" });
  });

  it("move to a dearer plan billed now with a card that declines: past due, the order left to dunning", async () => {
    const seller = await stack.seller();
    const team = await seller.polar.products.create({ name: "Team", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }] });
    // This card pays the first month, then declines.
    const { subscription } = await subscribe(stack, seller, "4000000000000341", "declined-upgrade@example.com");
    await advanceDays(stack, seller, 10);
    const moved = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: team.id, prorationBehavior: "invoice" } });
    expect(moved).toMatchObject({ productId: team.id, amount: 3000, status: "past_due" });
    const update = (await ordersOf(seller, subscription.id)).find((order) => order.billingReason === "subscription_update");
    expect(update?.status).toBe("pending");
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).slice(-2)).toEqual(["subscription.updated", "subscription.past_due"]);
  });

  it("charge a plan change that its replica committed but did not live to charge: the renewal worker does, once", { timeout: 40_000 }, async () => {
    const seller = await stack.seller();
    const team = await seller.polar.products.create({ name: "Team", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }] });
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "crashed-upgrade@example.com");
    // The change exactly as a request commits it, and nothing after: the replica died before charging.
    const billing = stack.billing.context.app;
    const changed = await billing.units.run(async (unit) => {
      const [product] = await productsWithParts(unit.db, [team.id]);
      const locked = await lockSubscription(unit.db, subscription.id);
      if (!product || !locked) throw new Error("the product or the subscription is missing");
      const price = chosenPrice(product, "usd", null, ["product_id"]);
      return changeProduct(billing, unit, locked, { product, price, amount: amountFor(price, null, ["product_id"]), seats: null, behaviour: "invoice", now: await sellerNow(unit.db, seller.organizationId) });
    });
    expect(changed.charge_order_id).not.toBeNull();
    expect((await ordersOf(seller, subscription.id)).find((order) => order.billingReason === "subscription_update")?.status).toBe("pending");

    // The worker's next pass (every 10 s) finds the subscription due and charges the order under its own key.
    await expect.poll(async () => (await ordersOf(seller, subscription.id)).find((order) => order.billingReason === "subscription_update")?.status, { timeout: 30_000, interval: 500 }).toBe("paid");
    const after = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(after).toMatchObject({ productId: team.id, status: "active", currentPeriodEnd: subscription.currentPeriodEnd });
    expect((await ordersOf(seller, subscription.id)).map((order) => [order.billingReason, order.status])).toEqual([
      ["subscription_create", "paid"],
      ["subscription_update", "paid"],
    ]);
    const update = (await ordersOf(seller, subscription.id)).find((order) => order.billingReason === "subscription_update");
    expect((await eventTypesAbout(stack, update?.id ?? "")).filter((type) => type === "order.paid")).toHaveLength(1);
  });
});
