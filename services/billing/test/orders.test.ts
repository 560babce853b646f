import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { orderExportRows } from "../src/orders/export.js";
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

  it("are narrowed as SDK 1.x asks elsewhere too: customers with a subscription running, meters by metadata, and the customer's own orders, subscriptions and grants in the portal", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const licence = await polar.benefits.create({ type: "license_keys", description: "Portal licence", properties: {} });
    const plan = await polar.products.create({ name: "Portal plan", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_000, price_currency: "usd" }] });
    const guide = await polar.products.create({ name: "Field guide", prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }] });
    await polar.products.updateBenefits(guide.id, { benefits: [licence.id] });
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", "regular@example.com");
    const guideOrder = await paidOrderOf({ stack, shop: seller, customerSide }, guide.id, "regular@example.com");
    const idle = await polar.customers.create({ email: "idle@example.com" });

    expect((await polar.customers.list({ active: true })).items.map((customer) => customer.id)).toEqual([subscription.customerId]);
    expect((await polar.customers.list({ active: false })).items.map((customer) => customer.id)).toEqual([idle.id]);

    const byTeam = await polar.meters.create({ name: "Team A calls", filter: { conjunction: "and", clauses: [] }, aggregation: { func: "count" }, metadata: { team: "a" } });
    await polar.meters.create({ name: "Team B calls", filter: { conjunction: "and", clauses: [] }, aggregation: { func: "count" }, metadata: { team: "b" } });
    expect((await polar.meters.list({ metadata: { team: "a" } })).items.map((meter) => meter.id)).toEqual([byTeam.id]);

    const portal = createPolar({ accessToken: (await polar.customerSessions.create({ customer_id: subscription.customerId })).token, baseUrl: stack.gateway.url });
    const orderIds = async (query: Parameters<typeof portal.customerPortal.orders.list>[0]) => (await portal.customerPortal.orders.list(query)).items.map((order) => order.product_id);
    expect(await orderIds({ product_id: guide.id })).toEqual([guide.id]);
    expect(await orderIds({ subscription_id: subscription.id })).toEqual([plan.id]);
    expect(await orderIds({ product_billing_type: "one_time" })).toEqual([guide.id]);
    expect(await orderIds({ product_billing_type: "recurring" })).toEqual([plan.id]);
    expect(await orderIds({ query: "field" })).toEqual([guide.id]);
    expect(await orderIds({ query: "nothing like it" })).toEqual([]);
    const subscriptionIds = async (query: Parameters<typeof portal.customerPortal.subscriptions.list>[0]) => (await portal.customerPortal.subscriptions.list(query)).items.map((found) => found.id);
    expect(await subscriptionIds({ product_id: plan.id })).toEqual([subscription.id]);
    expect(await subscriptionIds({ product_id: guide.id })).toEqual([]);
    expect(await subscriptionIds({ query: "portal PLAN" })).toEqual([subscription.id]);

    // Grants held by a seat member: none, every grant here is the customer's own.
    expect((await portal.customerPortal.benefitGrants.list({ order_id: guideOrder.id })).items).toHaveLength(1);
    expect((await portal.customerPortal.benefitGrants.list({ member_id: "a-member" })).items).toEqual([]);
    expect((await polar.benefits.grants(licence.id, { member_id: "a-member" })).items).toEqual([]);
    expect((await polar.benefits.grants(licence.id, {})).items).toHaveLength(1);
  });

  it("export as CSV through SDK 1.x: Polar's columns and headers, dates in the time zone asked, filters, and text a spreadsheet would run neutralised", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const book = await polar.products.create({ name: "=HYPERLINK(\"http://evil.example\",\"Click\")", prices: [{ amount_type: "fixed", price_amount: 1_999, price_currency: "usd" }] });
    const before = new Date();
    await paidOrderOf({ stack, shop: seller, customerSide }, book.id, "first@example.com");
    const second = await paidOrderOf({ stack, shop: seller, customerSide }, book.id, "second@example.com");
    await polar.refunds.create({ order_id: second.id, reason: "customer_request", amount: 999 });

    const csv = await polar.orders.export({ timezone: "Asia/Kolkata" });
    const [header, ...rows] = csv.trimEnd().split("\r\n");
    expect(header).toBe("Email,Created At,Product,Net Amount,Currency,Status,Invoice number");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^first@example\.com,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30,"'=HYPERLINK\(""http:\/\/evil\.example"",""Click""\)",19\.99,usd,paid,/);
    expect(rows[1]).toContain(",partially_refunded,");

    const chosen = await polar.orders.export({ columns: ["email", "refunded_amount", "total_amount", "billing_reason"], status: "partially_refunded", created_after: before.toISOString() });
    expect(chosen).toBe("Email,Refunded Amount,Total,Billing Reason\r\nsecond@example.com,9.99,19.99,purchase\r\n");
    expect(await polar.orders.export({ created_before: before.toISOString() })).toBe("Email,Created At,Product,Net Amount,Currency,Status,Invoice number\r\n");
    // Only the caller's own orders, whatever organization is asked for.
    const stranger = createPolar({ accessToken: (await stack.seller()).token, baseUrl: stack.gateway.url });
    expect((await stranger.orders.export({ organization_id: seller.organizationId })).trimEnd().split("\r\n")).toHaveLength(1);
    await expect(polar.orders.export({ timezone: "Mars/Olympus" })).rejects.toMatchObject({ statusCode: 422 });
    // Read a batch at a time, each after where the last ended: two batches of one give both orders, in order, once.
    const batches = [];
    for await (const batch of orderExportRows(stack.billing.context.db, { organizationIds: [seller.organizationId], filters: {} }, ["email"], "UTC", 1)) batches.push(batch);
    expect(batches).toEqual([[["first@example.com"]], [["second@example.com"]]]);
  });
});
