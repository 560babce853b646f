import { describe, expect, it } from "vitest";
import { type Polar } from "@polar-sh/sdk";
import { PUBLIC_URL } from "../../auth/test/stack.js";
import { randomBytes } from "node:crypto";
import { newestLinksTo } from "../../auth/test/dev-mailbox.js";
import { cardToken, useShop } from "./purchases.js";
import { partsOf, sha256, uploadParts } from "./uploads.js";
import type { BillingStack, Seller } from "./stack.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** Buys the product as `email`; the customer's id. */
async function buy(productId: string, email: string): Promise<string> {
  const checkout = await shop.polar.checkouts.create({ products: [productId] });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "DK" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  return (await shop.polar.checkouts.get({ id: checkout.id })).customerId ?? "";
}

describe("the customer portal", () => {
  it("opens with a customer session and shows the customer their profile, orders, subscriptions and keys", async () => {
    const licence = await shop.polar.benefits.create({ type: "license_keys", description: "Licence", properties: {} });
    const app = await shop.polar.products.create({ name: "Editor", prices: [{ amountType: "fixed", priceAmount: 3_000, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: app.id, productBenefitsUpdate: { benefits: [licence.id] } });
    const plan = await shop.polar.products.create({ name: "Editor Cloud", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }] });
    const customerId = await buy(app.id, "portal@example.com");
    await buy(plan.id, "portal@example.com");
    await buy(app.id, "someone-else@example.com");

    const session = await shop.polar.customerSessions.create({ customerId });
    expect(session.token).toMatch(/^polar_cst_/);
    expect(session.customerPortalUrl).toContain(`${PUBLIC_URL}/`);
    expect(session.customerPortalUrl).toContain(`customer_session_token=${session.token}`);
    expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(55 * 60 * 1000);
    const security = { customerSession: session.token };

    expect(await customerSide.customerPortal.customers.get(security)).toMatchObject({ id: customerId, email: "portal@example.com" });
    const orders = (await customerSide.customerPortal.orders.list(security, {})).result.items;
    expect(orders.map((order) => order.product?.name).sort()).toEqual(["Editor", "Editor Cloud"]);
    expect(orders.every((order) => order.customerId === customerId && order.product?.organization.id === shop.organizationId)).toBe(true);

    const [subscription] = (await customerSide.customerPortal.subscriptions.list(security, {})).result.items;
    expect(subscription).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    const canceled = await customerSide.customerPortal.subscriptions.cancel(security, { id: subscription?.id ?? "" });
    expect(canceled.cancelAtPeriodEnd).toBe(true);
    const resumed = await customerSide.customerPortal.subscriptions.update(security, { id: subscription?.id ?? "", customerSubscriptionUpdate: { cancelAtPeriodEnd: false } });
    expect(resumed.cancelAtPeriodEnd).toBe(false);
    expect((await shop.polar.subscriptions.get({ id: subscription?.id ?? "" })).cancelAtPeriodEnd).toBe(false);

    const [key] = (await customerSide.customerPortal.licenseKeys.list(security, {})).result.items;
    expect(key).toMatchObject({ customerId, benefitId: licence.id, status: "granted" });
    expect((await customerSide.customerPortal.licenseKeys.get(security, { id: key?.id ?? "" })).activations).toEqual([]);
  });

  it("shows a customer nothing of anyone else's, and opens for no other kind of token", async () => {
    const product = await shop.polar.products.create({ name: "Theme", prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] });
    const mineId = await buy(product.id, "mine@example.com");
    await buy(product.id, "theirs@example.com");
    const [theirs] = (await shop.polar.orders.list({ productId: product.id })).result.items.filter((order) => order.customerId !== mineId);
    const { token } = await shop.polar.customerSessions.create({ customerId: mineId });
    await expect(customerSide.customerPortal.orders.get({ customerSession: token }, { id: theirs?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(customerSide.customerPortal.customers.get({ customerSession: shop.token })).rejects.toMatchObject({ statusCode: 401 });
    await expect(customerSide.customerPortal.customers.get({ customerSession: "polar_cst_not-a-session" })).rejects.toMatchObject({ statusCode: 401 });
    await expect(shop.polar.customerSessions.create({ customerId: "cus_nobody" })).rejects.toMatchObject({ statusCode: 422 });
  });

  it("hands the customer download links for the files a purchase granted, for as long as it is granted", async () => {
    const bytes = randomBytes(300_000);
    const parts = partsOf(bytes, 300_000);
    const created = await shop.polar.files.create({ service: "downloadable", name: "field guide.pdf", mimeType: "application/pdf", size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    const completed = await uploadParts(stack, created.upload, parts);
    await shop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
    const benefit = await shop.polar.benefits.create({ type: "downloadables", description: "The guide", properties: { files: [created.id] } });
    const product = await shop.polar.products.create({ name: "Guide download", prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const customerId = await buy(product.id, "reader-downloads@example.com");
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };

    const [downloadable] = (await customerSide.customerPortal.downloadables.list(security, {})).result.items;
    expect(downloadable).toMatchObject({ benefitId: benefit.id, file: { name: "field guide.pdf", size: bytes.length } });
    const link = downloadable?.file.download.url ?? "";
    const fetched = await fetch(link.replace(PUBLIC_URL, stack.gateway.url));
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-disposition")).toContain('filename="field guide.pdf"');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(link.replace(PUBLIC_URL, stack.gateway.url).replace(/.$/, "x"))).status).toBe(403);

    const [order] = (await shop.polar.orders.list({ productId: product.id })).result.items;
    await shop.polar.refunds.create({ orderId: order?.id ?? "", reason: "customer_request", amount: 700, revokeBenefits: true });
    expect((await customerSide.customerPortal.downloadables.list(security, {})).result.items).toEqual([]);
  });

  it("shows a signed-in Tollgate user what they bought from every seller, once their e-mail is verified", async () => {
    const email = `shopper-${Date.now()}@example.com`;
    const person = stack.browser();
    await person.client.signUp.email({ name: "Shopper", email, password: "correct horse battery staple" });
    const other = await stack.seller();
    for (const seller of [shop, other]) {
      const product = await seller.polar.products.create({ name: `Poster from ${seller.organizationId}`, prices: [{ amountType: "fixed", priceAmount: 400, priceCurrency: "usd" }] });
      const checkout = await seller.polar.checkouts.create({ products: [product.id] });
      await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "NO" }, confirmationTokenId: await cardToken(stack, "4242424242424242") } });
      await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
    }
    const mine = async () => (await person.fetch(`${stack.gateway.url}/v1/me/orders/`, { headers: { origin: PUBLIC_URL } })).json() as Promise<{ items: { customer: { email: string }; organization: { id: string } }[] }>;
    // Billing knows the user, but not yet verified: the e-mail could be anyone's.
    await expect.poll(async () => (await stack.billing.context.db("people").where({ email }).first()) !== undefined).toBe(true);
    expect((await mine()).items).toEqual([]);

    await person.client.sendVerificationEmail({ email });
    const link = (await newestLinksTo(stack, email)).find((candidate) => candidate.includes("/api/auth/verify-email")) ?? "";
    await person.client.verifyEmail({ query: { token: new URL(link).searchParams.get("token") ?? "" } });
    await expect.poll(async () => (await mine()).items.map((order) => order.organization.id).sort(), { timeout: 10_000 }).toEqual([shop.organizationId, other.organizationId].sort());
    expect((await mine()).items.every((order) => order.customer.email === email)).toBe(true);
    const stranger = await fetch(`${stack.gateway.url}/v1/me/orders/`);
    expect(stranger.status).toBe(401);
  });
});
