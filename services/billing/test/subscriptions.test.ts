import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { advanceDays as advanceDaysOn, cardToken, eventTypesAbout, ordersOf, subscribe as subscribeOn, subscribeTo, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

const advanceDays = (seller: Seller, days: number) => advanceDaysOn(stack, seller, days);
const subscribe = (seller: Seller, cardNumber: string, email: string, product?: { trialDays?: number }) => subscribeOn(stack, seller, cardNumber, email, product);

describe("subscriptions", () => {
  it("start from a checkout and renew twice on the test clock, each renewal charged and ordered once", async () => {
    const { subscription, checkout } = await subscribe(shop, "4242424242424242", "renews@example.com");
    expect(subscription).toMatchObject({ status: "active", amount: 1000, currency: "usd", recurringInterval: "month", checkoutId: checkout.id, cancelAtPeriodEnd: false });
    const [first] = await ordersOf(shop, subscription.id);
    expect(first).toMatchObject({ billingReason: "subscription_create", status: "paid", totalAmount: 1000, checkoutId: checkout.id });
    expect(first?.subscription?.id).toBe(subscription.id);
    await expect.poll(() => eventTypesAbout(stack, subscription.id)).toEqual(["subscription.created", "subscription.active"]);

    await advanceDays(shop, 32);
    const renewed = await shop.polar.subscriptions.get({ id: subscription.id });
    expect(renewed.status).toBe("active");
    expect(renewed.currentPeriodStart.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    await advanceDays(shop, 31);
    const orders = await ordersOf(shop, subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ["subscription_create", "paid", 1000],
      ["subscription_cycle", "paid", 1000],
      ["subscription_cycle", "paid", 1000],
    ]);
    const payments = await stack.billing.context.db("payments").whereIn("order_id", orders.map((order) => order.id)).select("amount", "status");
    expect(payments).toEqual([
      { amount: 1000, status: "succeeded" },
      { amount: 1000, status: "succeeded" },
      { amount: 1000, status: "succeeded" },
    ]);
    await expect.poll(() => eventTypesAbout(stack, subscription.id)).toEqual(["subscription.created", "subscription.active", "subscription.updated", "subscription.cycled", "subscription.updated", "subscription.cycled"]);
  });

  it("are renewed as soon as the lease of a replica that died renewing them runs out, not at the renewal worker's next poll", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4242424242424242", "orphaned@example.com");
    const { db, app } = stack.billing.context;
    // Due in a second, and held until a second after by a replica that claimed it and died.
    const dueAt = Date.now() + 1_000;
    await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(dueAt) } });
    await db("subscriptions").where({ id: subscription.id }).update({ leased_until: new Date(dueAt + 1_000), lease_claims: db.raw("lease_claims + 1") });
    await new Promise((resolve) => setTimeout(resolve, dueAt + 100 - Date.now()));
    // A pass of the worker's (it polls every 10 s) finds it due but held.
    app.renewals.wake();
    await expect.poll(async () => (await ordersOf(seller, subscription.id)).length, { timeout: 4_000, interval: 100 }).toBe(2);
  });

  it("go past due when a renewal is declined, retry on the dunning days, and are revoked after the last", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4000000000000341", "declines@example.com");
    await advanceDays(seller, 32);
    const pastDue = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(pastDue.status).toBe("past_due");
    const [, renewal] = await ordersOf(seller, subscription.id);
    expect(renewal).toMatchObject({ billingReason: "subscription_cycle", status: "pending", paid: false, dueAmount: 1000 });
    await expect.poll(() => eventTypesAbout(stack, subscription.id)).toContain("subscription.past_due");

    await advanceDays(seller, 8);
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).status).toBe("past_due");
    await advanceDays(seller, 14);
    const revoked = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(revoked.status).toBe("canceled");
    expect(revoked.endedAt).not.toBeNull();
    expect((await ordersOf(seller, subscription.id)).map((order) => order.status)).toEqual(["paid", "void"]);
    const declines = await stack.billing.context.db("payments").where({ order_id: renewal?.id ?? "" }).select("status");
    // The renewal and its four dunning retries, each declined once.
    expect(declines).toHaveLength(5);
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).slice(-2)).toEqual(["subscription.canceled", "subscription.revoked"]);
  });

  it("recover from past due when the customer keeps a new card in the portal, and renew on it", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4000000000000341", "recovers@example.com");
    await advanceDays(seller, 32);
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).status).toBe("past_due");

    const { token } = await seller.polar.customerSessions.create({ customerId: subscription.customerId });
    const declined = customerSide.customerPortal.customers.addPaymentMethod(
      { customerSession: token },
      { confirmationTokenId: await cardToken(stack, "4000000000000002"), setDefault: true, returnUrl: "https://app.example/billing" },
    );
    await expect(declined).rejects.toMatchObject({ statusCode: 422 });
    const added = await customerSide.customerPortal.customers.addPaymentMethod(
      { customerSession: token },
      { confirmationTokenId: await cardToken(stack, "4242424242424242"), setDefault: true, returnUrl: "https://app.example/billing" },
    );
    expect(added).toMatchObject({ status: "succeeded", paymentMethod: { type: "card", methodMetadata: { brand: "visa", last4: "4242" } } });

    await expect.poll(async () => (await seller.polar.subscriptions.get({ id: subscription.id })).status, { timeout: 15_000 }).toBe("active");
    expect((await ordersOf(seller, subscription.id)).map((order) => order.status)).toEqual(["paid", "paid"]);
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).slice(-2)).toEqual(["subscription.updated", "subscription.active"]);
    await advanceDays(seller, 31);
    expect((await ordersOf(seller, subscription.id)).map((order) => order.status)).toEqual(["paid", "paid", "paid"]);
  });

  it("move to another plan mid-period: prorated and invoiced at once, or added to the next renewal", async () => {
    const seller = await stack.seller();
    const larger = await seller.polar.products.create({ name: "Team", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }] });
    for (const behaviour of ["invoice", "prorate"] as const) {
      const { subscription } = await subscribe(seller, "4242424242424242", `upgrades-${behaviour}@example.com`);
      await advanceDays(seller, 15);
      const moved = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: larger.id, prorationBehavior: behaviour } });
      expect(moved).toMatchObject({ productId: larger.id, amount: 3000, status: "active" });
      const fraction = (subscription.currentPeriodEnd.getTime() - (subscription.currentPeriodStart.getTime() + 15 * 86_400_000)) / (subscription.currentPeriodEnd.getTime() - subscription.currentPeriodStart.getTime());
      const expectedNet = Math.round(3000 * fraction) - Math.round(1000 * fraction);
      let orders = await ordersOf(seller, subscription.id);
      if (behaviour === "invoice") {
        const update = orders.find((order) => order.billingReason === "subscription_update");
        expect(update?.status).toBe("paid");
        expect(update?.items.map((item) => [item.label, item.proration])).toEqual([
          ["Remaining time on Team", true],
          [`Unused time on Pro upgrades-invoice@example.com`, true],
        ]);
        expect(Math.abs((update?.totalAmount ?? 0) - expectedNet)).toBeLessThanOrEqual(2);
      } else {
        expect(orders.map((order) => order.billingReason)).toEqual(["subscription_create"]);
      }
      await advanceDays(seller, 16);
      orders = await ordersOf(seller, subscription.id);
      const renewal = orders.find((order) => order.billingReason === "subscription_cycle");
      expect(renewal?.items[0]).toMatchObject({ label: "Team", amount: 3000, proration: false });
      const carried = (renewal?.totalAmount ?? 0) - 3000;
      if (behaviour === "invoice") expect(carried).toBe(0);
      else expect(Math.abs(carried - expectedNet)).toBeLessThanOrEqual(2);
    }
  });

  it("start a free plan without a card, as the checkout says, and renew it at nothing", async () => {
    const seller = await stack.seller();
    const plan = await seller.polar.products.create({ name: "Hobby", recurringInterval: "month", prices: [{ amountType: "free" }] });
    const checkout = await seller.polar.checkouts.create({ products: [plan.id] });
    expect(checkout).toMatchObject({ isFreeProductPrice: true, isPaymentRequired: false, isPaymentSetupRequired: false, isPaymentFormRequired: false });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "hobbyist@example.com" } });
    await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
    const [subscription] = (await seller.polar.subscriptions.list({ productId: plan.id })).result.items;
    expect(subscription).toMatchObject({ status: "active", amount: 0 });
    await advanceDays(seller, 32);
    expect((await ordersOf(seller, subscription?.id ?? "")).map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ["subscription_create", "paid", 0],
      ["subscription_cycle", "paid", 0],
    ]);
  });

  it("cancel at the period end, uncancel, cancel again, and end when the period does", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4242424242424242", "cancels@example.com");
    const canceled = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true, customerCancellationReason: "too_expensive", customerCancellationComment: "Maybe next year" } });
    expect(canceled).toMatchObject({ status: "active", cancelAtPeriodEnd: true, customerCancellationReason: "too_expensive", customerCancellationComment: "Maybe next year" });
    expect(canceled.endsAt?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    // The seller finds the ones that are ending among the others.
    const ending = async (cancelAtPeriodEnd: boolean) => (await seller.polar.subscriptions.list({ cancelAtPeriodEnd })).result.items.map((item) => item.id);
    expect(await ending(true)).toEqual([subscription.id]);
    expect(await ending(false)).not.toContain(subscription.id);
    const kept = await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: false } });
    expect(kept).toMatchObject({ cancelAtPeriodEnd: false, endsAt: null, canceledAt: null });
    await seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await advanceDays(seller, 32);
    const ended = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(ended.status).toBe("canceled");
    expect(ended.endedAt?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    expect(await ordersOf(seller, subscription.id)).toHaveLength(1);
    await expect.poll(() => eventTypesAbout(stack, subscription.id)).toEqual([
      "subscription.created",
      "subscription.active",
      "subscription.updated",
      "subscription.canceled",
      "subscription.updated",
      "subscription.uncanceled",
      "subscription.updated",
      "subscription.canceled",
      "subscription.updated",
      "subscription.revoked",
    ]);
  });

  it("are revoked at once, and an ended subscription cannot be changed", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4242424242424242", "revoked@example.com");
    const revoked = await seller.polar.subscriptions.revoke({ id: subscription.id });
    expect(revoked.status).toBe("canceled");
    expect(revoked.endedAt).not.toBeNull();
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).slice(-3)).toEqual(["subscription.updated", "subscription.canceled", "subscription.revoked"]);
    await expect(seller.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: false } })).rejects.toMatchObject({ statusCode: 422 });
    await advanceDays(seller, 40);
    expect(await ordersOf(seller, subscription.id)).toHaveLength(1);
  });

  it("start with a trial: nothing charged, the card kept, and the first charge when the trial ends", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(seller, "4242424242424242", "trial@example.com", { trialDays: 14 });
    expect(subscription.status).toBe("trialing");
    expect(subscription.trialEnd?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    expect((await ordersOf(seller, subscription.id))[0]).toMatchObject({ billingReason: "subscription_create", totalAmount: 0, status: "paid" });
    await advanceDays(seller, 15);
    const active = await seller.polar.subscriptions.get({ id: subscription.id });
    expect(active.status).toBe("active");
    expect((await ordersOf(seller, subscription.id)).map((order) => order.totalAmount)).toEqual([0, 1000]);
  });

  it("start a free plan for a customer through SDK 1.x without a checkout: active, nothing ordered, benefits granted; a paid or one-time product, or a stranger, refused with a 422", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const licence = await polar.benefits.create({ type: "license_keys", description: "Free tier licence", properties: {} });
    // SDK 1.x creates no free price (0.47 does): a free plan made by 0.47 is started by 1.x.
    const free = await seller.polar.products.create({ name: "Free tier", recurringInterval: "month", prices: [{ amountType: "free", priceCurrency: "usd" }] });
    await polar.products.updateBenefits(free.id, { benefits: [licence.id] });
    const customer = await polar.customers.create({ email: "free-tier@example.com", external_id: "free-tier-user" });

    const started = await polar.subscriptions.create({ product_id: free.id, customer_id: customer.id, metadata: { source: "signup" } });
    expect(started).toMatchObject({ status: "active", amount: 0, currency: "usd", customer_id: customer.id, product_id: free.id, checkout_id: null, metadata: { source: "signup" } });
    expect(new Date(started.current_period_end).getTime() - new Date(started.current_period_start).getTime()).toBeGreaterThanOrEqual(28 * 86_400_000);
    expect(await ordersOf(seller, started.id)).toEqual([]);
    expect((await polar.licenseKeys.list({ benefit_id: licence.id })).items.map((key) => [key.customer_id, key.status])).toEqual([[customer.id, "granted"]]);
    await expect.poll(() => eventTypesAbout(stack, started.id)).toEqual(["subscription.created", "subscription.active"]);
    // By the seller's own id for the customer, too.
    const second = await polar.customers.create({ email: "free-external@example.com", external_id: "free-external" });
    expect(await polar.subscriptions.create({ product_id: free.id, external_customer_id: "free-external" })).toMatchObject({ customer_id: second.id, status: "active" });

    const paid = await polar.products.create({ name: "Paid tier", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }] });
    const once = await seller.polar.products.create({ name: "Free download", prices: [{ amountType: "free", priceCurrency: "usd" }] });
    const stranger = await stack.seller();
    const strangersCustomer = await createPolar({ accessToken: stranger.token, baseUrl: stack.gateway.url }).customers.create({ email: "someone@example.com" });
    const refusal = async (body: Parameters<typeof polar.subscriptions.create>[0]) => {
      const response = await fetch(`${stack.gateway.url}/v1/subscriptions/`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` }, body: JSON.stringify(body) });
      expect(response.status).toBe(422);
      const { detail } = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
      return detail.map((issue) => [issue.loc.join("."), issue.msg]);
    };
    expect(await refusal({ product_id: paid.id, customer_id: customer.id })).toEqual([["body.product_id", "Product is not free. The customer should go through a checkout to create a paid subscription."]]);
    expect(await refusal({ product_id: once.id, customer_id: customer.id })).toEqual([["body.product_id", "Product is not a recurring product."]]);
    expect(await refusal({ product_id: free.id, customer_id: strangersCustomer.id })).toEqual([["body.customer_id", "Customer does not exist."]]);
    expect(await refusal({ product_id: free.id, external_customer_id: "nobody" })).toEqual([["body.external_customer_id", "Customer does not exist."]]);
    const strangersProduct = await stranger.polar.products.create({ name: "Theirs", recurringInterval: "month", prices: [{ amountType: "free", priceCurrency: "usd" }] });
    expect(await refusal({ product_id: strangersProduct.id, customer_id: customer.id })).toEqual([["body.product_id", "Product does not exist."]]);
    expect((await polar.subscriptions.list({ customer_id: customer.id })).items).toHaveLength(1);
  });

  it("pause and resume from the customer's portal through SDK 1.x, once the seller lets customers do it", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const plan = await polar.products.create({ name: "Portal pausable", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_200, price_currency: "usd" }] });
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", "portal-pause@example.com");
    const portal = createPolar({ accessToken: (await polar.customerSessions.create({ customer_id: subscription.customerId })).token, baseUrl: stack.gateway.url });

    // Off until the seller turns it on, as on Polar.
    const settings = (await polar.organizations.get(seller.organizationId)).customer_portal_settings;
    expect(settings.subscription.pause).toBe(false);
    await expect(portal.customerPortal.subscriptions.update(subscription.id, { pause_at_period_end: true })).rejects.toMatchObject({ statusCode: 403, error: { error: "PauseResumeNotAllowed" } });
    await polar.organizations.update(seller.organizationId, { customer_portal_settings: { ...settings, subscription: { ...settings.subscription, pause: true } } });

    expect(await portal.customerPortal.subscriptions.update(subscription.id, { pause_at_period_end: true })).toMatchObject({ status: "active", pause_at_period_end: true });
    expect(await portal.customerPortal.subscriptions.update(subscription.id, { pause_at_period_end: false })).toMatchObject({ pause_at_period_end: false });
    await portal.customerPortal.subscriptions.update(subscription.id, { pause_at_period_end: true });
    await advanceDays(seller, 32);
    expect((await portal.customerPortal.subscriptions.get(subscription.id)).status).toBe("paused");
    expect(await portal.customerPortal.subscriptions.update(subscription.id, { resume: true })).toMatchObject({ status: "active", paused_at: null });
    expect((await ordersOf(seller, subscription.id)).map((order) => order.billingReason)).toEqual(["subscription_create", "subscription_cycle"]);
  });

  it("pause at the period end through SDK 1.x: no order and no access while paused, then resumed by hand or on the date set, charged and granted again", async () => {
    const seller = await stack.seller();
    const pinned = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const licence = await pinned.benefits.create({ type: "license_keys", description: "Pausable licence", properties: {} });
    const plan = await pinned.products.create({ name: "Pausable", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_000, price_currency: "usd" }] });
    await pinned.products.updateBenefits(plan.id, { benefits: [licence.id] });
    const { subscription } = await subscribeTo(stack, seller, plan.id, "4242424242424242", "pause@example.com");
    const keysOf = async () => (await pinned.licenseKeys.list({ benefit_id: licence.id })).items;
    const keyOf = async () => (await keysOf()).map((key) => key.status);
    const [original] = await keysOf();
    expect(original?.status).toBe("granted");

    // Refused: resuming what is not paused, and a resumption before the period ends.
    await expect(pinned.subscriptions.update(subscription.id, { resume: true })).rejects.toMatchObject({ statusCode: 403, error: { error: "PauseResumeNotAllowed" } });
    await expect(pinned.subscriptions.update(subscription.id, { pause_at_period_end: true, resumes_at: new Date(subscription.currentPeriodEnd.getTime() - 1000).toISOString() })).rejects.toMatchObject({ statusCode: 422 });

    const scheduled = await pinned.subscriptions.update(subscription.id, { pause_at_period_end: true });
    expect(scheduled).toMatchObject({ status: "active", pause_at_period_end: true, paused_at: null, resumes_at: null });
    await advanceDays(seller, 32);
    const paused = await pinned.subscriptions.get(subscription.id);
    expect(paused).toMatchObject({ status: "paused", pause_at_period_end: false, paused_at: subscription.currentPeriodEnd.toISOString() });
    expect(await ordersOf(seller, subscription.id)).toHaveLength(1);
    expect(await keyOf()).toEqual(["revoked"]);
    await advanceDays(seller, 40);
    expect(await ordersOf(seller, subscription.id)).toHaveLength(1);

    const resumed = await pinned.subscriptions.update(subscription.id, { resume: true });
    expect(resumed).toMatchObject({ status: "active", paused_at: null, resumes_at: null });
    expect(new Date(resumed.current_period_start).getTime()).toBeGreaterThan(subscription.currentPeriodEnd.getTime() + 41 * 86_400_000);
    expect((await ordersOf(seller, subscription.id)).map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ["subscription_create", "paid", 1000],
      ["subscription_cycle", "paid", 1000],
    ]);
    // The same key as before the pause, granted again: the customer's software keeps working with it.
    expect((await keysOf()).map((key) => [key.key, key.status])).toEqual([[original?.key, "granted"]]);
    await expect.poll(() => eventTypesAbout(stack, subscription.id)).toEqual(expect.arrayContaining(["subscription.paused", "subscription.resumed"]));

    // Paused again with a date to resume on: the renewal worker resumes it then.
    const resumesAt = new Date(new Date(resumed.current_period_end).getTime() + 10 * 86_400_000);
    expect(await pinned.subscriptions.update(subscription.id, { pause_at_period_end: true, resumes_at: resumesAt.toISOString() })).toMatchObject({ resumes_at: resumesAt.toISOString() });
    await advanceDays(seller, 32);
    expect((await pinned.subscriptions.get(subscription.id)).status).toBe("paused");
    await advanceDays(seller, 10);
    const again = await pinned.subscriptions.get(subscription.id);
    expect(again).toMatchObject({ status: "active", current_period_start: resumesAt.toISOString() });
    expect(await ordersOf(seller, subscription.id)).toHaveLength(3);

    // A pause asked for and taken back: it renews as before.
    await pinned.subscriptions.update(subscription.id, { pause_at_period_end: true });
    expect(await pinned.subscriptions.update(subscription.id, { pause_at_period_end: false })).toMatchObject({ pause_at_period_end: false, status: "active" });
  });

  it("export as CSV through SDK 1.x: Polar's columns, the net amount after a discount, and the filters its export takes", async () => {
    const seller = await stack.seller();
    const polar = createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });
    const plan = await polar.products.create({ name: "Exported plan", recurring_interval: "month", recurring_interval_count: 3, prices: [{ amount_type: "fixed", price_amount: 2_000, price_currency: "usd" }] });
    const plain = await subscribeTo(stack, seller, plan.id, "4242424242424242", "plain@example.com");
    const discount = await polar.discounts.create({ type: "percentage", basis_points: 2_500, duration: "forever", name: "Quarter off", code: "QUARTER" });
    const discounted = await subscribeTo(stack, seller, plan.id, "4242424242424242", "discounted@example.com");
    await polar.subscriptions.update(discounted.subscription.id, { discount_id: discount.id });
    await polar.subscriptions.update(plain.subscription.id, { cancel_at_period_end: true, customer_cancellation_reason: "unused" });

    const [header, ...rows] = (await polar.subscriptions.export({})).trimEnd().split("\r\n");
    expect(header).toBe("Email,Started At,Product,Amount,Currency,Status,Billing Interval");
    expect(rows.map((row) => row.split(",").filter((_, index) => index !== 1))).toEqual([
      ["plain@example.com", "Exported plan", "20", "usd", "active", "3 months"],
      ["discounted@example.com", "Exported plan", "20", "usd", "active", "3 months"],
    ]);
    const chosen = await polar.subscriptions.export({ columns: ["email", "discount", "cancel_at_period_end", "cancellation_reason"], cancel_at_period_end: true });
    expect(chosen).toBe("Email,Discount,Cancels At Period End,Cancellation Reason\r\nplain@example.com,,true,unused\r\n");
    // A discount given by an update applies from the next renewal: nothing off the period the subscription is in.
    expect(await polar.subscriptions.export({ columns: ["email", "discount", "net_amount"], cancel_at_period_end: false })).toBe("Email,Discount,Net Amount\r\ndiscounted@example.com,QUARTER,20\r\n");
    expect(await polar.subscriptions.export({ status: "canceled" })).toBe("Email,Started At,Product,Amount,Currency,Status,Billing Interval\r\n");
    // Renewed with it, the period it is in is a quarter off; the canceled one has ended.
    await advanceDays(seller, 93);
    expect(await polar.subscriptions.export({ columns: ["email", "status", "net_amount"] })).toBe("Email,Status,Net Amount\r\nplain@example.com,canceled,20\r\ndiscounted@example.com,active,15\r\n");
  });
});
