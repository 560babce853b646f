import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { paidOrderOf, subscribe, subscribeTo, useShop } from "../../../test/stacks/purchases.js";
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

  it("are narrowed by every filter SDK 1.x sends on the lists of sales: subscriptions, checkouts, refunds, payments, license keys and checkout links", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const licence = await polar.benefits.create({ type: "license_keys", description: "Filtered licence", properties: {} });
    const plan = await polar.products.create({ name: "Filtered plan", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_000, price_currency: "usd" }] });
    await polar.products.updateBenefits(plan.id, { benefits: [licence.id] });
    const before = new Date();
    const kept = await subscribeTo(stack, seller, plan.id, "4242424242424242", "kept@example.com");
    const left = await subscribeTo(stack, seller, plan.id, "4242424242424242", "left@example.com");
    const leaver = await polar.customers.update(left.subscription.customerId, { external_id: "user-left" });
    await polar.subscriptions.update(left.subscription.id, { cancel_at_period_end: true, customer_cancellation_reason: "too_expensive" });
    await polar.subscriptions.update(kept.subscription.id, { pause_at_period_end: true });

    const subscriptionIds = async (query: Parameters<typeof polar.subscriptions.list>[0]) => (await polar.subscriptions.list(query)).items.map((subscription) => subscription.id);
    expect(await subscriptionIds({ customer_cancellation_reason: "too_expensive" })).toEqual([left.subscription.id]);
    expect(await subscriptionIds({ external_customer_id: "user-left" })).toEqual([left.subscription.id]);
    expect(await subscriptionIds({ canceled_at_after: before.toISOString() })).toEqual([left.subscription.id]);
    expect(await subscriptionIds({ canceled_at_before: before.toISOString() })).toEqual([]);
    expect((await subscriptionIds({ started_after: before.toISOString(), status: "active" })).sort()).toEqual([kept.subscription.id, left.subscription.id].sort());
    expect(await subscriptionIds({ started_before: before.toISOString() })).toEqual([]);
    expect(await subscriptionIds({ status: ["canceled", "paused"] })).toEqual([]);

    expect((await polar.checkouts.list({ external_customer_id: "user-left" })).items.map((checkout) => checkout.id)).toEqual([left.checkout.id]);
    const payments = (await polar.payments.list({ customer_id: leaver.id })).items;
    expect(payments.map((payment) => payment.checkout_id)).toEqual([left.checkout.id]);
    const [leftOrder] = (await polar.orders.list({ external_customer_id: "user-left" })).items;
    await polar.refunds.create({ order_id: leftOrder?.id ?? "", reason: "customer_request", amount: 100 });
    expect((await polar.refunds.list({ external_customer_id: "user-left" })).items.map((refund) => refund.order_id)).toEqual([leftOrder?.id]);
    expect((await polar.refunds.list({ external_customer_id: "someone-else" })).items).toEqual([]);

    const [leftKey] = (await polar.licenseKeys.list({ benefit_id: licence.id })).items.filter((key) => key.customer_id === leaver.id);
    await polar.licenseKeys.update(leftKey?.id ?? "", { status: "disabled" });
    expect((await polar.licenseKeys.list({ status: "disabled" })).items.map((key) => key.id)).toEqual([leftKey?.id]);
    expect((await polar.licenseKeys.list({ status: ["granted", "revoked"] })).items).toHaveLength(1);

    const link = await polar.checkoutLinks.create({ products: [plan.id], payment_processor: "stripe" });
    const other = await polar.products.create({ name: "Not linked", prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }] });
    expect((await polar.checkoutLinks.list({ product_id: plan.id })).items.map((found) => found.id)).toEqual([link.id]);
    expect((await polar.checkoutLinks.list({ product_id: other.id })).items).toEqual([]);
  });
});
