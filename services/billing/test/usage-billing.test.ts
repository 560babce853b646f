import { describe, expect, it } from "vitest";
import { advanceDays, announced, ordersOf, subscribeTo, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import type { PaymentProcessor, SavedChargeRequest } from "../src/payments/processor.js";
import { SubscriptionRenewals } from "../src/subscriptions/renewals.js";

let stack: BillingStack;

useShop((opened) => ({ stack } = opened));

/**
 * A seller with a meter of API calls, and a monthly plan of 10.00 plus 2.5 cents a call beyond
 * the meter credit benefit's `units` a month.
 */
async function meteredPlan(seller: Seller, credits: { units: number; rollover: boolean }, capAmount: number | null) {
  const meter = await seller.polar.meters.create({
    name: "API calls",
    filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api.call" }] },
    aggregation: { func: "sum", property: "calls" },
  });
  const credit = await seller.polar.benefits.create({ type: "meter_credit", description: `${credits.units} calls a month`, properties: { ...credits, meterId: meter.id } });
  const plan = await seller.polar.products.create({
    name: "Metered plan",
    recurringInterval: "month",
    prices: [
      { amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" },
      { amountType: "metered_unit", meterId: meter.id, unitAmount: "2.5", capAmount, priceCurrency: "usd" },
    ],
  });
  await seller.polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [credit.id] } });
  return { meter, plan };
}

/** A seller's plan billed by the meter alone, at `unitAmount` cents a unit. */
async function payAsYouGo(seller: Seller, aggregation: Parameters<Seller["polar"]["meters"]["create"]>[0]["aggregation"], unitAmount: string) {
  const meter = await seller.polar.meters.create({ name: "Requests", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api.call" }] }, aggregation });
  const plan = await seller.polar.products.create({ name: "Pay as you go", recurringInterval: "month", prices: [{ amountType: "metered_unit", meterId: meter.id, unitAmount, priceCurrency: "usd" }] });
  return { meter, plan };
}

/** Sends `calls` API calls for the customer (at the seller's now unless told when), and waits until their meter has measured them. */
async function useCalls(seller: Seller, customerId: string, calls: number, consumedAfter: number, timestamp?: Date) {
  await seller.polar.events.ingest({ events: [{ name: "api.call", customerId, metadata: { calls }, timestamp }] });
  await expect.poll(async () => (await seller.polar.customerMeters.list({ customerId })).result.items[0]?.consumedUnits).toBe(consumedAfter);
}

const standingOf = async (seller: Seller, customerId: string) => {
  const [meter] = (await seller.polar.customerMeters.list({ customerId })).result.items;
  return { consumedUnits: meter?.consumedUnits, creditedUnits: meter?.creditedUnits, balance: meter?.balance };
};

describe("usage billing", () => {
  it("bills a month of usage beyond the meter credits on renewal, then starts the meter over with fresh credits", async () => {
    const seller = await stack.seller();
    const { meter, plan } = await meteredPlan(seller, { units: 100, rollover: false }, null);
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `usage-${Date.now()}@example.com`);
    const customerId = subscription.customerId;
    expect(await standingOf(seller, customerId)).toEqual({ consumedUnits: 0, creditedUnits: 100, balance: 100 });

    await useCalls(seller, customerId, 60, 60);
    await expect
      .poll(async () => (await announced(stack, "customer.state_changed", customerId)).some((state) => (state.active_meters as { consumed_units: number }[])[0]?.consumed_units === 60), { timeout: 10_000 })
      .toBe(true);
    // Usage happens on the seller's clock: an hour before its now, ten days ahead of the real time, is in the past.
    const clocked = new Date((await advanceDays(stack, seller, 10)).now);
    await useCalls(seller, customerId, 50, 110, new Date(clocked.getTime() - 3_600_000));
    const lastHours = { id: meter.id, startTimestamp: new Date(clocked.getTime() - 7_200_000), endTimestamp: clocked, interval: "hour" as const };
    expect((await seller.polar.meters.quantities(lastHours)).total).toBe(50);
    const later = seller.polar.events.ingest({ events: [{ name: "api.call", customerId, metadata: { calls: 1 }, timestamp: new Date(clocked.getTime() + 3_600_000) }] });
    await expect(later).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "events", 0, "timestamp"], msg: "Timestamp must be in the past." }] });
    await advanceDays(stack, seller, 10);
    await useCalls(seller, customerId, 40.5, 150.5);

    const { meters: [shown], prices } = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(prices.map((price) => ("meter" in price ? price.meter.name : price.amountType))).toEqual(["fixed", "API calls"]);
    expect(shown).toMatchObject({ meterId: meter.id, consumedUnits: 150.5, creditedUnits: 100, amount: 126, meter: { id: meter.id, name: "API calls" } });
    const state = await seller.polar.customers.getState({ id: customerId });
    expect(state.activeMeters.map(({ meterId, consumedUnits, creditedUnits, balance }) => ({ meterId, consumedUnits, creditedUnits, balance }))).toEqual([
      { meterId: meter.id, consumedUnits: 150.5, creditedUnits: 100, balance: -50.5 },
    ]);
    expect(state.activeSubscriptions[0]?.meters).toMatchObject([{ meterId: meter.id, consumedUnits: 150.5, creditedUnits: 100, amount: 126 }]);

    await advanceDays(stack, seller, 11);
    const renewal = (await ordersOf(seller, subscription.id))[1];
    // 50.5 calls beyond the credits at 2.5 cents: 126.25 cents, rounded to 126.
    expect(renewal?.items.map(({ label, amount }) => ({ label, amount }))).toEqual([
      { label: "Metered plan", amount: 1000 },
      { label: "API calls — (50.5 consumed units) × $0.025", amount: 126 },
    ]);
    expect(renewal).toMatchObject({ billingReason: "subscription_cycle", totalAmount: 1126, status: "paid" });
    expect(await standingOf(seller, customerId)).toEqual({ consumedUnits: 0, creditedUnits: 100, balance: 100 });
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).meters[0]).toMatchObject({ consumedUnits: 0, creditedUnits: 100, amount: 0 });
  });

  it("carries unused credits over when they roll over, caps the metered line, and takes the credits back with the subscription", async () => {
    const seller = await stack.seller();
    const { plan } = await meteredPlan(seller, { units: 100, rollover: true }, 500);
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `rollover-${Date.now()}@example.com`);
    const customerId = subscription.customerId;

    await useCalls(seller, customerId, 30, 30);
    await advanceDays(stack, seller, 31);
    expect((await ordersOf(seller, subscription.id))[1]?.items.map((item) => item.amount)).toEqual([1000, 0]);
    expect(await standingOf(seller, customerId)).toEqual({ consumedUnits: 0, creditedUnits: 170, balance: 170 });

    await useCalls(seller, customerId, 1000, 1000);
    await advanceDays(stack, seller, 31);
    expect((await ordersOf(seller, subscription.id))[2]?.items.map(({ label, amount }) => ({ label, amount }))).toEqual([
      { label: "Metered plan", amount: 1000 },
      { label: "API calls — (830 consumed units) × $0.025 — Capped at $5.00", amount: 500 },
    ]);
    expect(await standingOf(seller, customerId)).toEqual({ consumedUnits: 0, creditedUnits: 100, balance: 100 });

    await seller.polar.subscriptions.revoke({ id: subscription.id });
    expect(await standingOf(seller, customerId)).toEqual({ consumedUnits: 0, creditedUnits: 0, balance: 0 });
    expect((await seller.polar.customers.getState({ id: customerId })).activeSubscriptions).toEqual([]);
  });

  it("sells a product with a metered price alone: nothing to pay at the checkout, the card kept, the usage billed at renewal", async () => {
    const seller = await stack.seller();
    const meter = await seller.polar.meters.create({
      name: "Requests",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api.call" }] },
      aggregation: { func: "sum", property: "calls" },
    });
    const plan = await seller.polar.products.create({ name: "Pay as you go", recurringInterval: "month", prices: [{ amountType: "metered_unit", meterId: meter.id, unitAmount: "10", priceCurrency: "usd" }] });
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `payg-${Date.now()}@example.com`);
    expect(subscription).toMatchObject({ status: "active", amount: 0, productId: plan.id });
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([0]);

    await useCalls(seller, subscription.customerId, 70, 70);
    await advanceDays(stack, seller, 31);
    const renewal = (await ordersOf(seller, subscription.id))[1];
    expect(renewal).toMatchObject({ billingReason: "subscription_cycle", totalAmount: 700, status: "paid" });
    expect(await standingOf(seller, subscription.customerId)).toMatchObject({ consumedUnits: 0 });
  });

  it("bills a renewal retried after it crashed between the charge and the settling with the usage it first read; usage sent since counts in the next period", { timeout: 30_000 }, async () => {
    const seller = await stack.seller();
    const { meter, plan } = await meteredPlan(seller, { units: 100, rollover: false }, null);
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `retried-${Date.now()}@example.com`);
    const [created] = await announced(stack, "subscription.created", subscription.id);
    expect(created?.meters).toMatchObject([{ meter_id: meter.id, consumed_units: 0, credited_units: 100, amount: 0, meter: { id: meter.id, name: "API calls" } }]);
    expect((created?.prices as { amount_type: string }[]).map((price) => price.amount_type)).toEqual(["fixed", "metered_unit"]);
    await useCalls(seller, subscription.customerId, 150, 150);

    // A replica that dies once the processor has charged the card: the settling never happens.
    const billing = stack.billing.context.app;
    const charged: number[] = [];
    // The real processor for everything else: its methods, reached through the prototype.
    const dying: PaymentProcessor = Object.assign(Object.create(billing.processor) as PaymentProcessor, {
      async chargeSaved(request: SavedChargeRequest): Promise<never> {
        await billing.processor.chargeSaved(request);
        charged.push(request.amount);
        throw new Error("the replica died after the charge");
      },
    });
    const crashing = new SubscriptionRenewals({ ...billing, processor: dying }, billing.units, 1_000);
    await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(Date.now() + 1_000) } });
    await expect.poll(async () => (await crashing.renewNow(subscription.id).catch(() => undefined), charged), { timeout: 10_000, interval: 100 }).toEqual([1125]);

    // More usage is measured before the retry: it belongs to the next period, not to the charge made.
    await useCalls(seller, subscription.customerId, 30, 180);
    await billing.renewals.renewNow(subscription.id);
    const renewal = (await ordersOf(seller, subscription.id))[1];
    expect(renewal?.items.map(({ label, amount }) => ({ label, amount }))).toEqual([
      { label: "Metered plan", amount: 1000 },
      { label: "API calls — (50 consumed units) × $0.025", amount: 125 },
    ]);
    expect(renewal).toMatchObject({ totalAmount: 1125, status: "paid" });
    expect(await standingOf(seller, subscription.customerId)).toEqual({ consumedUnits: 30, creditedUnits: 100, balance: 70 });
  });

  it("bills the usage of the last period when a subscription canceled at its period end ends, and starts no new period", async () => {
    const seller = await stack.seller();
    const { plan } = await meteredPlan(seller, { units: 100, rollover: false }, null);
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `last-period-${Date.now()}@example.com`);
    await useCalls(seller, subscription.customerId, 140, 140);
    await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });

    await advanceDays(stack, seller, 31);
    const orders = await ordersOf(seller, subscription.id);
    expect(orders.map(({ billingReason, totalAmount, status }) => ({ billingReason, totalAmount, status }))).toEqual([
      { billingReason: "subscription_create", totalAmount: 1000, status: "paid" },
      { billingReason: "subscription_cycle", totalAmount: 100, status: "paid" },
    ]);
    expect(orders[1]?.items.map(({ label, amount }) => ({ label, amount }))).toEqual([{ label: "API calls — (40 consumed units) × $0.025", amount: 100 }]);
    const ended = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(ended.status).toBe("canceled");
    expect(ended.endedAt).toEqual(ended.currentPeriodEnd);
    expect(await standingOf(seller, subscription.customerId)).toEqual({ consumedUnits: 0, creditedUnits: 0, balance: 0 });

    await advanceDays(stack, seller, 31);
    expect(await ordersOf(seller, subscription.id)).toHaveLength(2);
  });

  it("bills the usage so far when a subscription is revoked now", async () => {
    const seller = await stack.seller();
    const { plan } = await payAsYouGo(seller, { func: "sum", property: "calls" }, "10");
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `revoked-${Date.now()}@example.com`);
    await useCalls(seller, subscription.customerId, 70, 70);

    expect(await seller.polar.subscriptions.revoke({ id: subscription.id })).toMatchObject({ status: "canceled" });
    const last = (await ordersOf(seller, subscription.id))[1];
    expect(last).toMatchObject({ billingReason: "subscription_cycle", totalAmount: 700, status: "paid" });
    expect(last?.items.map((item) => item.label)).toEqual(["Requests — (70 consumed units) × $0.10"]);
    expect(await standingOf(seller, subscription.customerId)).toMatchObject({ consumedUnits: 0 });
  });

  it("counts a unique meter's distinct values anew in each period", async () => {
    const seller = await stack.seller();
    const { plan } = await payAsYouGo(seller, { func: "unique", property: "user" }, "100");
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", `unique-${Date.now()}@example.com`);
    const customerId = subscription.customerId;
    const sendUsers = async (users: string[], consumedAfter: number) => {
      await seller.polar.events.ingest({ events: users.map((user) => ({ name: "api.call", customerId, metadata: { user } })) });
      await expect.poll(async () => (await standingOf(seller, customerId)).consumedUnits).toBe(consumedAfter);
    };

    await sendUsers(["ana", "bo", "cy", "ana"], 3);
    await advanceDays(stack, seller, 31);
    expect((await ordersOf(seller, subscription.id))[1]).toMatchObject({ totalAmount: 300, status: "paid" });
    expect(await standingOf(seller, customerId)).toMatchObject({ consumedUnits: 0 });

    // Ana is back this period and counts again; Bo and Cy, who are not, no longer do.
    await sendUsers(["ana", "dee"], 2);
    await advanceDays(stack, seller, 31);
    expect((await ordersOf(seller, subscription.id))[2]).toMatchObject({ totalAmount: 200, status: "paid" });
  });
});
