import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { MetricsResponse } from "@polar-sh/sdk/models/components/metricsresponse.js";
import { RFCDate } from "@polar-sh/sdk/types/rfcdate.js";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { advanceDays, cardToken, subscribe, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

const DAY_MS = 86_400_000;

/** The calendar day of `moment` in `timezone`, as YYYY-MM-DD. */
const dayIn = (timezone: string, moment: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: timezone }).format(moment);
const daysAfter = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * A timezone whose calendar day is not UTC's right now (Kiritimati is 14 hours ahead, Pago Pago 11
 * behind): a sale made now falls near one of its midnights, on a different day than in UTC.
 */
const timezone = new Date().getUTCHours() >= 12 ? "Pacific/Kiritimati" : "Pacific/Pago_Pago";

/** Buys a one-time product through the hosted checkout, as a customer does. */
async function buyOnce(seller: Seller, productId: string, email: string) {
  const checkout = await seller.polar.checkouts.create({ products: [productId] });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerName: "Ada Lovelace", customerBillingAddress: { country: "GB" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const [order] = (await seller.polar.orders.list({ checkoutId: checkout.id })).result.items;
  if (!order) throw new Error("the checkout placed no order");
  return order;
}

/** A period's figures by its calendar day in the timezone asked for. */
const byDay = (metrics: MetricsResponse, zone: string) => new Map(metrics.periods.map((period) => [dayIn(zone, period.timestamp), period]));

describe("metrics", () => {
  let ebookId: string;
  let planId: string;
  let buyerId: string;
  let saleDay: string;
  let soldAt: Date;
  let cancelDay: string;
  let first: string;
  let last: string;

  // The sales every figure below counts; the tests after this one read them.
  it("sell an e-book and a plan, renew the plan a month on and cancel it", async () => {
    const ebook = await shop.polar.products.create({ name: "E-book", prices: [{ amountType: "fixed", priceAmount: 1900, priceCurrency: "usd" }] });
    ebookId = ebook.id;
    const order = await buyOnce(shop, ebook.id, "ada@example.com");
    buyerId = order.customerId;
    // Part of it refunded: still revenue, no longer net revenue.
    await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 900 });
    soldAt = order.createdAt;
    saleDay = dayIn(timezone, soldAt);
    // A checkout opened and left: counted, never converted.
    await shop.polar.checkouts.create({ products: [ebook.id] });

    const { plan, subscription } = await subscribe(stack, shop, "4242424242424242", "grace@example.com");
    planId = plan.id;
    const { now } = await advanceDays(stack, shop, 31);
    await expect.poll(async () => (await shop.polar.orders.list({ productId: plan.id })).result.items.length, { timeout: 10_000 }).toBe(2);
    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true, customerCancellationReason: "too_expensive" } });
    cancelDay = dayIn(timezone, new Date(now));
    first = daysAfter(saleDay, -1);
    last = daysAfter(saleDay, 40);

    // Another seller's sale on the same day never shows in this seller's figures.
    const other = await stack.seller();
    const otherProduct = await other.polar.products.create({ name: "Poster", prices: [{ amountType: "fixed", priceAmount: 5000, priceCurrency: "usd" }] });
    await buyOnce(other, otherProduct.id, "other@example.com");
    expect((await shop.polar.orders.list({})).result.items).toHaveLength(3);
  });

  const daily = (filters: Partial<Parameters<Polar["metrics"]["get"]>[0]> = {}) =>
    shop.polar.metrics.get({ startDate: new RFCDate(first), endDate: new RFCDate(last), interval: "day", timezone, ...filters });

  it("count each day's sales, subscriptions and checkouts in the seller's timezone", async () => {
    const metrics = await daily();
    expect(metrics.periods).toHaveLength(42);
    const days = byDay(metrics, timezone);
    expect(days.get(saleDay)).toMatchObject({
      orders: 3,
      revenue: 3900,
      netRevenue: 3000,
      averageOrderValue: 1300,
      netAverageOrderValue: 1000,
      oneTimeProducts: 1,
      oneTimeProductsRevenue: 1900,
      oneTimeProductsNetRevenue: 1000,
      newSubscriptions: 1,
      newSubscriptionsRevenue: 1000,
      renewedSubscriptions: 1,
      renewedSubscriptionsRevenue: 1000,
      checkouts: 3,
      succeededCheckouts: 2,
      checkoutsConversion: 2 / 3,
      activeSubscriptions: 1,
      monthlyRecurringRevenue: 1000,
      annualRecurringRevenue: 12_000,
      // Canceled at the end of its period: no longer committed.
      committedSubscriptions: 0,
      committedMonthlyRecurringRevenue: 0,
      canceledSubscriptions: 0,
      averageRevenuePerUser: 1000,
      // The plan is new today: none was active when the day began, so none churned.
      churnRate: 0,
    });
    // The sale's UTC day is another day here, and holds nothing.
    const utcDay = dayIn("UTC", new Date(Date.parse(`${saleDay}T12:00:00Z`) + (timezone === "Pacific/Kiritimati" ? -DAY_MS : DAY_MS)));
    expect(days.get(utcDay)).toMatchObject({ orders: 0, revenue: 0, checkouts: 0 });
    expect(days.get(cancelDay)).toMatchObject({ orders: 0, canceledSubscriptions: 1, canceledSubscriptionsTooExpensive: 1, canceledSubscriptionsOther: 0, activeSubscriptions: 1, monthlyRecurringRevenue: 1000, churnRate: 1 });
    expect(days.get(last)).toMatchObject({ activeSubscriptions: 1, cumulativeRevenue: 3900, netCumulativeRevenue: 3000 });
    expect(metrics.totals).toMatchObject({ orders: 3, revenue: 3900, averageOrderValue: 1300, canceledSubscriptions: 1, activeSubscriptions: 1, checkoutsConversion: 2 / 3, cumulativeRevenue: 3900 });
    expect(metrics.totals).toMatchObject({ averageRevenuePerUser: 1000, churnRate: 0 });
    expect(metrics.metrics.revenue).toEqual({ slug: "revenue", displayName: "Revenue", type: "currency" });
    expect(metrics.metrics.checkoutsConversion).toEqual({ slug: "checkouts_conversion", displayName: "Checkouts Conversion Rate", type: "percentage" });
  });

  it("sum a month's figures into its bucket", async () => {
    const metrics = await shop.polar.metrics.get({ startDate: new RFCDate(first), endDate: new RFCDate(last), interval: "month", timezone });
    const months = new Map(metrics.periods.map((period) => [dayIn(timezone, period.timestamp).slice(0, 7), period]));
    expect(months.get(saleDay.slice(0, 7))).toMatchObject({ orders: 3, revenue: 3900, newSubscriptions: 1, renewedSubscriptions: 1, checkouts: 3, succeededCheckouts: 2, activeSubscriptions: 1 });
    expect(months.get(cancelDay.slice(0, 7))).toMatchObject({ canceledSubscriptions: 1, activeSubscriptions: 1, monthlyRecurringRevenue: 1000 });
    expect(metrics.totals).toMatchObject({ orders: 3, revenue: 3900, canceledSubscriptions: 1 });
  });

  it("bucket by hour and by week in the seller's timezone", async () => {
    const hours = await daily({ interval: "hour", startDate: new RFCDate(saleDay), endDate: new RFCDate(daysAfter(saleDay, 1)) });
    expect(hours.periods).toHaveLength(48);
    const saleHour = hours.periods.find((period) => period.timestamp <= soldAt && soldAt.getTime() < period.timestamp.getTime() + 3_600_000);
    expect(saleHour).toMatchObject({ oneTimeProducts: 1, oneTimeProductsRevenue: 1900 });
    expect(hours.totals).toMatchObject({ orders: 3, revenue: 3900 });

    const weeks = await daily({ interval: "week" });
    const weekday = new Intl.DateTimeFormat("en-US", { timeZone: timezone, weekday: "long", hour: "numeric", hourCycle: "h23" });
    expect(new Set(weeks.periods.map((period) => weekday.format(period.timestamp)))).toEqual(new Set(["Monday, 00"]));
    const saleWeek = weeks.periods.findLast((period) => period.timestamp <= soldAt);
    expect(saleWeek).toMatchObject({ orders: 3, oneTimeProducts: 1, checkouts: 3 });
    expect(weeks.totals).toMatchObject({ orders: 3, revenue: 3900, canceledSubscriptions: 1 });
  });

  it("narrow to a product, a billing type or a customer", async () => {
    expect((await daily({ productId: planId })).totals).toMatchObject({ orders: 2, revenue: 2000, oneTimeProducts: 0, activeSubscriptions: 1, checkouts: 1 });
    expect((await daily({ productId: ebookId })).totals).toMatchObject({ orders: 1, revenue: 1900, activeSubscriptions: 0, checkouts: 2, succeededCheckouts: 1 });
    expect((await daily({ billingType: "one_time" })).totals).toMatchObject({ orders: 1, revenue: 1900, newSubscriptions: 0, activeSubscriptions: 0, monthlyRecurringRevenue: 0 });
    expect((await daily({ billingType: "recurring" })).totals).toMatchObject({ orders: 2, revenue: 2000, oneTimeProducts: 0, activeSubscriptions: 1 });
    const customers = await daily({ customerId: buyerId });
    expect(customers.totals).toMatchObject({ orders: 1, revenue: 1900, activeSubscriptions: 0, checkouts: 1 });
    expect(byDay(customers, timezone).get(saleDay)).toMatchObject({ orders: 1 });
    expect((await daily({ metrics: ["annual_recurring_revenue", "checkouts_conversion"] })).totals).toEqual({ annualRecurringRevenue: 12_000, checkoutsConversion: 2 / 3 });
    // Churn is worked out from new subscriptions (orders) too, even asked for alone.
    const churn = byDay(await daily({ metrics: ["churn_rate"] }), timezone);
    expect([churn.get(saleDay)?.churnRate, churn.get(cancelDay)?.churnRate]).toEqual([0, 1]);
  });

  it("answer in a half-hour timezone, each sale on its day there, only the metrics asked for", async () => {
    const metrics = await daily({ timezone: "Asia/Kolkata", metrics: ["orders", "revenue", "checkouts"] });
    expect(metrics.totals).toEqual({ orders: 3, revenue: 3900, checkouts: 3 });
    expect(byDay(metrics, "Asia/Kolkata").get(dayIn("Asia/Kolkata", soldAt))).toMatchObject({ orders: 3, revenue: 3900, checkouts: 3 });
    expect(Object.keys(metrics.metrics).sort()).toEqual(["checkouts", "orders", "revenue"]);
    expect(metrics.periods.every((period) => period.activeSubscriptions === undefined)).toBe(true);
  });

  it("never count another seller's sales", async () => {
    expect((await daily()).totals.revenue).toBe(3900);
    const other = await stack.seller();
    expect((await other.polar.metrics.get({ startDate: new RFCDate(first), endDate: new RFCDate(last), interval: "day", timezone })).totals).toMatchObject({ orders: 0, revenue: 0, activeSubscriptions: 0 });
    expect((await other.polar.metrics.get({ startDate: new RFCDate(first), endDate: new RFCDate(last), interval: "day", timezone, organizationId: shop.organizationId })).totals).toMatchObject({ orders: 0 });
  });

  it("refuse a range too long for the interval, and unknown metrics, as Polar does", async () => {
    await expect(shop.polar.metrics.get({ startDate: new RFCDate("2025-01-01"), endDate: new RFCDate("2026-01-03"), interval: "day" })).rejects.toMatchObject({
      detail: [expect.objectContaining({ msg: "The interval is too small for the given date range. Use a larger interval or reduce the date range." })],
    });
    await expect(shop.polar.metrics.get({ startDate: new RFCDate(first), endDate: new RFCDate(last), interval: "day", metrics: ["revenue", "bogus"] })).rejects.toMatchObject({
      detail: [expect.objectContaining({ loc: ["query", "metrics"], msg: "Invalid metric slugs: bogus" })],
    });
  });

  it("tell the limits of each interval", async () => {
    const limits = await shop.polar.metrics.limits();
    expect(limits.minDate.toString()).toBe("2023-01-01");
    expect(limits.intervals).toEqual({ hour: { minDays: 0, maxDays: 7 }, day: { minDays: 0, maxDays: 366 }, week: { minDays: 14, maxDays: 371 }, month: { minDays: 60, maxDays: 1460 }, year: { minDays: 366, maxDays: 3650 } });
  });

  it("answer a member signed in, and refuse a token without metrics:read", async () => {
    const response = await shop.owner.fetch(`${stack.gateway.url}/v1/metrics/?start_date=${first}&end_date=${last}&interval=month&timezone=${timezone}&metrics=orders`, { headers: { origin: PUBLIC_URL } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { totals: { orders: number } }).totals.orders).toBe(3);
    const narrow = await stack.seller({ scopes: ["orders:read"] });
    await expect(narrow.polar.metrics.limits()).rejects.toMatchObject({ statusCode: 403 });
  });
  it("stop counting a paused subscription as active and in MRR from its pause, without calling it churned", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "pausing@example.com");
    await polar.subscriptions.update(subscription.id, { pause_at_period_end: true });
    const { now } = await advanceDays(stack, seller, 35);
    expect(await polar.subscriptions.get(subscription.id)).toMatchObject({ status: "paused" });
    const today = dayIn("UTC", new Date(now));
    const metrics = await polar.metrics.get({ start_date: daysAfter(today, -40), end_date: today, interval: "day", timezone: "UTC" });
    const started = metrics.periods.find((period) => period.active_subscriptions === 1);
    expect(started?.monthly_recurring_revenue).toBe(1000);
    const [latest] = metrics.periods.slice(-1);
    expect(latest).toMatchObject({ active_subscriptions: 0, committed_subscriptions: 0, monthly_recurring_revenue: 0, committed_monthly_recurring_revenue: 0 });
    expect(metrics.totals.churned_subscriptions).toBe(0);
  });

  it("count a trialing subscription as active and in trialing MRR, not in MRR nor ARPU, as Polar does: the figures agree", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    await subscribe(stack, seller, "4242424242424242", "paying@example.com");
    await subscribe(stack, seller, "4242424242424242", "trying@example.com", { trialDays: 14 });
    const today = dayIn("UTC", new Date());
    const metrics = await polar.metrics.get({ start_date: daysAfter(today, -29), end_date: today, interval: "day", timezone: "UTC" });
    expect(metrics.totals).toMatchObject({
      active_subscriptions: 2,
      monthly_recurring_revenue: 1000,
      trial_committed_monthly_recurring_revenue: 1000,
      // The trial pays nothing yet: 1000 of MRR over two customers.
      average_revenue_per_user: 500,
    });
    expect(metrics.periods.at(-1)).toMatchObject({ monthly_recurring_revenue: 1000, trial_committed_monthly_recurring_revenue: 1000 });
  });

  it("export as CSV through SDK 1.x: a row per period, a column per metric, the figures GET /v1/metrics/ gives", async () => {
    const polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const query = { start_date: first, end_date: last, interval: "day", timezone } as const;
    const [csv, json] = await Promise.all([polar.metrics.export(query), polar.metrics.get(query)]);
    const [header, ...rows] = csv.trimEnd().split("\r\n").map((line) => line.split(","));
    const described = Object.values(json.metrics as Record<string, { slug: string; display_name: string } | null | undefined>).flatMap((metric) => (metric ? [metric] : []));
    const slugs = described.map((metric) => metric.slug);
    // Every metric Tollgate computes, in Polar's order, under its display name.
    expect(header).toEqual(["Timestamp", ...described.map((metric) => metric.display_name)]);
    expect(header).toContain("Checkouts Conversion Rate");
    expect(rows).toHaveLength(json.periods.length);
    rows.forEach(([timestamp = "", ...cells], index) => {
      const period: Record<string, unknown> = { ...json.periods[index] };
      // The period's start in the time zone asked for.
      expect(new Date(timestamp).getTime()).toBe(Date.parse(String(period.timestamp)));
      expect(timestamp.slice(0, 10)).toBe(dayIn(timezone, new Date(String(period.timestamp))));
      expect(cells.map(Number)).toEqual(slugs.map((slug) => period[slug]));
    });
    expect(rows.find(([timestamp]) => timestamp?.startsWith(saleDay))?.slice(1, 3)).toEqual(["3", "3900"]);

    // The metrics asked for only; refused as GET /v1/metrics/ refuses.
    expect((await polar.metrics.export({ ...query, metrics: ["revenue", "orders"] })).split("\r\n")[0]).toBe("Timestamp,Orders,Revenue");
    await expect(polar.metrics.export({ ...query, metrics: ["bogus"] })).rejects.toMatchObject({ statusCode: 422 });
    await expect(polar.metrics.export({ ...query, start_date: "2025-01-01", end_date: "2026-01-03" })).rejects.toMatchObject({ statusCode: 422 });
  });
});

describe("metric dashboards", () => {
  const sdk = (seller: Seller) => createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });

  it("create, list, read back, change and delete a dashboard through SDK 1.x", async () => {
    const polar = sdk(shop);
    const created = await polar.metrics.createDashboard({ name: "Growth", metrics: ["revenue", "active_subscriptions"] });
    expect(created).toMatchObject({ name: "Growth", metrics: ["revenue", "active_subscriptions"], organization_id: shop.organizationId, modified_at: null });
    expect(Date.parse(created.created_at)).not.toBeNaN();
    expect((await polar.metrics.listDashboards()).map((dashboard) => dashboard.id)).toContain(created.id);
    expect(await polar.metrics.listDashboards({ organization_id: shop.organizationId })).toContainEqual(created);
    expect(await polar.metrics.getDashboard(created.id)).toEqual(created);

    const renamed = await polar.metrics.updateDashboard(created.id, { name: "Growth, monthly" });
    expect(renamed).toMatchObject({ name: "Growth, monthly", metrics: ["revenue", "active_subscriptions"] });
    expect(renamed.modified_at).not.toBeNull();
    expect(await polar.metrics.updateDashboard(created.id, { metrics: ["churn_rate"], name: null })).toMatchObject({ name: "Growth, monthly", metrics: ["churn_rate"] });
    expect(await polar.metrics.getDashboard(created.id)).toMatchObject({ name: "Growth, monthly", metrics: ["churn_rate"] });

    await polar.metrics.deleteDashboard(created.id);
    await expect(polar.metrics.getDashboard(created.id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await polar.metrics.listDashboards()).map((dashboard) => dashboard.id)).not.toContain(created.id);
  });

  it("keep each seller's dashboards its own: another organization's is not found", async () => {
    const mine = await sdk(shop).metrics.createDashboard({ name: "Mine", metrics: ["orders"] });
    const stranger = sdk(await stack.seller());
    await expect(stranger.metrics.getDashboard(mine.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(stranger.metrics.updateDashboard(mine.id, { name: "Theirs" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(stranger.metrics.deleteDashboard(mine.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await stranger.metrics.listDashboards({ organization_id: shop.organizationId })).toEqual([]);
    expect(await sdk(shop).metrics.getDashboard(mine.id)).toMatchObject({ name: "Mine" });
  });

  it("refuse metrics Tollgate does not compute, more than ten, and an empty name, in Polar's 422; and writes without metrics:write", async () => {
    const polar = sdk(shop);
    await expect(polar.metrics.createDashboard({ name: "Costs", metrics: ["revenue", "costs"] })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [expect.objectContaining({ loc: ["body", "metrics", 1], msg: "Not a metric Tollgate computes" })] },
    });
    const eleven = ["orders", "revenue", "net_revenue", "cumulative_revenue", "average_order_value", "active_subscriptions", "monthly_recurring_revenue", "churn_rate", "checkouts", "succeeded_checkouts", "checkouts_conversion"];
    await expect(polar.metrics.createDashboard({ name: "Everything", metrics: eleven })).rejects.toMatchObject({ statusCode: 422 });
    await expect(polar.metrics.createDashboard({ name: "", metrics: [] })).rejects.toMatchObject({ statusCode: 422, error: { detail: [expect.objectContaining({ loc: ["body", "name"] })] } });
    const kept = await polar.metrics.createDashboard({ name: "Kept" });
    expect(kept.metrics).toEqual([]);
    await expect(polar.metrics.updateDashboard(kept.id, { metrics: ["seats_total"] })).rejects.toMatchObject({ statusCode: 422 });

    const reader = sdk(await stack.seller({ scopes: ["metrics:read"] }));
    expect(await reader.metrics.listDashboards()).toEqual([]);
    await expect(reader.metrics.createDashboard({ name: "Nope" })).rejects.toMatchObject({ statusCode: 403 });
  });
});
