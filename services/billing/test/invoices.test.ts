import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { cardToken, pdfText, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** Pays for a new product of `amount` cents as `email`, on a checkout in `locale`; the paid order. */
async function paidOrder(name: string, amount: number, email: string, locale: string) {
  const product = await shop.polar.products.create({ name, prices: [{ amountType: "fixed", priceAmount: amount, priceCurrency: "usd" }] });
  const checkout = await shop.polar.checkouts.create({ products: [product.id], locale });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "DE" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
  if (!order) throw new Error("no order");
  return order;
}


describe("invoices and receipts", () => {
  it("makes an order's invoice once its billing details are given, in the customer's language, and keeps it as it was made", async () => {
    const order = await paidOrder("Atlas des Sternenhimmels", 2_950, "leser@example.com", "de");
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });

    // A checkout gives a country, not a name and address: the invoice waits for them.
    await expect(seller.orders.generateInvoice(order.id)).rejects.toMatchObject({ statusCode: 422, error: { error: "MissingInvoiceBillingDetails" } });
    await expect(seller.orders.invoice(order.id)).rejects.toMatchObject({ statusCode: 404 });
    const updated = await shop.polar.orders.update({
      id: order.id,
      orderUpdate: { billingName: "Sternwarte Nord GmbH", billingAddress: { line1: "Himmelsweg 7", postalCode: "20095", city: "Hamburg", country: "DE" } },
    });
    expect(updated.billingName).toBe("Sternwarte Nord GmbH");

    expect(order.isInvoiceGenerated).toBe(false);
    await seller.orders.generateInvoice(order.id);
    expect((await shop.polar.orders.get({ id: order.id })).isInvoiceGenerated).toBe(true);
    const text = await pdfText(stack, (await seller.orders.invoice(order.id)).url);
    expect(text).toContain("Rechnung");
    expect(text).toContain(`Nummer: ${order.invoiceNumber}`);
    expect(text).toContain("Sternwarte Nord GmbH");
    expect(text).toContain("Himmelsweg 7");
    expect(text).toContain("20095 Hamburg");
    expect(text).toContain("Deutschland");
    expect(text).toContain("Atlas des Sternenhimmels");
    expect(text).toMatch(/Gesamt\s+29,50\s\$/);

    // Made, an invoice no longer changes: its billing details are refused, and asking again keeps it.
    await expect(shop.polar.orders.update({ id: order.id, orderUpdate: { billingName: "Someone else" } })).rejects.toMatchObject({ statusCode: 409 });
    await seller.orders.generateInvoice(order.id);
    expect(await pdfText(stack, (await seller.orders.invoice(order.id)).url)).toContain("Sternwarte Nord GmbH");
    // A refund of the invoiced order gets a credit note of its own, naming the invoice it corrects.
    const refund = await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 950 });
    const creditNote = async () => {
      const response = await fetch(`${stack.gateway.url}/v1/refunds/${refund?.id ?? ""}/credit-note`, { headers: { authorization: `Bearer ${shop.token}` } });
      return response.status === 200 ? ((await response.json()) as { url: string }).url : null;
    };
    await expect.poll(creditNote, { timeout: 10_000 }).not.toBeNull();
    const note = await pdfText(stack, (await creditNote()) ?? "");
    expect(note).toContain("Gutschrift");
    expect(note).toContain(`Nummer: ${order.invoiceNumber}-CN1`);
    expect(note).toContain(`Korrigiert Rechnung: ${order.invoiceNumber}`);
    expect(note).toMatch(/Gesamt\s+-9,50\s\$/);
    // The invoice is kept in the file store, but is none of the seller's own files, nor public by its id.
    expect((await shop.polar.files.list({})).result.items.map((file) => file.name)).not.toContain(`Rechnung-${order.invoiceNumber}.pdf`);
    const [invoiceFile] = await stack.billing.context.db("order_documents").where({ order_id: order.id, kind: "invoice" }).select<{ file_id: string }[]>("file_id");
    expect((await fetch(`${stack.gateway.url}/v1/files/public/${invoiceFile?.file_id ?? ""}`)).status).toBe(404);
    await expect(shop.polar.files.delete({ id: invoiceFile?.file_id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("gives a receipt that shows a refund once there is one, and the customer their own documents only", async () => {
    const order = await paidOrder("Telescope", 12_000, "observer@example.com", "en");
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const receipt = await pdfText(stack, (await seller.orders.receipt(order.id)).url);
    expect(receipt).toContain("Receipt");
    expect(receipt).toMatch(/Total\s+\$120\.00/);
    expect(receipt).not.toContain("Refunded");

    const earlyRefund = await shop.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 2_000 });
    await expect.poll(async () => (await shop.polar.orders.get({ id: order.id })).refundedAmount).toBe(2_000);
    expect(await pdfText(stack, (await seller.orders.receipt(order.id)).url)).toMatch(/Refunded\s+-\$20\.00/);
    // The receipt's number, and what a refund could still give back, as SDK 1.x reads the order.
    const refunded = await seller.orders.get(order.id);
    expect(refunded).toMatchObject({ receipt_number: order.invoiceNumber, units: null, refundable_amount: refunded.net_amount - 2_000, refundable_tax_amount: refunded.tax_amount - refunded.refunded_tax_amount });
    expect(refunded.items.map((item) => [item.start_timestamp, item.end_timestamp])).toEqual([[null, null]]);

    const asCustomer = (token: string) => createPolar({ accessToken: token, baseUrl: stack.gateway.url });
    const own = asCustomer((await shop.polar.customerSessions.create({ customerId: order.customerId })).token);
    // The customer gave no billing name either: their invoice waits for it too.
    await expect(own.customerPortal.orders.generateInvoice(order.id)).rejects.toMatchObject({ statusCode: 422 });
    // Saved in the portal, the customer's billing details go onto the invoice.
    await own.customerPortal.customers.update({ billing_name: "Observatory Ltd", billing_address: { line1: "1 Dome Road", city: "Cambridge", postal_code: "CB3 0HA", country: "GB" } });
    // The order's own billing name, set from the portal as SDK 1.x does, is the one the invoice carries.
    const billingAddress = { line1: "1 Dome Road", city: "Cambridge", postal_code: "CB3 0HA", country: "GB" as const };
    expect(await own.customerPortal.orders.update(order.id, { billing_name: "Observatory Ltd", billing_address: billingAddress })).toMatchObject({ id: order.id, billing_name: "Observatory Ltd", billing_address: billingAddress });
    await own.customerPortal.orders.generateInvoice(order.id);
    await expect(own.customerPortal.orders.update(order.id, { billing_name: "Too late" })).rejects.toMatchObject({ statusCode: 409 });
    const invoice = await pdfText(stack, (await own.customerPortal.orders.invoice(order.id)).url);
    expect(invoice).toContain("Observatory Ltd");
    expect(invoice).toContain("1 Dome Road");
    expect((await shop.polar.orders.get({ id: order.id })).billingName).toBe("Observatory Ltd");
    // The refund made before the invoice corrects it too.
    const noteOfEarlyRefund = await fetch(`${stack.gateway.url}/v1/refunds/${earlyRefund?.id ?? ""}/credit-note`, { headers: { authorization: `Bearer ${shop.token}` } });
    expect(await pdfText(stack, ((await noteOfEarlyRefund.json()) as { url: string }).url)).toMatch(/Total\s+-\$20\.00/);
    expect(await pdfText(stack, (await own.customerPortal.orders.receipt(order.id)).url)).toContain("Telescope");
    // The order's credit notes, listed for the portal and the console with their numbers.
    const customerToken = (await shop.polar.customerSessions.create({ customerId: order.customerId })).token;
    const creditNotes = async (path: string, token: string) => {
      const response = await fetch(`${stack.gateway.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as { refund_id: string; number: string; url: string }[] };
    };
    const listed = await creditNotes(`/v1/customer-portal/orders/${order.id}/credit-notes`, customerToken);
    expect(listed.body.map(({ refund_id, number }) => ({ refund_id, number }))).toEqual([{ refund_id: earlyRefund?.id, number: `${order.invoiceNumber}-CN1` }]);
    expect(await pdfText(stack, listed.body[0]?.url ?? "")).toContain(`${order.invoiceNumber}-CN1`);
    expect((await creditNotes(`/v1/orders/${order.id}/credit-notes`, shop.token)).body).toHaveLength(1);

    const other = await paidOrder("Star chart", 900, "someone-else@example.com", "en");
    await expect(own.customerPortal.orders.receipt(other.id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await creditNotes(`/v1/customer-portal/orders/${other.id}/credit-notes`, customerToken)).status).toBe(404);
  });
});
