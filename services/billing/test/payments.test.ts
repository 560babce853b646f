import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxProcessor } from "../src/payments/sandbox.js";
import { startBillingStack, type BillingStack } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let sandbox: SandboxProcessor;

beforeAll(async () => {
  stack = await startBillingStack();
  sandbox = new SandboxProcessor(stack.billing.context.db);
});

afterAll(async () => {
  await stack?.stop();
});

const nextYear = new Date().getUTCFullYear() + 1;

/** What the hosted checkout page sends with the card form: no credentials, as with Stripe.js. */
const tokenize = (cardNumber: string, expiry: { exp_month?: number; exp_year?: number } = {}) =>
  fetch(`${stack.gateway.url}/v1/sandbox/confirmation-tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ card_number: cardNumber, exp_month: 12, exp_year: nextYear, cvc: "123", ...expiry }),
  });

async function tokenFor(cardNumber: string): Promise<string> {
  const response = await tokenize(cardNumber);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

let keys = 0;
const key = () => `test-${Date.now()}-${keys++}`;
/** The sandbox keeps no record of who pays; the request names them as the payment worker does. */
const payer = { checkoutId: "a-checkout", customer: { id: "a-customer", email: "payer@example.com", name: null } };

describe("the sandbox card processor", () => {
  it("turns a test card into a single-use token showing brand and last 4, and keeps no card number", async () => {
    const response = await tokenize("4242 4242 4242 4242");
    expect(response.status).toBe(201);
    const token = (await response.json()) as { id: string; card: unknown };
    expect(token.id).toMatch(/^ctoken_sandbox_/);
    expect(token.card).toEqual({ brand: "visa", last4: "4242", exp_month: 12, exp_year: nextYear });
    const stored = await stack.billing.context.db.raw<{ rows: { everything: string }[] }>("select string_agg(t::text, ' ') as everything from sandbox_confirmation_tokens t");
    expect(stored.rows[0]?.everything).not.toContain("4242424242424242");
  });

  it("refuses a card that is not a test card, or has expired, naming each field", async () => {
    const response = await tokenize("4111 1111 1111 1112", { exp_month: 1, exp_year: 2020 });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(detail.map((issue) => issue.loc.join("."))).toEqual(["body.card_number", "body.exp_year"]);
    expect(detail[0]?.msg).toContain("4242 4242 4242 4242");
  });

  it("describes the card numbers it takes, spaces and dashes among the digits, and takes just those", async () => {
    const document = (await (await fetch(`${stack.gateway.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { properties: { card_number: { pattern?: string } } } } } } } }>;
    };
    const described = document.paths["/v1/sandbox/confirmation-tokens"]?.post.requestBody.content["application/json"].schema.properties.card_number.pattern;
    expect(described).toBeDefined();
    for (const [typed, taken] of [["4242-4242 4242 4242", true], [" 4242424242424242 ", true], ["", false], ["4242 4242", false], ["4242 4242 4242 424x", false]] as const) {
      expect(new RegExp(described ?? "").test(typed), typed).toBe(taken);
      expect((await tokenize(typed)).status, typed).toBe(taken ? 201 : 422);
    }
  });

  it("pays with 4242 and keeps the card for renewals; a repeat with the same key pays nothing more", async () => {
    const confirmationTokenId = await tokenFor("4242424242424242");
    const idempotencyKey = key();
    const request = { idempotencyKey, ...payer, amount: 1900, currency: "usd", confirmationTokenId, saveForLater: true };
    const [first, second] = await Promise.all([sandbox.confirm(request), sandbox.confirm(request)]);
    expect(first).toMatchObject({ status: "succeeded", card: { brand: "visa", last4: "4242" } });
    expect(second).toEqual(first);
    expect(await sandbox.confirm(request)).toEqual(first);
    if (first.status !== "succeeded" || !first.paymentMethodId) throw new Error("expected a kept card");
    const renewal = await sandbox.chargeSaved({ idempotencyKey: key(), customerId: payer.customer.id, amount: 1900, currency: "usd", paymentMethodId: first.paymentMethodId });
    expect(renewal).toMatchObject({ status: "succeeded", paymentMethodId: first.paymentMethodId });
    expect(renewal.processorPaymentId).not.toBe(first.processorPaymentId);
  });

  it("will not pay twice with one token", async () => {
    const confirmationTokenId = await tokenFor("4242424242424242");
    expect(await sandbox.confirm({ idempotencyKey: key(), ...payer, amount: 500, currency: "usd", confirmationTokenId, saveForLater: false })).toMatchObject({ status: "succeeded", paymentMethodId: null });
    expect(await sandbox.confirm({ idempotencyKey: key(), ...payer, amount: 500, currency: "usd", confirmationTokenId, saveForLater: false })).toMatchObject({
      status: "declined",
      declineCode: "invalid_confirmation_token",
    });
  });

  it("declines 4000 0000 0000 0002, and 4000 0000 0000 9995 for insufficient funds", async () => {
    const pay = async (cardNumber: string) => sandbox.confirm({ idempotencyKey: key(), ...payer, amount: 500, currency: "usd", confirmationTokenId: await tokenFor(cardNumber), saveForLater: true });
    expect(await pay("4000000000000002")).toMatchObject({ status: "declined", declineCode: "card_declined", card: { last4: "0002" } });
    expect(await pay("4000000000009995")).toMatchObject({ status: "declined", declineCode: "insufficient_funds", card: { last4: "9995" } });
  });

  it("takes 4000 0000 0000 0341 now and declines it on renewal", async () => {
    const first = await sandbox.confirm({ idempotencyKey: key(), ...payer, amount: 900, currency: "eur", confirmationTokenId: await tokenFor("4000000000000341"), saveForLater: true });
    if (first.status !== "succeeded" || !first.paymentMethodId) throw new Error(`expected the first payment to succeed, got ${JSON.stringify(first)}`);
    expect(await sandbox.chargeSaved({ idempotencyKey: key(), customerId: payer.customer.id, amount: 900, currency: "eur", paymentMethodId: first.paymentMethodId })).toMatchObject({ status: "declined", declineCode: "card_declined" });
  });
});
