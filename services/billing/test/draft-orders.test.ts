import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import { advanceDays, announced, cardToken, eventTypesAbout, subscribe, useShop } from "../../../test/stacks/purchases.js";
import { startStripeBillingStack, type StripeBillingStack } from "../../../test/stacks/stripe/stripe-billing.js";

/**
 * Polar's off-session charges (SDK 1.x orders.create and orders.finalize): a seller drafts an order
 * for one of its customers and charges their saved card when it chooses; and the portal's payment of
 * an order whose charge was declined (customerPortal.orders.getPaymentStatus / confirmRetryPayment).
 */

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const sdk = (token: string, on: BillingStack = stack) => createPolar({ accessToken: token, baseUrl: on.gateway.url });

/** A one-time product of the seller's granting a license key. */
async function keyedProduct(seller: Seller, name: string, priceAmount = 2_000) {
  const product = await seller.polar.products.create({ name, prices: [{ amountType: "fixed", priceAmount, priceCurrency: "usd" }] });
  const keys = await seller.polar.benefits.create({ type: "license_keys", description: `${name} key`, properties: {} });
  await seller.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [keys.id] } });
  return product;
}

const grantsOf = async (seller: Seller, customerId: string, on: BillingStack = stack) => (await sdk(seller.token, on).benefitGrants.list({ customer_id: customerId })).items;

describe("a seller's draft order, charged off-session", () => {
  it("is a draft without a number, paid by nobody, until finalize charges the saved card: then numbered, paid and its benefits granted", async () => {
    const seller = sdk(shop.token);
    const { subscription } = await subscribe(stack, shop, "4242424242424242", "draft-payer@example.com");
    const product = await keyedProduct(shop, "Credits pack");
    const grantsBefore = (await grantsOf(shop, subscription.customerId)).length;

    const draft = await seller.orders.create({ customer_id: subscription.customerId, product_id: product.id, amount: 1_250, description: "5,000 tokens", metadata: { batch: "q3" } });
    expect(draft).toMatchObject({ status: "draft", paid: false, invoice_number: null, receipt_number: null, billing_reason: "purchase", subtotal_amount: 1_250, due_amount: 1_250, refundable_amount: 0, metadata: { batch: "q3" } });
    expect(draft.items.map((item) => [item.label, item.amount])).toEqual([["5,000 tokens", 1_250]]);
    // Announced as Polar does (order.created), but nothing says it was paid; nothing is granted, no receipt.
    await expect.poll(() => eventTypesAbout(stack, draft.id)).toEqual(["order.created"]);
    expect(await grantsOf(shop, subscription.customerId)).toHaveLength(grantsBefore);
    await expect(seller.orders.receipt(draft.id)).rejects.toMatchObject({ statusCode: 409 });
    expect((await seller.orders.list({ status: ["draft"] })).items.map((order) => order.id)).toEqual([draft.id]);

    const paid = await seller.orders.finalize(draft.id, {});
    expect(paid).toMatchObject({ id: draft.id, status: "paid", paid: true, due_amount: 0, total_amount: 1_250 });
    expect(paid.invoice_number).toMatch(/-0002$/);
    await expect.poll(() => eventTypesAbout(stack, draft.id)).toEqual(["order.created", "order.updated", "order.paid"]);
    expect((await announced(stack, "order.paid", draft.id))[0]).toMatchObject({ status: "paid", invoice_number: paid.invoice_number });
    // The grants were made before the answer came back.
    expect((await grantsOf(shop, subscription.customerId)).filter((grant) => grant.order_id === draft.id)).toHaveLength(1);
    const payments = await stack.billing.context.db("payments").where({ order_id: draft.id });
    expect(payments).toMatchObject([{ status: "succeeded", amount: 1_250, trigger: "purchase", card_last4: "4242" }]);

    // Only a draft can be finalized: Polar's 412.
    await expect(seller.orders.finalize(draft.id, {})).rejects.toMatchObject({ statusCode: 412, error: { error: "OrderNotDraft" } });
  });

  it("stays a draft when the card is declined or there is none, answering Polar's 402 and taking no invoice number", async () => {
    const seller = sdk(shop.token);
    const product = await keyedProduct(shop, "Top-up");
    const { subscription } = await subscribe(stack, shop, "4000000000000341", "draft-declined@example.com");
    const draft = await seller.orders.create({ customer_id: subscription.customerId, product_id: product.id });
    expect(draft).toMatchObject({ status: "draft", total_amount: 2_000 });
    await expect(seller.orders.finalize(draft.id, {})).rejects.toMatchObject({ statusCode: 402, error: { error: "PaymentFailed", detail: "Payment failed with reason: card_error. Your card was declined." } });
    expect(await seller.orders.get(draft.id)).toMatchObject({ status: "draft", invoice_number: null, paid: false });
    expect(await stack.billing.context.db("payments").where({ order_id: draft.id })).toMatchObject([{ status: "failed", decline_code: "card_declined" }]);
    // The customer sees it awaiting payment, with the bank's words; it is the seller's to charge, not theirs.
    const asCustomer = sdk((await shop.polar.customerSessions.create({ customerId: subscription.customerId })).token);
    expect(await asCustomer.customerPortal.orders.getPaymentStatus(draft.id)).toEqual({ status: "failed", error: "Your card was declined." });
    await expect(asCustomer.customerPortal.orders.confirmRetryPayment(draft.id, { confirmation_token_id: await cardToken(stack, "4242424242424242") })).rejects.toMatchObject({ statusCode: 422, error: { error: "OrderNotEligibleForRetry" } });
    // Another card of the customer's pays it, under the customer's next number.
    const other = await asCustomer.customerPortal.customers.addPaymentMethod({ confirmation_token_id: await cardToken(stack, "5555555555554444"), set_default: false, return_url: "https://app.example/billing" });
    const otherId = (other as { payment_method: { id: string } }).payment_method.id;
    const paid = await seller.orders.finalize(draft.id, { payment_method_id: otherId });
    expect(paid).toMatchObject({ status: "paid" });
    expect(paid.invoice_number).toMatch(/-0002$/);

    const stranger = await seller.customers.create({ email: "no-card@example.com" });
    const cardless = await seller.orders.create({ customer_id: stranger.id, product_id: product.id });
    await expect(seller.orders.finalize(cardless.id, {})).rejects.toMatchObject({ statusCode: 402, error: { error: "PaymentFailed", detail: "Payment failed with reason: missing_payment_method." } });
    // A card that is not the customer's is no card of theirs.
    await expect(seller.orders.finalize(cardless.id, { payment_method_id: otherId })).rejects.toMatchObject({ statusCode: 402 });
    expect(await seller.orders.get(cardless.id)).toMatchObject({ status: "draft", invoice_number: null });
  });

  it("is refused for what an off-session charge cannot be, and another seller's order or customer is not there", async () => {
    const seller = sdk(shop.token);
    const customer = await seller.customers.create({ email: "draft-rules@example.com" });
    const product = await keyedProduct(shop, "Rules");
    const plan = await shop.polar.products.create({ name: "Monthly rules", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] });
    const pwyw = await shop.polar.products.create({ name: "Tip jar", prices: [{ amountType: "custom", priceCurrency: "usd" }] });
    const refusedAt = (field: string) => ({ statusCode: 422, error: { detail: [{ loc: ["body", field] }] } });
    await expect(seller.orders.create({ customer_id: customer.id, product_id: plan.id })).rejects.toMatchObject(refusedAt("product_id"));
    await expect(seller.orders.create({ customer_id: customer.id, product_id: pwyw.id })).rejects.toMatchObject(refusedAt("product_id"));
    await expect(seller.orders.create({ customer_id: customer.id, product_id: product.id, currency: "eur" })).rejects.toMatchObject(refusedAt("currency"));
    await expect(seller.orders.create({ customer_id: customer.id, product_id: product.id, amount: 10 })).rejects.toMatchObject(refusedAt("amount"));
    await expect(seller.orders.create({ customer_id: customer.id, product_id: product.id, units: 3 })).rejects.toMatchObject(refusedAt("units"));

    const rival = await stack.seller();
    const theirs = sdk(rival.token);
    const draft = await seller.orders.create({ customer_id: customer.id, product_id: product.id });
    await expect(theirs.orders.finalize(draft.id, {})).rejects.toMatchObject({ statusCode: 404 });
    await expect(theirs.orders.create({ customer_id: customer.id, product_id: (await keyedProduct(rival, "Theirs")).id })).rejects.toMatchObject(refusedAt("customer_id"));
    await expect(theirs.orders.create({ customer_id: (await theirs.customers.create({ email: "theirs@example.com" })).id, product_id: product.id })).rejects.toMatchObject(refusedAt("product_id"));
  });
});

describe("the portal paying an order whose renewal was declined", () => {
  it("shows the decline, keeps dunning as scheduled when the customer's card is declined too, and recovers the subscription once a card pays", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(stack, seller, "4000000000000341", "portal-payer@example.com");
    await advanceDays(stack, seller, 31);
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).status).toBe("past_due");
    const unpaid = (await sdk(seller.token).orders.list({ subscription_id: subscription.id, status: ["pending"] })).items[0];
    if (!unpaid) throw new Error("the declined renewal left no unpaid order");
    const asCustomer = sdk((await seller.polar.customerSessions.create({ customerId: subscription.customerId })).token);
    expect(await asCustomer.customerPortal.orders.getPaymentStatus(unpaid.id)).toEqual({ status: "failed", error: "Your card was declined." });
    const scheduled = await stack.billing.context.db("subscriptions").where({ id: subscription.id }).first<{ next_action_at: Date; dunning_attempts: number }>();

    // A card the bank refuses outright is not kept; one it keeps but declines is charged and declined.
    expect(await asCustomer.customerPortal.orders.confirmRetryPayment(unpaid.id, { confirmation_token_id: await cardToken(stack, "4000000000000002") })).toEqual({ status: "failed", client_secret: null, error: "Your card was declined." });
    expect(await asCustomer.customerPortal.orders.confirmRetryPayment(unpaid.id, { confirmation_token_id: await cardToken(stack, "4000000000000341") })).toEqual({ status: "failed", client_secret: null, error: "Your card was declined." });
    expect(await stack.billing.context.db("subscriptions").where({ id: subscription.id }).first()).toMatchObject({ status: "past_due", next_action_at: scheduled?.next_action_at, dunning_attempts: scheduled?.dunning_attempts, retry_trigger: null });
    await expect(asCustomer.customerPortal.orders.confirmRetryPayment(unpaid.id, {})).rejects.toMatchObject({ statusCode: 422, error: { error: "PaymentRetryValidationError" } });

    expect(await asCustomer.customerPortal.orders.confirmRetryPayment(unpaid.id, { confirmation_token_id: await cardToken(stack, "4242424242424242") })).toEqual({ status: "succeeded", client_secret: null, error: null });
    expect(await sdk(seller.token).orders.get(unpaid.id)).toMatchObject({ status: "paid", paid: true });
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).status).toBe("active");
    expect(await asCustomer.customerPortal.orders.getPaymentStatus(unpaid.id)).toEqual({ status: "succeeded", error: null });
    const tries = await stack.billing.context.db("payments").where({ order_id: unpaid.id }).orderBy("created_at");
    expect(tries.map((payment: { trigger: string; status: string }) => [payment.trigger, payment.status])).toEqual([
      ["subscription_cycle", "failed"],
      ["retry_customer", "failed"],
      ["retry_customer", "succeeded"],
    ]);
    // Paid: nothing left to pay. Another customer's order is not theirs to see.
    await expect(asCustomer.customerPortal.orders.confirmRetryPayment(unpaid.id, { confirmation_token_id: await cardToken(stack, "4242424242424242") })).rejects.toMatchObject({ statusCode: 422 });
    const stranger = sdk((await shop.polar.customerSessions.create({ customerId: (await sdk(shop.token).customers.create({ email: "nosy@example.com" })).id })).token);
    await expect(stranger.customerPortal.orders.getPaymentStatus(unpaid.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(stranger.customerPortal.orders.confirmRetryPayment(unpaid.id, { confirmation_token_id: await cardToken(stack, "4242424242424242") })).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("draft orders charged through Stripe", () => {
  let stripeStack: StripeBillingStack;
  let seller: Seller;

  beforeAll(async () => {
    stripeStack = await startStripeBillingStack();
    seller = await stripeStack.seller();
  });
  afterAll(async () => {
    await stripeStack?.stop();
  });

  /** A customer whose card Stripe keeps: they subscribed with it through a checkout (to a trial, kept by a SetupIntent, for a card declined whenever charged). */
  async function subscriberWith(card: "pm_card_visa" | "pm_card_chargeCustomerFail", email: string): Promise<string> {
    const trial = card === "pm_card_chargeCustomerFail" ? { trialInterval: "day" as const, trialIntervalCount: 7 } : {};
    const plan = await seller.polar.products.create({ name: `Plan ${email}`, recurringInterval: "month", ...trial, prices: [{ amountType: "fixed", priceAmount: 1_000, priceCurrency: "usd" }] });
    const checkout = await seller.polar.checkouts.create({ products: [plan.id] });
    await new Polar({ serverURL: stripeStack.gateway.url }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "GB" }, confirmationTokenId: await stripeStack.confirmationToken(card) },
    });
    await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 15_000 }).toBe("succeeded");
    return (await seller.polar.checkouts.get({ id: checkout.id })).customerId ?? "";
  }

  it("charges the kept card off-session once, or answers Stripe's decline and leaves the draft as it was", async () => {
    const polar = sdk(seller.token, stripeStack);
    const product = await keyedProduct(seller, "Stripe credits", 3_000);
    const payer = await subscriberWith("pm_card_visa", "stripe-draft@example.com");
    const draft = await polar.orders.create({ customer_id: payer, product_id: product.id });
    const paid = await polar.orders.finalize(draft.id, {});
    expect(paid).toMatchObject({ status: "paid", total_amount: 3_000 });
    const charged = [...stripeStack.local.ledger.paymentIntents.values()].filter((intent) => intent.amount === 3_000);
    expect(charged).toMatchObject([{ status: "succeeded" }]);
    expect((await grantsOf(seller, payer, stripeStack)).filter((grant) => grant.order_id === draft.id)).toHaveLength(1);

    const declining = await subscriberWith("pm_card_chargeCustomerFail", "stripe-draft-declined@example.com");
    const refused = await polar.orders.create({ customer_id: declining, product_id: product.id });
    await expect(polar.orders.finalize(refused.id, {})).rejects.toMatchObject({ statusCode: 402, error: { error: "PaymentFailed" } });
    expect(await polar.orders.get(refused.id)).toMatchObject({ status: "draft", invoice_number: null });
    await expect(polar.orders.finalize(paid.id, {})).rejects.toMatchObject({ statusCode: 412 });
  });
});
