import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import type { Seller } from "../../../test/stacks/billing.js";
import { startStripeBillingStack, type StripeBillingStack } from "../../../test/stacks/stripe/stripe-billing.js";
import type { TEST_CARDS } from "../../../test/stacks/stripe/cards.js";

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
