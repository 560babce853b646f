import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { advanceDays, cardToken, ordersOf, pdfText, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** The seller's tax settings changed through Tollgate's own endpoint: its status and answer. */
async function changeTaxSettings(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${stack.gateway.url}/v1/organizations/${shop.organizationId}/tax-settings`, {
    method: "PATCH",
    headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const problemsOf = (json: Record<string, unknown>) => (json.detail as { loc: (string | number)[]; msg: string }[]).map((issue) => [issue.loc.slice(1).join("."), issue.msg]);

/** Pays an open checkout with the 4242 card as it stands, and the order it became. */
async function pay(checkoutId: string, clientSecret: string, email: string) {
  await customerSide.checkouts.clientConfirm({ clientSecret, checkoutConfirmStripe: { customerEmail: email, confirmationTokenId: await cardToken(stack, "4242424242424242") } });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkoutId })).status, { timeout: 10_000 }).toBe("succeeded");
  const [order] = (await shop.polar.orders.list({ checkoutId })).result.items;
  if (!order) throw new Error("no order");
  return order;
}


describe("sales tax", () => {
  it("takes a seller's tax settings, refusing places and numbers that cannot be", async () => {
    const refused = await changeTaxSettings({ registrations: [{ country: "US" }, { country: "GB" }, { country: "DE", state: "BY" }, { country: "DE" }, { country: "DE" }], tax_id: "FR123" });
    expect(refused.status).toBe(422);
    expect(problemsOf(refused.json)).toEqual([
      ["registrations.0.state", "US sales tax is registered state by state: name the state"],
      ["registrations.0.rate", "Tollgate knows no rate for US: give the rate you charge there"],
      ["registrations.1.rate", "Tollgate knows no rate for GB: give the rate you charge there"],
      ["registrations.2.state", "Only US and Canadian registrations name a state or province"],
      ["registrations.4.country", "This place is registered twice"],
      ["country", "Say where your business is established: EU VAT depends on it"],
      ["tax_id", "Say where your business is established to give its tax ID"],
    ]);

    const saved = await changeTaxSettings({
      country: "FR",
      address: { line1: "12 rue des Étoiles", postal_code: "75004", city: "Paris", country: "FR" },
      tax_id: "fr 40 303265045",
      registrations: [{ country: "FR" }, { country: "DE" }, { country: "US", state: "NY", rate: 8.875 }],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({
      country: "FR",
      tax_id: "FR40303265045",
      default_tax_behavior: "location",
      registrations: [
        { country: "FR", state: null, rate: 20, standard_rate: true },
        { country: "DE", state: null, rate: 19, standard_rate: true },
        { country: "US", state: "NY", rate: 8.875, standard_rate: false },
      ],
    });
  });

  it("charges a German consumer German VAT inside the price, shown as soon as the country is known, and prints it on the invoice", async () => {
    const product = await shop.polar.products.create({ name: "Sternkarte", prices: [{ amountType: "fixed", priceAmount: 1_200, priceCurrency: "eur" }] });
    const checkout = await shop.polar.checkouts.create({ products: [product.id], locale: "de", currency: "eur" });
    // Nothing to reckon tax by yet.
    expect(checkout).toMatchObject({ taxAmount: null, taxBehavior: null, netAmount: 1_200, totalAmount: 1_200 });
    await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } } });
    // As SDK 1.x reads it.
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    expect(await seller.checkouts.get(checkout.id)).toMatchObject({ amount: 1_200, tax_amount: 192, tax_behavior: "inclusive", net_amount: 1_008, total_amount: 1_200 });

    const order = await pay(checkout.id, checkout.clientSecret, "leserin@example.com");
    expect(order).toMatchObject({ subtotalAmount: 1_008, discountAmount: 0, netAmount: 1_008, taxAmount: 192, totalAmount: 1_200 });
    expect(order.items.map((item) => [item.amount, item.taxAmount])).toEqual([[1_008, 192]]);

    // A refund of half takes back half the tax.
    const refund = await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 504 });
    expect(refund).toMatchObject({ amount: 504, taxAmount: 96 });

    await shop.polar.orders.update({ id: order.id, orderUpdate: { billingName: "Lena Vogt", billingAddress: { line1: "Himmelsweg 7", postalCode: "20095", city: "Hamburg", country: "DE" } } });
    await seller.orders.generateInvoice(order.id);
    const text = await pdfText(stack, (await seller.orders.invoice(order.id)).url);
    expect(text).toContain("12 rue des Étoiles");
    expect(text).toContain("USt-IdNr.: FR40303265045");
    expect(text).toMatch(/Zwischensumme\s+10,08\s€/);
    expect(text).toMatch(/Steuer \(19\s%\)\s+1,92\s€/);
    expect(text).toMatch(/Gesamt\s+12,00\s€/);
    expect(text).not.toContain("Reverse Charge");
  });

  it("lets a German business with a valid VAT number pay no VAT (reverse charge, stated on its invoice), and refuses a number of the wrong shape", async () => {
    const product = await shop.polar.products.create({ name: "Teleskopzeit", prices: [{ amountType: "fixed", priceAmount: 1_200, priceCurrency: "eur" }] });
    const checkout = await shop.polar.checkouts.create({ products: [product.id], locale: "de", currency: "eur" });
    const refused = await customerSide.checkouts
      .clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { isBusinessCustomer: true, customerTaxId: "DE 1234", customerBillingAddress: { country: "DE" } } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 422 });
    expect(String((refused as { body?: unknown }).body)).toContain("This is not a valid VAT number for DE.");
    const business = await customerSide.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        isBusinessCustomer: true,
        customerBillingName: "Sternwarte Nord GmbH",
        customerTaxId: "de 123 456 789",
        customerBillingAddress: { line1: "Himmelsweg 7", postalCode: "20095", city: "Hamburg", country: "DE" },
      },
    });
    expect(business).toMatchObject({ customerTaxId: "DE123456789", taxAmount: 0, taxBehavior: "inclusive", totalAmount: 1_200 });

    const order = await pay(checkout.id, checkout.clientSecret, "einkauf@sternwarte.example");
    expect(order).toMatchObject({ subtotalAmount: 1_200, taxAmount: 0, totalAmount: 1_200 });
    const customer = await shop.polar.customers.get({ id: order.customerId });
    expect(customer.taxId).toEqual(["DE123456789", "eu_vat"]);

    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    await seller.orders.generateInvoice(order.id);
    const text = await pdfText(stack, (await seller.orders.invoice(order.id)).url);
    expect(text).toContain("Steuernummer: DE123456789");
    expect(text).toContain("Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 Richtlinie 2006/112/EG).");
    expect(text).toMatch(/Gesamt\s+12,00\s€/);
  });

  it("adds New York's sales tax on top for a buyer there, and none for one in Texas, where the seller does not charge it", async () => {
    const product = await shop.polar.products.create({ name: "Star atlas", prices: [{ amountType: "fixed", priceAmount: 1_000, priceCurrency: "usd" }] });
    const texas = await shop.polar.checkouts.create({ products: [product.id] });
    // A US address needs its state: the seller's registration there depends on it.
    expect(await customerSide.checkouts.clientUpdate({ clientSecret: texas.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "US" } } })).toMatchObject({ taxAmount: null });
    const inTexas = await customerSide.checkouts.clientUpdate({ clientSecret: texas.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "US", state: "US-TX", postalCode: "73301" } } });
    expect(inTexas).toMatchObject({ taxAmount: 0, taxBehavior: "exclusive", totalAmount: 1_000 });
    expect(await pay(texas.id, texas.clientSecret, "reader@example.com")).toMatchObject({ taxAmount: 0, totalAmount: 1_000 });

    const newYork = await shop.polar.checkouts.create({ products: [product.id] });
    const inNewYork = await customerSide.checkouts.clientUpdate({ clientSecret: newYork.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "US", state: "NY", postalCode: "10001" } } });
    expect(inNewYork).toMatchObject({ netAmount: 1_000, taxAmount: 89, taxBehavior: "exclusive", totalAmount: 1_089 });
    expect(await pay(newYork.id, newYork.clientSecret, "reader.ny@example.com")).toMatchObject({ subtotalAmount: 1_000, taxAmount: 89, totalAmount: 1_089 });
  });

  it("taxes each renewal as the first order was, at the customer's address", async () => {
    const plan = await shop.polar.products.create({ name: "Himmelsbrief", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 1_000, priceCurrency: "eur" }] });
    const checkout = await shop.polar.checkouts.create({ products: [plan.id], currency: "eur" });
    await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } } });
    await pay(checkout.id, checkout.clientSecret, "abonnentin@example.com");
    const [subscription] = (await shop.polar.subscriptions.list({ productId: plan.id })).result.items;
    if (!subscription) throw new Error("no subscription");
    await advanceDays(stack, shop, 32);
    const orders = await ordersOf(shop, subscription.id);
    expect(orders.map((order) => [order.billingReason, order.subtotalAmount, order.taxAmount, order.totalAmount])).toEqual([
      ["subscription_create", 840, 160, 1_000],
      ["subscription_cycle", 840, 160, 1_000],
    ]);
    // A plan change charged now carries VAT on each of its lines, the credit's included.
    const larger = await shop.polar.products.create({ name: "Himmelsbrief plus", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 3_000, priceCurrency: "eur" }] });
    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: larger.id, prorationBehavior: "invoice" } });
    await expect.poll(async () => (await ordersOf(shop, subscription.id)).length, { timeout: 10_000 }).toBe(3);
    const change = (await ordersOf(shop, subscription.id))[2];
    expect(change?.billingReason).toBe("subscription_update");
    expect(change?.items.map((item) => Math.round((item.amount * 19) / 100) - item.taxAmount).every((difference) => Math.abs(difference) <= 1)).toBe(true);
    expect(change?.taxAmount).toBe(change?.items.reduce((sum, item) => sum + item.taxAmount, 0));
    expect(change?.totalAmount).toBe((change?.subtotalAmount ?? 0) + (change?.taxAmount ?? 0));
  });
});
