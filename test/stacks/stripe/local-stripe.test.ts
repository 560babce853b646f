import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalStripe } from "./local-stripe.js";

/**
 * The local Stripe, driven by the official `stripe` SDK as Tollgate's billing will drive it: what it
 * answers must be what the SDK parses into Stripe's objects and errors, and its webhooks must pass
 * `stripe.webhooks.constructEvent`.
 */

let local: LocalStripe;
let stripe: Stripe;
let receiver: Server;
/** Events the receiver verified, by arrival; a bad signature is answered 400 and kept out. */
const verified: Stripe.Event[] = [];
let refusedSignatures = 0;
let endpointSecret = "";
/** Events of this type the receiver answers 503 once, before it takes them. */
let refuseOnce: string | null = null;

beforeAll(async () => {
  local = await LocalStripe.start();
  stripe = new Stripe(local.secretKey, { ...local.sdkOptions, maxNetworkRetries: 0 });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      if (refuseOnce !== null && (JSON.parse(body.toString()) as { type?: string }).type === refuseOnce) {
        refuseOnce = null;
        response.writeHead(503).end();
        return;
      }
      try {
        verified.push(stripe.webhooks.constructEvent(body, request.headers["stripe-signature"] ?? "", endpointSecret));
        response.writeHead(200).end();
      } catch {
        refusedSignatures++;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  endpointSecret = local.addWebhookEndpoint(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`).secret;
});

afterAll(async () => {
  await local.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Resolves once the receiver has verified an event matching `match`. */
async function eventWhere(match: (event: Stripe.Event) => boolean): Promise<Stripe.Event> {
  for (let waited = 0; waited < 5_000; waited += 20) {
    const found = verified.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no such event arrived");
}

const aboutObject = (id: string, type: string) => (event: Stripe.Event) => event.type === type && (event.data.object as { id?: string }).id === id;

async function tokenFor(paymentMethod: string): Promise<string> {
  return (await stripe.testHelpers.confirmationTokens.create({ payment_method: paymentMethod })).id;
}

describe("the local Stripe, through the official SDK", () => {
  it("charges a card behind a confirmation token, keeps it on the customer, and signs the events", async () => {
    const customer = await stripe.customers.create({ email: "ada@example.com", name: "Ada" });
    const intent = await stripe.paymentIntents.create(
      { amount: 1_200, currency: "usd", customer: customer.id, confirm: true, confirmation_token: await tokenFor("pm_card_visa"), setup_future_usage: "off_session", expand: ["latest_charge"] },
      { idempotencyKey: `checkout-${customer.id}` },
    );
    expect(intent).toMatchObject({ object: "payment_intent", status: "succeeded", amount_received: 1_200, currency: "usd" });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: "visa", last4: "4242" });
    const saved = await stripe.customers.listPaymentMethods(customer.id);
    expect(saved.data.map((method) => method.id)).toEqual([intent.payment_method]);

    const succeeded = await eventWhere(aboutObject(intent.id, "payment_intent.succeeded"));
    expect(succeeded.request?.idempotency_key).toBe(`checkout-${customer.id}`);
    await eventWhere(aboutObject(charge.id, "charge.succeeded"));
    expect(refusedSignatures).toBe(0);
  });

  it("answers a repeated idempotency key with the first answer, and refuses it for other parameters", async () => {
    const token = await tokenFor("pm_card_visa");
    const ask = (amount: number) => stripe.paymentIntents.create({ amount, currency: "eur", confirm: true, confirmation_token: token }, { idempotencyKey: `retry-${token}` });
    const first = await ask(900);
    const again = await ask(900);
    expect(again.id).toBe(first.id);
    expect([...local.ledger.charges.values()].filter((charge) => charge.payment_intent === first.id)).toHaveLength(1);
    await expect(ask(901)).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    // Without the key, the used token is refused: a confirmation token pays once.
    await expect(stripe.paymentIntents.create({ amount: 900, currency: "eur", confirm: true, confirmation_token: token })).rejects.toMatchObject({ type: "StripeInvalidRequestError", param: "confirmation_token" });
  });

  it("declines the declining test cards with Stripe's card errors, and tells the webhook", async () => {
    const declined = stripe.paymentIntents.create({ amount: 500, currency: "usd", confirm: true, confirmation_token: await tokenFor("pm_card_chargeDeclinedInsufficientFunds") });
    const error = (await declined.catch((caught: unknown) => caught)) as Stripe.errors.StripeCardError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." });
    expect(error.payment_intent).toMatchObject({ status: "requires_payment_method" });
    await eventWhere(aboutObject(error.payment_intent?.id ?? "", "payment_intent.payment_failed"));
  });

  it("refuses a charge below Stripe's minimum", async () => {
    await expect(stripe.paymentIntents.create({ amount: 20, currency: "usd" })).rejects.toMatchObject({ code: "amount_too_small", param: "amount" });
  });

  it("asks for 3-D Secure on session, finishes it when the bank approves, and refuses it off session", async () => {
    const customer = await stripe.customers.create({ email: "grace@example.com" });
    const intent = await stripe.paymentIntents.create({ amount: 2_000, currency: "usd", customer: customer.id, confirm: true, confirmation_token: await tokenFor("pm_card_authenticationRequired") });
    expect(intent.status).toBe("requires_action");
    expect(intent.next_action?.type).toBe("use_stripe_sdk");
    await eventWhere(aboutObject(intent.id, "payment_intent.requires_action"));

    // What the Stripe.js stand-in does when the buyer approves at their bank: with the publishable key.
    const approved = await fetch(`${local.url}/_local/authenticate/${intent.id}`, { method: "POST", headers: { authorization: `Bearer ${local.publishableKey}`, "content-type": "application/x-www-form-urlencoded" }, body: "outcome=approve" });
    expect(approved.status).toBe(200);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("succeeded");

    const method = await stripe.paymentMethods.attach("pm_card_authenticationRequired", { customer: customer.id });
    await expect(stripe.paymentIntents.create({ amount: 2_000, currency: "usd", customer: customer.id, payment_method: method.id, off_session: true, confirm: true })).rejects.toMatchObject({
      type: "StripeCardError",
      code: "authentication_required",
    });
  });

  it("saves a card with a setup intent, then charges it off session", async () => {
    const customer = await stripe.customers.create({ email: "linus@example.com" });
    const setup = await stripe.setupIntents.create({ customer: customer.id, confirm: true, confirmation_token: await tokenFor("pm_card_mastercard"), usage: "off_session" });
    expect(setup.status).toBe("succeeded");
    await eventWhere(aboutObject(setup.id, "setup_intent.succeeded"));
    const renewal = await stripe.paymentIntents.create({ amount: 1_500, currency: "usd", customer: customer.id, payment_method: setup.payment_method as string, off_session: true, confirm: true }, { idempotencyKey: `renewal-${setup.id}` });
    expect(renewal.status).toBe("succeeded");

    // The card that is kept, then declined at every charge: how dunning is rehearsed.
    const failing = await stripe.setupIntents.create({ customer: customer.id, confirm: true, confirmation_token: await tokenFor("pm_card_chargeCustomerFail") });
    expect(failing.status).toBe("succeeded");
    await expect(stripe.paymentIntents.create({ amount: 1_500, currency: "usd", customer: customer.id, payment_method: failing.payment_method as string, off_session: true, confirm: true })).rejects.toMatchObject({
      type: "StripeCardError",
      decline_code: "generic_decline",
    });
  });

  it("refunds part and then the rest of a charge, and no more", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 3_000, currency: "usd", confirm: true, payment_method: "pm_card_visa" });
    const part = await stripe.refunds.create({ payment_intent: intent.id, amount: 1_000 });
    expect(part).toMatchObject({ object: "refund", status: "succeeded", amount: 1_000, payment_intent: intent.id });
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 2_500 })).rejects.toMatchObject({ param: "amount" });
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(2_000);
    const refunded = await eventWhere((event) => event.type === "charge.refunded" && (event.data.object).payment_intent === intent.id && (event.data.object).refunded);
    expect((refunded.data.object as Stripe.Charge).amount_refunded).toBe(3_000);
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ code: "charge_already_refunded" });
  });

  it("opens a dispute for the disputing card, which the seller can lose by closing or win with evidence", async () => {
    const charge = async () => (await stripe.paymentIntents.create({ amount: 4_000, currency: "usd", confirm: true, payment_method: "pm_card_createDispute" })).id;
    const disputeOf = async (intentId: string) => (await eventWhere((event) => event.type === "charge.dispute.created" && (event.data.object).payment_intent === intentId)).data.object as Stripe.Dispute;

    const lost = await disputeOf(await charge());
    expect(lost).toMatchObject({ reason: "fraudulent", status: "needs_response", amount: 4_000 });
    expect((await stripe.disputes.close(lost.id)).status).toBe("lost");
    await eventWhere(aboutObject(lost.id, "charge.dispute.closed"));

    const won = await disputeOf(await charge());
    await expect(stripe.refunds.create({ charge: won.charge as string })).rejects.toMatchObject({ code: "charge_disputed" });
    expect((await stripe.disputes.update(won.id, { evidence: { uncategorized_text: "winning_evidence" } })).status).toBe("won");
  });

  it("holds webhooks to send them later, sends one again, and retries an endpoint that does not answer 2xx", async () => {
    local.webhooks.hold();
    const customer = await stripe.customers.create({ email: "held@example.com" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(verified.some(aboutObject(customer.id, "customer.created"))).toBe(false);
    local.webhooks.release();
    const created = await eventWhere(aboutObject(customer.id, "customer.created"));

    local.webhooks.resend(created.id);
    for (let waited = 0; verified.filter((event) => event.id === created.id).length < 2 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(verified.filter((event) => event.id === created.id)).toHaveLength(2);

    refuseOnce = "customer.updated";
    const renamed = await stripe.customers.update(customer.id, { name: "Held" });
    const updated = await eventWhere(aboutObject(renamed.id, "customer.updated"));
    // The sender records an attempt once it has read the answer, a moment after the receiver took it.
    const attempts = () => local.webhooks.deliveries.filter((delivery) => delivery.eventId === updated.id).map((delivery) => delivery.status);
    await expect.poll(attempts).toEqual([503, 200]);
  });

  it("keeps the keys apart and can be unavailable", async () => {
    const withPublishable = new Stripe(local.publishableKey, { ...local.sdkOptions, maxNetworkRetries: 0 });
    await expect(withPublishable.paymentIntents.create({ amount: 1_000, currency: "usd" })).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    local.unavailable = true;
    try {
      await expect(stripe.customers.create({ email: "outage@example.com" })).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    } finally {
      local.unavailable = false;
    }
    expect(local.requests.every((request) => request.key === "secret" || request.status === 401 || request.path.startsWith("/_local/"))).toBe(true);
  });
});
