import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { SandboxProcessor } from "../src/payments/sandbox.js";
import { cardToken, eventTypesAbout, useShop } from "../../../test/stacks/purchases.js";
import { holdOrderNumbering } from "../../../test/stacks/order-numbering-hold.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

async function oneTimeProduct(name: string, priceAmount = 1900) {
  return shop.polar.products.create({ name, prices: [{ amountType: "fixed", priceAmount, priceCurrency: "usd" }] });
}

async function settled(checkoutId: string) {
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkoutId })).status, { timeout: 10_000 }).not.toBe("confirmed");
  return shop.polar.checkouts.get({ id: checkoutId });
}

const buyer = (email: string) => ({ customerEmail: email, customerName: "Ada Lovelace", customerBillingAddress: { country: "GB" as const } });

describe("checkouts", () => {
  it("sell a one-time product: the card pays, an order is placed and paid, and every step is announced", async () => {
    const product = await oneTimeProduct("E-book");
    const checkout = await shop.polar.checkouts.create({ products: [product.id], metadata: { campaign: "launch" }, successUrl: "https://shop.example/thanks?checkout={CHECKOUT_ID}" });
    expect(checkout).toMatchObject({ status: "open", amount: 1900, discountAmount: 0, netAmount: 1900, taxAmount: null, totalAmount: 1900, currency: "usd", isPaymentRequired: true, isFreeProductPrice: false });
    expect(checkout.url).toBe(`${PUBLIC_URL}/checkout/${checkout.clientSecret}`);
    expect(checkout.clientSecret).toMatch(/^polar_c_/);
    expect(checkout.successUrl).toBe(`https://shop.example/thanks?checkout=${checkout.id}`);
    expect(checkout.expiresAt.getTime() - checkout.createdAt.getTime()).toBeCloseTo(24 * 3600 * 1000, -4);

    const page = await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect(page.organization.id).toBe(shop.organizationId);
    expect(page.product?.name).toBe("E-book");
    expect(page.billingAddressFields.country).toBe("required");

    const confirmed = await customerSide.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { ...buyer("ada@example.com"), confirmationTokenId: await cardToken(stack, "4242424242424242") },
    });
    expect(confirmed.status).toBe("confirmed");
    expect((await settled(checkout.id)).status).toBe("succeeded");

    const orders = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(order).toMatchObject({ status: "paid", paid: true, billingReason: "purchase", subtotalAmount: 1900, totalAmount: 1900, currency: "usd", productId: product.id, metadata: { campaign: "launch" } });
    expect(order?.customer.email).toBe("ada@example.com");
    expect(order?.items).toEqual([expect.objectContaining({ label: "E-book", amount: 1900, taxAmount: 0, proration: false, productPriceId: checkout.productPriceId })]);
    expect(order?.invoiceNumber).toMatch(/^[A-Z0-9]+-[A-Z0-9]{8}-0001$/);
    expect(await shop.polar.orders.get({ id: order?.id ?? "" })).toMatchObject({ id: order?.id, checkoutId: checkout.id });

    await expect.poll(() => eventTypesAbout(stack, order?.id ?? "")).toEqual(["order.created", "order.updated", "order.paid"]);
    await expect.poll(() => eventTypesAbout(stack, checkout.id)).toEqual(["checkout.created", "checkout.updated", "checkout.updated"]);
  });

  it("open again after a declined card, saying why, and succeed with another card", async () => {
    const product = await oneTimeProduct("Course");
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("grace@example.com"), confirmationTokenId: await cardToken(stack, "4000000000000002") } });
    const declined = await settled(checkout.id);
    expect(declined.status).toBe("open");
    expect(declined.paymentProcessorMetadata).toEqual({ payment_error: "Your card was declined." });
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toHaveLength(0);

    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { confirmationTokenId: await cardToken(stack, "5555555555554444") } });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toHaveLength(1);
  });

  it("yield one payment and one order when confirmed twice at once", async () => {
    const product = await oneTimeProduct("Template pack", 900);
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    const confirm = async () =>
      customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("twice@example.com"), confirmationTokenId: await cardToken(stack, "4242424242424242") } });
    const outcomes = await Promise.allSettled([confirm(), confirm()]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === "rejected");
    expect(refused?.status === "rejected" ? refused.reason : null).toMatchObject({ statusCode: 403 });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toHaveLength(1);
    const payments = await stack.billing.context.db("payments").where({ checkout_id: checkout.id });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "succeeded", amount: 900, card_brand: "visa", card_last4: "4242" });
  });

  it("pay once when the worker dies between the card payment and the order, and is run again", async () => {
    const db = stack.billing.context.db;
    const product = await oneTimeProduct("Crash course", 1200);
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    const card = await cardToken(stack, "4242424242424242");
    /** Which payment took the card: the sandbox charges it for the payment job's idempotency key. */
    const chargedFor = async () => (await db("sandbox_confirmation_tokens").where({ id: card }).first<{ used_by: string | null } | undefined>())?.used_by;
    let job: { idempotency_key: string } | undefined;
    // Held where it numbers the invoice: after the card was charged.
    const hold = await holdOrderNumbering(db, shop.organizationId, "crash@example.com");
    try {
      await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("crash@example.com"), confirmationTokenId: card } });
      await hold.stuck();
      job = await db("checkout_payment_jobs").where({ checkout_id: checkout.id }).first<{ idempotency_key: string } | undefined>();
      expect(await chargedFor()).toBe(job?.idempotency_key);
      // The crash: its connection is cut mid-transaction, so nothing after the charge was recorded.
      await hold.crash();
    } finally {
      await hold.release();
    }
    expect(await db("payments").where({ checkout_id: checkout.id })).toHaveLength(0);
    // As if the job's lease had run out: another attempt takes it.
    await db("checkout_payment_jobs").where({ checkout_id: checkout.id }).update({ leased_until: new Date(Date.now() - 1000) });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    // The card was charged once: the retry, under the same key, got the first charge back from the processor.
    expect(await chargedFor()).toBe(job?.idempotency_key);
    const first = await new SandboxProcessor(db).confirm({ idempotencyKey: job?.idempotency_key ?? "", checkoutId: checkout.id, customer: { id: "", email: null, name: null }, amount: 1200, currency: "usd", confirmationTokenId: card, saveForLater: false });
    const payments = await db("payments").where({ checkout_id: checkout.id });
    expect(payments.map((payment: { processor_payment_id: string }) => payment.processor_payment_id)).toEqual([first.processorPaymentId]);
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items).toHaveLength(1);
  });

  it("refuse to confirm without what the form requires, naming each missing field", async () => {
    const product = await oneTimeProduct("Workshop");
    const checkout = await shop.polar.checkouts.create({ products: [product.id], requireBillingAddress: true });
    const response = await fetch(`${stack.gateway.url}/v1/checkouts/client/${checkout.clientSecret}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customer_billing_address: { country: "US" } }),
    });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: string[] }[] };
    expect(detail.map((issue) => issue.loc.join("."))).toEqual([
      "body.customer_email",
      "body.customer_billing_address.state",
      "body.customer_billing_address.city",
      "body.customer_billing_address.postal_code",
      "body.customer_billing_address.line1",
      "body.confirmation_token_id",
    ]);
    expect((await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status).toBe("open");
  });

  it("apply a discount code within its terms, and take a custom amount within the price's bounds", async () => {
    const product = await shop.polar.products.create({ name: "Donation", prices: [{ amountType: "custom", priceCurrency: "usd", minimumAmount: 500, maximumAmount: 10_000, presetAmount: 2_000 }] });
    const discount = await shop.polar.discounts.create({ name: "Friends", code: "FRIENDS", type: "percentage", basisPoints: 2_500, duration: "once", maxRedemptions: 1 });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    expect(checkout.amount).toBe(2_000);
    await expect(customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { amount: 100 } })).rejects.toMatchObject({ statusCode: 422 });
    const updated = await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { amount: 4_000, discountCode: "friends" } });
    expect(updated).toMatchObject({ amount: 4_000, discountAmount: 1_000, netAmount: 3_000, totalAmount: 3_000, discountId: discount.id });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("friend@example.com"), confirmationTokenId: await cardToken(stack, "4242424242424242") } });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(order).toMatchObject({ subtotalAmount: 4_000, discountAmount: 1_000, totalAmount: 3_000, discountId: discount.id });
    expect((await shop.polar.discounts.get({ id: discount.id })).redemptionsCount).toBe(1);

    const another = await shop.polar.checkouts.create({ products: [product.id] });
    await expect(customerSide.checkouts.clientUpdate({ clientSecret: another.clientSecret, checkoutUpdatePublic: { discountCode: "FRIENDS" } })).rejects.toMatchObject({ statusCode: 422 });
  });

  it("keep answers only to the chosen product's fields, checked again at confirmation against the fields as they are then", async () => {
    const start = await shop.polar.customFields.create({ type: "date", slug: "start-on", name: "Start on", properties: { ge: 1_767_225_600 } });
    const note = await shop.polar.customFields.create({ type: "text", slug: "note", name: "Note", properties: {} });
    const dated = await shop.polar.products.create({ name: "Course", prices: [{ amountType: "free" }], attachedCustomFields: [{ customFieldId: start.id, required: true }, { customFieldId: note.id, required: false }] });
    const plain = await shop.polar.products.create({ name: "Handout", prices: [{ amountType: "free" }], attachedCustomFields: [{ customFieldId: note.id, required: false }] });
    const checkout = await shop.polar.checkouts.create({ products: [dated.id, plain.id], customFieldData: { note: "front row" } });

    // The SDK sends a date as an ISO timestamp; a day before the field's first is refused.
    const answered = await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customFieldData: { "start-on": new Date("2026-03-02T00:00:00Z") } } });
    expect(answered.customFieldData).toEqual({ note: "front row", "start-on": "2026-03-02T00:00:00.000Z" });
    await expect(customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customFieldData: { "start-on": "2025-12-31" } } })).rejects.toMatchObject({
      detail: [{ loc: ["body", "custom_field_data", "start-on"], msg: "Input should be greater than or equal to 2026-01-01", type: "greater_than_equal" }],
    });

    // The seller shortens the note since it was answered: paying asks for it again.
    await shop.polar.customFields.update({ id: note.id, customFieldUpdate: { type: "text", properties: { maxLength: 5 } } });
    await expect(customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "answers@example.com" } })).rejects.toMatchObject({
      detail: [{ loc: ["body", "custom_field_data", "note"], type: "string_too_long" }],
    });
    // Another product keeps the answers to the fields it asks, and drops the rest.
    const switched = await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { productId: plain.id, customFieldData: { note: "desk" } } });
    expect(switched.customFieldData).toEqual({ note: "desk" });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "answers@example.com" } });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items[0]?.customFieldData).toEqual({ note: "desk" });
  });

  it("expire when their time is up and can no longer be confirmed", async () => {
    const product = await oneTimeProduct("Late ticket");
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    await stack.billing.context.db("checkouts").where({ id: checkout.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await shop.polar.checkouts.get({ id: checkout.id })).status).toBe("expired");
    await expect(
      customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { ...buyer("late@example.com"), confirmationTokenId: await cardToken(stack, "4242424242424242") } }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect.poll(() => eventTypesAbout(stack, checkout.id)).toEqual(["checkout.created", "checkout.updated", "checkout.expired"]);

    // Confirmed past its time with nothing having read it since: the confirmation expires it, then refuses.
    const unread = await shop.polar.checkouts.create({ products: [product.id] });
    await stack.billing.context.db("checkouts").where({ id: unread.id }).update({ expires_at: new Date(Date.now() - 1000) });
    await expect(
      customerSide.checkouts.clientConfirm({ clientSecret: unread.clientSecret, checkoutConfirmStripe: { ...buyer("later@example.com"), confirmationTokenId: await cardToken(stack, "4242424242424242") } }),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect((await stack.billing.context.db("checkouts").where({ id: unread.id }).first<{ status: string }>())?.status).toBe("expired");
    await expect.poll(() => eventTypesAbout(stack, unread.id)).toEqual(["checkout.created", "checkout.updated", "checkout.expired"]);
    expect(await stack.billing.context.db("checkout_payment_jobs").where({ checkout_id: unread.id })).toEqual([]);
  });

  it("sell a free product without a card", async () => {
    const product = await shop.polar.products.create({ name: "Sample", prices: [{ amountType: "free" }] });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    expect(checkout).toMatchObject({ isFreeProductPrice: true, isPaymentRequired: false, isPaymentFormRequired: false, totalAmount: 0 });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "free@example.com" } });
    expect((await settled(checkout.id)).status).toBe("succeeded");
    expect((await shop.polar.orders.list({ checkoutId: checkout.id })).result.items[0]).toMatchObject({ totalAmount: 0, status: "paid" });
  });

  it("opens the portal for the customer a confirmation made, and not for one who already existed", async () => {
    const product = await shop.polar.products.create({ name: "Session guide", prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "usd" }] });
    const confirmAs = async (email: string) => {
      const checkout = await shop.polar.checkouts.create({ products: [product.id] });
      return customerSide.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "DK" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
      });
    };
    const first = await confirmAs("first-time@example.com");
    expect(first.customerSessionToken).toMatch(/^polar_cst_/);
    const me = await customerSide.customerPortal.customers.get({ customerSession: first.customerSessionToken ?? "" });
    expect(me.email).toBe("first-time@example.com");
    // Whoever confirms holds only a client secret, and may have typed someone else's e-mail.
    expect((await confirmAs("first-time@example.com")).customerSessionToken).toBeNull();
  });
});
