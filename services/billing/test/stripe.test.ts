import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { createTestEnvironment, startTestService } from "@tollgate/kit/testing";
import { billingService } from "../src/service.js";
import type { Seller } from "../../../test/stacks/billing.js";
import { startStripeBillingStack, type StripeBillingStack } from "../../../test/stacks/stripe/stripe-billing.js";
import type { TEST_CARDS } from "../../../test/stacks/stripe/cards.js";
import { holdOrderNumbering } from "../../../test/stacks/order-numbering-hold.js";

/**
 * Issue 30: Stripe behind the processor interface. Billing runs with PAYMENT_PROCESSOR=stripe and the
 * official SDK, talking through STRIPE_API_URL to a local Stripe that answers with Stripe's objects
 * and sends its signed webhooks to the gateway, as Stripe does for a seller who set it up.
 */

let stack: StripeBillingStack;
let shop: Seller;
let customerSide: Polar;

beforeAll(async () => {
  stack = await startStripeBillingStack();
  shop = await stack.seller();
  customerSide = new Polar({ serverURL: stack.gateway.url });
});

afterAll(async () => {
  await stack?.stop();
});

const oneTime = (name: string, priceAmount = 2500) => shop.polar.products.create({ name, prices: [{ amountType: "fixed", priceAmount, priceCurrency: "usd" }] });

const buyer = (email: string) => ({ customerEmail: email, customerName: "Ada Lovelace", customerBillingAddress: { country: "GB" as const } });

/** A buyer paying the checkout of `productId` with a test card, as the hosted page does after the Payment Element made a token. */
async function pay(productId: string, card: keyof typeof TEST_CARDS, email: string) {
  const checkout = await shop.polar.checkouts.create({ products: [productId] });
  await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer(email), confirmationTokenId: await stack.confirmationToken(card) } });
  return checkout;
}

/** The checkout once its payment is no longer being made. */
async function settled(checkoutId: string) {
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkoutId })).status, { timeout: 15_000 }).not.toBe("confirmed");
  return shop.polar.checkouts.get({ id: checkoutId });
}

/** What the checkout's page is told while its payment waits for the customer's bank. */
async function awaitingBank(checkoutId: string): Promise<string> {
  let secret: string | undefined;
  await expect
    .poll(async () => {
      const checkout = await shop.polar.checkouts.get({ id: checkoutId });
      secret = checkout.paymentProcessorMetadata.intent_client_secret;
      return checkout.paymentProcessorMetadata.intent_status;
    }, { timeout: 15_000 })
    .toBe("requires_action");
  if (!secret) throw new Error("no client secret for the page");
  return secret;
}

const intentsOf = (checkoutId: string) => [...stack.local.ledger.paymentIntents.values()].filter((intent) => intent.metadata.tollgate_checkout_id === checkoutId);

describe("billing set up for Stripe", () => {
  it("will not start without Stripe's keys and webhook secret, saying each that is missing on a line of its own", async () => {
    const environment = await createTestEnvironment();
    const started = startTestService(billingService, environment, { PAYMENT_PROCESSOR: "stripe", STRIPE_PUBLISHABLE_KEY: "pk_test_only_this", FILE_URL_SECRET: "s".repeat(32) });
    const error = (await started.then(
      async (running) => (await running.stop(), null),
      (caught: unknown) => caught,
    )) as Error | null;
    expect(error?.message.split("\n")).toEqual([
      "STRIPE_SECRET_KEY is not set: PAYMENT_PROCESSOR=stripe calls Stripe with it (sk_live_… or sk_test_…, from Stripe's dashboard)",
      "STRIPE_WEBHOOK_SECRET is not set: PAYMENT_PROCESSOR=stripe checks Stripe's webhooks with it (whsec_…, the endpoint's signing secret)",
    ]);
  });
});

describe("checkouts paid with Stripe", () => {
  it("tells the page Stripe's publishable key, charges the card once under our idempotency key, and places the paid order", async () => {
    const product = await oneTime("Field guide");
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    expect(checkout.paymentProcessor).toBe("stripe");
    expect(checkout.paymentProcessorMetadata).toEqual({ publishable_key: stack.local.publishableKey });

    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("ada@example.com"), confirmationTokenId: await stack.confirmationToken("pm_card_visa") } });
    expect((await settled(checkout.id)).status).toBe("succeeded");

    const [intent, ...more] = intentsOf(checkout.id);
    expect(more).toEqual([]);
    expect(intent).toMatchObject({ status: "succeeded", amount: 2500, currency: "usd" });
    const created = stack.local.requests.filter((request) => request.path === "/v1/payment_intents" && request.form.metadata && JSON.stringify(request.form.metadata).includes(checkout.id));
    expect(created.map((request) => request.idempotencyKey)).toEqual([expect.stringMatching(new RegExp(`^checkout:${checkout.id}:`))]);

    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(order).toMatchObject({ status: "paid", totalAmount: 2500, customer: { email: "ada@example.com" } });
    // The Stripe Customer is the buyer, made once and named in the payment.
    const customer = [...stack.local.ledger.customers.values()].find((candidate) => candidate.email === "ada@example.com");
    expect(customer?.metadata).toEqual({ tollgate_customer_id: order?.customerId });
    expect(intent?.customer).toBe(customer?.id);
    const payments = await stack.billing.context.db("payments").where({ checkout_id: checkout.id });
    expect(payments).toMatchObject([{ processor: "stripe", processor_payment_id: intent?.id, status: "succeeded", card_brand: "visa", card_last4: "4242", order_id: order?.id }]);

    // The same buyer again: the same Stripe Customer.
    await settled((await pay(product.id, "pm_card_mastercard", "ada@example.com")).id);
    expect([...stack.local.ledger.customers.values()].filter((candidate) => candidate.email === "ada@example.com")).toHaveLength(1);
  });

  it("opens the checkout again with Stripe's words when the card is declined, and records the failed payment", async () => {
    const product = await oneTime("Declined guide");
    const checkout = await settled((await pay(product.id, "pm_card_chargeDeclinedInsufficientFunds", "poor@example.com")).id);
    expect(checkout.status).toBe("open");
    expect(checkout.paymentProcessorMetadata).toMatchObject({ payment_error: "Your card has insufficient funds." });
    expect(await stack.billing.context.db("payments").where({ checkout_id: checkout.id })).toMatchObject([{ processor: "stripe", status: "failed", decline_code: "insufficient_funds", card_last4: "9995" }]);
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toEqual([]);
  });

  it("takes 3-D Secure back to the page: approved at the bank, Stripe's webhook settles the payment", async () => {
    const product = await oneTime("Secure guide", 4000);
    const checkout = await pay(product.id, "pm_card_authenticationRequired", "secure@example.com");
    const clientSecret = await awaitingBank(checkout.id);
    const [intent] = intentsOf(checkout.id);
    expect(clientSecret).toBe(intent?.client_secret);
    expect((await shop.polar.checkouts.get({ id: checkout.id })).status).toBe("confirmed");

    // What Stripe.js's handleNextAction does on the page: the customer approves at their bank.
    const approved = await fetch(`${stack.local.url}/_local/authenticate/${intent?.id}`, { method: "POST", headers: { authorization: `Bearer ${stack.local.publishableKey}`, "content-type": "application/x-www-form-urlencoded" }, body: "outcome=approve" });
    expect(approved.status).toBe(200);
    const paid = await settled(checkout.id);
    expect(paid.status).toBe("succeeded");
    expect(paid.paymentProcessorMetadata).toEqual({ publishable_key: stack.local.publishableKey });
    expect(intentsOf(checkout.id)).toHaveLength(1);
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toMatchObject([{ status: "paid", totalAmount: 4000 }]);
  });

  it("opens the checkout again when 3-D Secure fails at the bank", async () => {
    const product = await oneTime("Refused guide");
    const checkout = await pay(product.id, "pm_card_authenticationRequired", "refused@example.com");
    await awaitingBank(checkout.id);
    const [intent] = intentsOf(checkout.id);
    await fetch(`${stack.local.url}/_local/authenticate/${intent?.id}`, { method: "POST", headers: { authorization: `Bearer ${stack.local.publishableKey}`, "content-type": "application/x-www-form-urlencoded" }, body: "outcome=fail" });
    const reopened = await settled(checkout.id);
    expect(reopened.status).toBe("open");
    expect(reopened.paymentProcessorMetadata.payment_error).toMatch(/failed authentication/);
    expect(reopened.paymentProcessorMetadata.intent_status).toBeUndefined();
  });

  it("gives up a 3-D Secure the customer never finishes, and opens the checkout again", async () => {
    const product = await oneTime("Abandoned guide");
    const checkout = await pay(product.id, "pm_card_authenticationRequired", "abandoned@example.com");
    await awaitingBank(checkout.id);
    // As if the buyer had left the bank's page an hour and more ago.
    const { db, app } = stack.billing.context;
    await db("checkout_payment_jobs").where({ checkout_id: checkout.id }).update({ awaiting_since: new Date(Date.now() - 2 * 3_600_000), run_at: new Date() });
    app.payments.wake();
    const reopened = await settled(checkout.id);
    expect(reopened).toMatchObject({ status: "open", paymentProcessorMetadata: { payment_error: "The bank's check of this payment was not finished in time. Pay again to try once more." } });
    expect(intentsOf(checkout.id)).toMatchObject([{ status: "canceled" }]);
    expect(await db("payments").where({ checkout_id: checkout.id })).toMatchObject([{ status: "failed" }]);
  });
});

describe("Stripe's webhooks", () => {
  it("applies each event once, however often it is delivered, and refuses a forged signature", async () => {
    const product = await oneTime("Webhook guide");
    const checkout = await settled((await pay(product.id, "pm_card_visa", "hooks@example.com")).id);
    const [intent] = intentsOf(checkout.id);
    const succeeded = [...stack.local.webhooks.events.values()].find((event) => event.type === "payment_intent.succeeded" && (event.data.object as { id: string }).id === intent?.id);
    if (!succeeded) throw new Error("Stripe sent no payment_intent.succeeded");
    await expect.poll(() => stack.billing.context.db("stripe_events").where({ id: succeeded.id }).first()).toMatchObject({ type: "payment_intent.succeeded" });

    const answers = () => stack.local.webhooks.deliveries.filter((delivery) => delivery.eventId === succeeded.id).map((delivery) => delivery.status);
    const before = answers().length;
    stack.local.webhooks.resend(succeeded.id);
    await expect.poll(() => answers().length).toBe(before + 1);
    expect(answers().at(-1)).toBe(200);
    expect(await stack.billing.context.db("stripe_events").where({ id: succeeded.id })).toHaveLength(1);
    expect(await shop.polar.orders.list({ checkoutId: checkout.id })).toMatchObject({ result: { items: [{ status: "paid" }] } });

    const forged = await fetch(`${stack.gateway.url}/v1/integrations/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      body: JSON.stringify({ ...succeeded, id: "evt_forged" }),
    });
    expect(forged.status).toBe(400);
    expect(await stack.billing.context.db("stripe_events").where({ id: "evt_forged" })).toEqual([]);
  });
});

describe("Stripe's webhook and its synchronous answer, in either order", () => {
  /** Stripe's events about a checkout's payment intent that billing has recorded. */
  const recorded = async (checkoutId: string) => {
    const ids = new Set(intentsOf(checkoutId).map((intent) => intent.id));
    const events = [...stack.local.webhooks.events.values()].filter((event) => ids.has((event.data.object as { id: string }).id)).map((event) => event.id);
    return stack.billing.context.db("stripe_events").whereIn("id", events).select("type");
  };

  it("settles once when the webhook comes after the answer was committed", async () => {
    const product = await oneTime("Late webhook guide");
    stack.local.webhooks.hold();
    let checkoutId: string;
    try {
      checkoutId = (await pay(product.id, "pm_card_visa", "late@example.com")).id;
      expect((await settled(checkoutId)).status).toBe("succeeded");
      expect(await recorded(checkoutId)).toEqual([]);
    } finally {
      stack.local.webhooks.release();
    }
    await expect.poll(() => recorded(checkoutId)).toEqual([{ type: "payment_intent.succeeded" }]);
    expect(await stack.billing.context.db("payments").where({ checkout_id: checkoutId })).toHaveLength(1);
    expect((await shop.polar.orders.list({ checkoutId })).result.items).toHaveLength(1);
  });

  it("settles once when the webhook comes before the answer is committed", async () => {
    const db = stack.billing.context.db;
    const product = await oneTime("Early webhook guide");
    const email = "early@example.com";
    // The worker stops where it numbers the order, after Stripe answered, until the hold lets go.
    const hold = await holdOrderNumbering(db, shop.organizationId, email);
    let checkoutId: string;
    try {
      checkoutId = (await pay(product.id, "pm_card_visa", email)).id;
      await hold.stuck();
      await expect.poll(() => recorded(checkoutId)).toEqual([{ type: "payment_intent.succeeded" }]);
      expect((await shop.polar.checkouts.get({ id: checkoutId })).status).toBe("confirmed");
    } finally {
      await hold.release();
    }
    expect((await settled(checkoutId)).status).toBe("succeeded");
    expect(intentsOf(checkoutId)).toHaveLength(1);
    expect(await db("payments").where({ checkout_id: checkoutId })).toHaveLength(1);
    expect((await shop.polar.orders.list({ checkoutId })).result.items).toHaveLength(1);
  });
});

describe("subscriptions on Stripe", () => {
  it("keep a card with a SetupIntent for a trial, go past due when the renewal is declined off-session, and recover with a new card from the portal", async () => {
    const plan = await shop.polar.products.create({ name: "Trial plan", recurringInterval: "month", trialInterval: "day", trialIntervalCount: 7, prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }] });
    // Stripe's 4000 0000 0000 0341: kept by a SetupIntent, declined whenever it is charged.
    const checkout = await pay(plan.id, "pm_card_chargeCustomerFail", "trial@example.com");
    expect((await settled(checkout.id)).status).toBe("succeeded");
    expect(intentsOf(checkout.id)).toEqual([]);
    const [setup] = [...stack.local.ledger.setupIntents.values()].filter((intent) => intent.metadata?.tollgate_checkout_id === checkout.id);
    expect(setup).toMatchObject({ status: "succeeded", usage: "off_session" });
    const [subscription] = (await shop.polar.subscriptions.list({ productId: plan.id })).result.items;
    expect(subscription).toMatchObject({ status: "trialing" });
    if (!subscription) throw new Error("no subscription");

    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { trialEnd: new Date(Date.now() + 500) } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await stack.billing.context.app.renewals.renewNow(subscription.id);
    await expect.poll(async () => (await shop.polar.subscriptions.get({ id: subscription.id })).status, { timeout: 15_000 }).toBe("past_due");
    const renewals = [...stack.local.ledger.paymentIntents.values()].filter((intent) => intent.customer === setup?.customer);
    expect(renewals).toMatchObject([{ status: "requires_payment_method", amount: 1500, last_payment_error: { decline_code: "generic_decline", payment_method: { id: setup?.payment_method } } }]);

    const { token } = await shop.polar.customerSessions.create({ customerId: subscription.customerId });
    const added = await customerSide.customerPortal.customers.addPaymentMethod(
      { customerSession: token },
      { confirmationTokenId: await stack.confirmationToken("pm_card_visa"), setDefault: true, returnUrl: "https://app.example/billing" },
    );
    expect(added).toMatchObject({ status: "succeeded", paymentMethod: { type: "card", methodMetadata: { brand: "visa", last4: "4242" } } });
    await expect.poll(async () => (await shop.polar.subscriptions.get({ id: subscription.id })).status, { timeout: 15_000 }).toBe("active");
    const orders = (await shop.polar.orders.list({ productId: plan.id })).result.items;
    expect(orders.map((order) => [order.status, order.totalAmount])).toContainEqual(["paid", 1500]);
    // The card the portal kept, charged off-session on the same Stripe Customer.
    const paid = [...stack.local.ledger.paymentIntents.values()].filter((intent) => intent.customer === setup?.customer && intent.status === "succeeded");
    expect(paid).toMatchObject([{ amount: 1500 }]);
    expect(paid[0]?.payment_method).not.toBe(setup?.payment_method);

    // The declined card, removed in the portal, is let go of at Stripe too: it can never be charged again.
    const declinedCard = typeof setup?.payment_method === "string" ? setup.payment_method : "";
    await customerSide.customerPortal.customers.deletePaymentMethod({ customerSession: token }, { id: declinedCard });
    expect(stack.local.ledger.paymentMethods.get(declinedCard)?.customer).toBeNull();
    expect((await customerSide.customerPortal.customers.listPaymentMethods({ customerSession: token }, {})).result.items.map((method) => method.id)).toEqual([paid[0]?.payment_method]);
  });

  it("are not counted as failing while Stripe is down: the renewal waits and goes through once it is back", async () => {
    const plan = await shop.polar.products.create({ name: "Outage plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] });
    const checkout = await settled((await pay(plan.id, "pm_card_visa", "outage@example.com")).id);
    const [subscription] = (await shop.polar.subscriptions.list({ productId: plan.id })).result.items;
    if (!subscription || checkout.status !== "succeeded") throw new Error("no subscription");
    const renewals = stack.billing.context.app.renewals;
    stack.local.unavailable = true;
    try {
      await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(Date.now() + 500) } });
      await new Promise((resolve) => setTimeout(resolve, 600));
      for (let attempt = 0; attempt < 3; attempt += 1) await renewals.renewNow(subscription.id).catch(() => undefined);
      expect(await stack.billing.context.db("set_aside_work").where({ item: subscription.id })).toEqual([]);
    } finally {
      stack.local.unavailable = false;
    }
    await renewals.renewNow(subscription.id);
    expect((await shop.polar.orders.list({ productId: plan.id })).result.items.map((order) => order.status)).toEqual(["paid", "paid"]);
  });
});

describe("cards kept in the customer portal on Stripe", () => {
  it("takes the customer through their bank's check, then keeps the card they confirm, and only their own", async () => {
    const product = await oneTime("Portal guide");
    const checkout = await settled((await pay(product.id, "pm_card_visa", "portal@example.com")).id);
    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    if (!order) throw new Error("no order");
    const { token } = await shop.polar.customerSessions.create({ customerId: order.customerId });
    const asked = await customerSide.customerPortal.customers.addPaymentMethod(
      { customerSession: token },
      { confirmationTokenId: await stack.confirmationToken("pm_card_authenticationRequired"), setDefault: true, returnUrl: "https://app.example/billing" },
    );
    if (asked.status !== "requires_action") throw new Error(`expected the bank's check, got ${asked.status}`);
    const setupId = asked.clientSecret.split("_secret_")[0] ?? "";
    expect(setupId).toMatch(/^seti_/);

    // Someone else cannot keep it, and it is not kept before the bank has said yes.
    const stranger = await settled((await pay(product.id, "pm_card_visa", "stranger@example.com")).id);
    const [strangersOrder] = (await shop.polar.orders.list({ checkoutId: stranger.id })).result.items;
    const strangerSession = (await shop.polar.customerSessions.create({ customerId: strangersOrder?.customerId ?? "" })).token;
    await expect(customerSide.customerPortal.customers.confirmPaymentMethod({ customerSession: strangerSession }, { setupIntentId: setupId, setDefault: true })).rejects.toMatchObject({ statusCode: 422 });
    expect(await customerSide.customerPortal.customers.confirmPaymentMethod({ customerSession: token }, { setupIntentId: setupId, setDefault: true })).toMatchObject({ status: "requires_action" });

    // What Stripe.js's handleNextAction does on the portal's page: the customer approves at their bank.
    await fetch(`${stack.local.url}/_local/authenticate/${setupId}`, { method: "POST", headers: { authorization: `Bearer ${stack.local.publishableKey}`, "content-type": "application/x-www-form-urlencoded" }, body: "outcome=approve" });
    const kept = await customerSide.customerPortal.customers.confirmPaymentMethod({ customerSession: token }, { setupIntentId: setupId, setDefault: true });
    expect(kept).toMatchObject({ status: "succeeded", paymentMethod: { type: "card", methodMetadata: { brand: "visa", last4: "3184" } } });
    expect(await stack.billing.context.db("customer_payment_methods").where({ customer_id: order.customerId }).select("id")).toEqual([{ id: (kept as { paymentMethod: { id: string } }).paymentMethod.id }]);
  });
});

describe("money given back on Stripe", () => {
  it("refunds through Stripe under the refund's own idempotency key", async () => {
    const product = await oneTime("Refunded guide", 3000);
    const checkout = await settled((await pay(product.id, "pm_card_visa", "refund@example.com")).id);
    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    if (!order) throw new Error("no order");
    const refund = await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 1000 });
    expect(refund).toMatchObject({ status: "succeeded", amount: 1000 });
    const [intent] = intentsOf(checkout.id);
    expect([...stack.local.ledger.refunds.values()].filter((given) => given.payment_intent === intent?.id)).toMatchObject([{ amount: 1000, status: "succeeded" }]);
    expect(stack.local.requests.filter((request) => request.path === "/v1/refunds").at(-1)?.idempotencyKey).toBe(`refund:${refund.id}`);
  });
});

describe("disputes on Stripe", () => {
  /** A paid order whose payment the buyer's bank disputes at once (Stripe's 4000 0000 0000 0259), once billing has recorded the dispute. */
  async function disputedOrder(email: string) {
    const product = await oneTime(`Disputed guide for ${email}`, 2200);
    const checkout = await settled((await pay(product.id, "pm_card_createDispute", email)).id);
    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    if (!order) throw new Error("no order");
    await expect.poll(async () => (await shop.polar.disputes.list({ orderId: order.id })).result.items.length, { timeout: 10_000 }).toBe(1);
    const [dispute] = (await shop.polar.disputes.list({ orderId: order.id })).result.items;
    const [stripeDispute] = [...stack.local.ledger.disputes.values()].filter((candidate) => candidate.payment_intent === intentsOf(checkout.id)[0]?.id);
    if (!dispute || !stripeDispute) throw new Error("no dispute");
    return { order, dispute, stripeDispute };
  }

  const accept = (id: string) => fetch(`${stack.gateway.url}/v1/disputes/${id}/accept`, { method: "POST", headers: { authorization: `Bearer ${shop.token}` } });

  it("are recorded as the bank opens them, and accepting one concedes it at Stripe, once", async () => {
    const { order, dispute, stripeDispute } = await disputedOrder("chargeback@example.com");
    const [payment] = (await shop.polar.payments.list({ orderId: order.id })).result.items;
    expect(dispute).toMatchObject({ status: "needs_response", resolved: false, closed: false, amount: 2200, taxAmount: 0, currency: "usd", orderId: order.id, paymentId: payment?.id });
    expect(await shop.polar.disputes.get({ id: dispute.id })).toEqual(dispute);
    // As SDK 1.x reads it: the bank's reason, the deadline for evidence and the buyer.
    const pinned = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const read = await pinned.disputes.get(dispute.id);
    expect(read).toMatchObject({ reason: "fraudulent", past_due: false, case_id: null, customer: { id: order.customerId, email: "chargeback@example.com" } });
    expect(Date.parse(read.evidence_due_by ?? "") - Date.now()).toBeGreaterThan(6 * 86_400_000);

    const accepted = await accept(dispute.id);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ id: dispute.id, status: "lost", resolved: true, closed: true });
    expect(stack.local.ledger.disputes.get(stripeDispute.id)?.status).toBe("lost");
    // Stripe's own charge.dispute.closed changes nothing more.
    await expect.poll(async () => (await shop.polar.disputes.get({ id: dispute.id })).status).toBe("lost");

    const again = await accept(dispute.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: "DisputeNotOpen" });
    const other = await stack.seller();
    expect((await other.polar.disputes.list({})).result.items).toEqual([]);
    await expect(other.polar.disputes.get({ id: dispute.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("follow Stripe to the end when the seller's evidence wins, whatever order the events come in", async () => {
    const { dispute, stripeDispute } = await disputedOrder("evidence@example.com");
    await stack.stripe.disputes.update(stripeDispute.id, { evidence: { uncategorized_text: "winning_evidence" } });
    await expect.poll(async () => (await shop.polar.disputes.get({ id: dispute.id })).status).toBe("won");
    expect(await shop.polar.disputes.get({ id: dispute.id })).toMatchObject({ resolved: true, closed: true });

    // The dispute's first event, delivered again after its last: the dispute stays won.
    const created = [...stack.local.webhooks.events.values()].find((event) => event.type === "charge.dispute.created" && (event.data.object as { id: string }).id === stripeDispute.id);
    await stack.billing.context.db("stripe_events").where({ id: created?.id ?? "" }).delete();
    stack.local.webhooks.resend(created?.id ?? "");
    await expect.poll(() => stack.billing.context.db("stripe_events").where({ id: created?.id ?? "" }).first()).toBeDefined();
    expect((await shop.polar.disputes.get({ id: dispute.id })).status).toBe("won");
    expect((await shop.polar.disputes.list({ status: ["won"] })).result.items.map((item) => item.id)).toContain(dispute.id);
  });
});

describe("a crash between Stripe's answer and our commit", () => {
  it("charges once and places one order when the payment is worked again", async () => {
    const db = stack.billing.context.db;
    const product = await oneTime("Crash guide", 1200);
    const email = "crash@example.com";
    // Held where it numbers the order: after Stripe charged the card.
    const hold = await holdOrderNumbering(db, shop.organizationId, email);
    let checkoutId: string;
    try {
      checkoutId = (await pay(product.id, "pm_card_visa", email)).id;
      await hold.stuck();
      expect(intentsOf(checkoutId)).toMatchObject([{ status: "succeeded" }]);
      // The crash: its connection is cut mid-transaction, so nothing after the charge was recorded.
      await hold.crash();
    } finally {
      await hold.release();
    }
    expect(await db("payments").where({ checkout_id: checkoutId })).toHaveLength(0);
    // As if the job's lease had run out: another attempt takes it, and Stripe answers it with the first charge.
    await db("checkout_payment_jobs").where({ checkout_id: checkoutId }).update({ leased_until: new Date(Date.now() - 1000) });
    expect((await settled(checkoutId)).status).toBe("succeeded");
    const [intent, ...more] = intentsOf(checkoutId);
    expect(more).toEqual([]);
    expect(await db("payments").where({ checkout_id: checkoutId })).toMatchObject([{ processor_payment_id: intent?.id, status: "succeeded" }]);
    expect((await shop.polar.orders.list({ checkoutId })).result.items).toHaveLength(1);
  });
});
