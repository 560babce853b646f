import { describe, expect, it } from "vitest";
import { type Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { randomBytes } from "node:crypto";
import { newestLinksTo } from "../../../test/stacks/dev-mailbox.js";
import { advanceDays, cardToken, eventTypesAbout, subscribe, useShop } from "../../../test/stacks/purchases.js";
import { followDownload, partsOf, sha256, uploadParts } from "../../../test/stacks/uploads.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

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
    // Canceled with a reason and a comment, as the portal asks them: the seller reads both.
    await customerSide.customerPortal.subscriptions.update(security, {
      id: subscription?.id ?? "",
      customerSubscriptionUpdate: { cancelAtPeriodEnd: true, cancellationReason: "too_expensive", cancellationComment: "Over our budget" },
    });
    expect(await shop.polar.subscriptions.get({ id: subscription?.id ?? "" })).toMatchObject({ cancelAtPeriodEnd: true, customerCancellationReason: "too_expensive", customerCancellationComment: "Over our budget" });
    await customerSide.customerPortal.subscriptions.update(security, { id: subscription?.id ?? "", customerSubscriptionUpdate: { cancelAtPeriodEnd: false } });

    const [key] = (await customerSide.customerPortal.licenseKeys.list(security, {})).result.items;
    expect(key).toMatchObject({ customerId, benefitId: licence.id, status: "granted" });
    expect((await customerSide.customerPortal.licenseKeys.get(security, { id: key?.id ?? "" })).activations).toEqual([]);
  });

  it("applies a customer's cancellation only once a renewal in flight for the subscription has settled", async () => {
    const plan = await shop.polar.products.create({ name: "Nightly builds", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "usd" }] });
    const customerId = await buy(plan.id, "renewing@example.com");
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };
    const [subscription] = (await customerSide.customerPortal.subscriptions.list(security, {})).result.items;
    const { db } = stack.billing.context;
    const stored = () => db("subscriptions").where({ id: subscription?.id }).first<{ cancel_at_period_end: boolean }>();
    // As another replica's renewal holds it: claimed, its card being charged.
    await db("subscriptions").where({ id: subscription?.id }).update({ leased_until: new Date(Date.now() + 1_500) });
    const cancel = customerSide.customerPortal.subscriptions.cancel(security, { id: subscription?.id ?? "" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await stored())?.cancel_at_period_end).toBe(false);
    expect((await cancel).cancelAtPeriodEnd).toBe(true);
    expect((await stored())?.cancel_at_period_end).toBe(true);
  });

  it("names the seller and its public products to anyone, each benefit without what it grants", async () => {
    const manual = await shop.polar.benefits.create({ type: "custom", description: "Printed manual", properties: { note: "Sent by post" } });
    const listed = await shop.polar.products.create({ name: "Typewriter", prices: [{ amountType: "fixed", priceAmount: 9_000, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: listed.id, productBenefitsUpdate: { benefits: [manual.id] } });
    const hidden = await shop.polar.products.create({ name: "Unlisted", visibility: "private", prices: [{ amountType: "fixed", priceAmount: 100, priceCurrency: "usd" }] });
    const { slug } = await shop.polar.organizations.get({ id: shop.organizationId });
    const found = await customerSide.customerPortal.organizations.get({ slug });
    expect(found.organization).toMatchObject({ id: shop.organizationId, slug });
    const names = found.products.map((product) => product.name);
    expect(names).toContain(listed.name);
    expect(names).not.toContain(hidden.name);
    const typewriter = found.products.find((product) => product.id === listed.id);
    expect(typewriter?.benefits.map((benefit) => benefit.description)).toEqual(["Printed manual"]);
    expect(typewriter?.benefits[0]).not.toHaveProperty("properties");
    await expect(customerSide.customerPortal.organizations.get({ slug: `no-${slug}` })).rejects.toMatchObject({ statusCode: 404 });
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
    // A customer the seller deletes is shut out of the portal: their sessions end, the gateway's cached copies too.
    await shop.polar.customers.delete({ id: mineId });
    const portalStatus = () => customerSide.customerPortal.orders.list({ customerSession: token }, {}).then(() => 200, (error: { statusCode?: number }) => error.statusCode);
    await expect.poll(portalStatus, { timeout: 10_000 }).toBe(401);
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
    const { file: fetched } = await followDownload(stack, link);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-disposition")).toContain('filename="field guide.pdf"');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    // The signature's first character changed is a link nobody signed (its last carries unused
    // base64 bits, so changing that one can leave the signature as it was).
    const signatureAt = link.lastIndexOf(".") + 1;
    const forged = link.slice(0, signatureAt) + (link[signatureAt] === "A" ? "B" : "A") + link.slice(signatureAt + 1);
    expect((await fetch(forged.replace(PUBLIC_URL, stack.gateway.url))).status).toBe(403);

    const [order] = (await shop.polar.orders.list({ productId: product.id })).result.items;
    await shop.polar.refunds.create({ orderId: order?.id ?? "", reason: "customer_request", amount: 700, revokeBenefits: true });
    expect((await customerSide.customerPortal.downloadables.list(security, {})).result.items).toEqual([]);
    // A link handed out before stops working with the grant.
    expect((await fetch(link.replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" })).status).toBe(404);
  });

  it("lists what each purchase granted, as the customer may see it, and what waits for them", async () => {
    const note = await shop.polar.benefits.create({ type: "custom", description: "Onboarding call", properties: { note: "Book your call at cal.example.com/onboarding" } });
    const key = await shop.polar.benefits.create({ type: "license_keys", description: "Studio licence", properties: { prefix: "STUDIO" } });
    const repository = await shop.polar.benefits.create({ type: "github_repository", description: "Source access", properties: { repositoryOwner: "tollgate-shop", repositoryName: "studio", permission: "pull" } });
    const product = await shop.polar.products.create({ name: "Studio", prices: [{ amountType: "fixed", priceAmount: 4_900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [note.id, key.id, repository.id] } });
    const customerId = await buy(product.id, "studio@example.com");
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };

    const grants = (await customerSide.customerPortal.benefitGrants.list(security, {})).result.items;
    expect(grants.map((grant) => grant.benefit.description).sort()).toEqual(["Onboarding call", "Source access", "Studio licence"]);
    const byType = new Map(grants.map((grant) => [grant.benefit.type, grant]));
    expect(byType.get("custom")).toMatchObject({ isGranted: true, customerId, benefit: { properties: { note: "Book your call at cal.example.com/onboarding" }, organization: { id: shop.organizationId } } });
    const [licence] = (await customerSide.customerPortal.licenseKeys.list(security, {})).result.items;
    expect(byType.get("license_keys")?.properties).toEqual({ licenseKeyId: licence?.id, displayKey: licence?.displayKey });
    // GitHub waits for an account the customer has not connected; the seller's chosen permission is not theirs to see.
    const github = byType.get("github_repository");
    expect(github).toMatchObject({ isGranted: false, error: { type: "account_not_connected" }, benefit: { properties: { repositoryOwner: "tollgate-shop", repositoryName: "studio" } } });
    expect(github?.benefit.properties).not.toHaveProperty("permission");

    expect((await customerSide.customerPortal.benefitGrants.list(security, { typeFilter: "license_keys" })).result.items.map((grant) => grant.benefitId)).toEqual([key.id]);
    const [order] = (await shop.polar.orders.list({ productId: product.id })).result.items;
    expect((await customerSide.customerPortal.benefitGrants.list(security, { orderId: order?.id ?? "" })).result.pagination.totalCount).toBe(3);
    expect((await customerSide.customerPortal.benefitGrants.list(security, { orderId: "order-of-someone-else" })).result.items).toEqual([]);
    expect(await customerSide.customerPortal.benefitGrants.get(security, { id: github?.id ?? "" })).toMatchObject({ id: github?.id, benefitId: repository.id });
    await expect(
      customerSide.customerPortal.benefitGrants.update(security, { id: github?.id ?? "", customerBenefitGrantUpdate: { benefitType: "github_repository", properties: { accountId: "12345" } } }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(customerSide.customerPortal.benefitGrants.update(security, { id: github?.id ?? "", customerBenefitGrantUpdate: { benefitType: "custom" } })).rejects.toMatchObject({ statusCode: 422 });

    await shop.polar.refunds.create({ orderId: order?.id ?? "", reason: "customer_request", amount: 4_900, revokeBenefits: true });
    const afterRefund = (await customerSide.customerPortal.benefitGrants.list(security, { typeFilter: "custom" })).result.items;
    expect(afterRefund).toMatchObject([{ isGranted: false, isRevoked: true }]);

    const stranger = { customerSession: (await shop.polar.customerSessions.create({ customerId: await buy(product.id, "not-studio@example.com") })).token };
    await expect(customerSide.customerPortal.benefitGrants.get(stranger, { id: github?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("lets the customer correct how their invoices are addressed, and tells the seller", async () => {
    const product = await shop.polar.products.create({ name: "Invoice test", prices: [{ amountType: "fixed", priceAmount: 300, priceCurrency: "usd" }] });
    const customerId = await buy(product.id, "billing-details@example.com");
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };

    const updated = await customerSide.customerPortal.customers.update(security, {
      billingName: "Fjord Tools ApS",
      billingAddress: { country: "DK", line1: "Havnegade 1", postalCode: "8000", city: "Aarhus" },
      taxId: "DK12345678",
    });
    expect(updated).toMatchObject({ billingName: "Fjord Tools ApS", billingAddress: { country: "DK", city: "Aarhus", line1: "Havnegade 1" }, taxId: ["DK12345678", "eu_vat"] });
    expect(await customerSide.customerPortal.customers.get(security)).toMatchObject({ billingName: "Fjord Tools ApS", email: "billing-details@example.com" });
    expect(await shop.polar.customers.get({ id: customerId })).toMatchObject({ billingAddress: { city: "Aarhus" }, taxId: ["DK12345678", "eu_vat"] });
    await expect.poll(() => eventTypesAbout(stack, customerId)).toContain("customer.updated");

    // The SDK checks the country itself, so a wrong one is sent as a hand-written client would.
    const refused = await fetch(`${stack.gateway.url}/v1/customer-portal/customers/me`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${security.customerSession}`, "content-type": "application/json" },
      body: JSON.stringify({ billing_address: { country: "Denmark" } }),
    });
    expect(refused.status).toBe(422);
    expect((await customerSide.customerPortal.customers.get(security)).billingAddress).toMatchObject({ city: "Aarhus" });
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

  it("lists the customer's cards, and forgets one unless it is the last a running subscription renews with", async () => {
    const plan = await shop.polar.products.create({ name: "Card plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "usd" }] });
    const customerId = await buy(plan.id, "cards@example.com");
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };
    const cards = async () => (await customerSide.customerPortal.customers.listPaymentMethods(security, {})).result.items.map((method) => (method.type === "card" ? (method as { methodMetadata: { last4: string } }).methodMetadata.last4 : method.type));
    // The card the checkout kept for the renewals is listed.
    expect(await cards()).toEqual(["4242"]);
    const [paidWith] = (await customerSide.customerPortal.customers.listPaymentMethods(security, {})).result.items;

    await expect(customerSide.customerPortal.customers.deletePaymentMethod(security, { id: paidWith?.id ?? "" })).rejects.toMatchObject({ statusCode: 400, error: "PaymentMethodInUseByActiveSubscription" });
    const added = await customerSide.customerPortal.customers.addPaymentMethod(security, { confirmationTokenId: await cardToken(stack, "5555555555554444"), setDefault: false, returnUrl: "https://app.example/billing" });
    expect(await cards()).toEqual(["4444", "4242"]);
    // The seller sees the same cards, through Polar's SDK 1.x.
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const sellerSees = await seller.customers.listPaymentMethods(customerId);
    expect(sellerSees.items.map((method) => ("method_metadata" in method ? [method.method_metadata.last4, method.is_default] : method.type))).toEqual([["4444", false], ["4242", true]]);
    expect(sellerSees.pagination).toEqual({ total_count: 2, max_page: 1 });
    // The customer chooses the new card as their default, as SDK 1.x does it; a card not theirs is refused.
    const addedId = (added as { paymentMethod: { id: string } }).paymentMethod.id;
    const asCustomer = createPolar({ accessToken: security.customerSession, baseUrl: stack.gateway.url });
    expect((await asCustomer.customerPortal.customers.update({ default_payment_method_id: addedId })).default_payment_method_id).toBe(addedId);
    expect((await seller.customers.listPaymentMethods(customerId)).items.map((method) => "is_default" in method && method.is_default)).toEqual([true, false]);
    // The same cards by the seller's own id for the customer; an id of no customer of theirs is a 404.
    await seller.customers.update(customerId, { external_id: "card-holder" });
    expect((await seller.customers.listPaymentMethodsExternal("card-holder")).items.map((method) => method.id)).toEqual((await seller.customers.listPaymentMethods(customerId)).items.map((method) => method.id));
    await expect(seller.customers.listPaymentMethodsExternal("nobody")).rejects.toMatchObject({ statusCode: 404 });
    await expect(asCustomer.customerPortal.customers.update({ default_payment_method_id: "pm_someone_else" })).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["body", "default_payment_method_id"] }] } });

    // Another card is kept now: the subscription moves onto it, and the first card goes.
    await customerSide.customerPortal.customers.deletePaymentMethod(security, { id: paidWith?.id ?? "" });
    expect(await cards()).toEqual(["4444"]);
    const [subscription] = (await shop.polar.subscriptions.list({ customerId })).result.items;
    const renewsWith = await stack.billing.context.db("subscriptions").where({ id: subscription?.id ?? "" }).first<{ payment_method_id: string }>("payment_method_id");
    expect(renewsWith?.payment_method_id).toBe((added as { paymentMethod: { id: string } }).paymentMethod.id);
    await expect(customerSide.customerPortal.customers.deletePaymentMethod(security, { id: paidWith?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
    const stranger = { customerSession: (await shop.polar.customerSessions.create({ customerId: await buy(plan.id, "not-cards@example.com") })).token };
    await expect(customerSide.customerPortal.customers.deletePaymentMethod(stranger, { id: (added as { paymentMethod: { id: string } }).paymentMethod.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("keeps a card for a paused subscription to resume with: its only card stays, and a new default card moves onto it", async () => {
    const seller = await stack.seller();
    const { subscription } = await subscribe(stack, seller, "4242424242424242", "resting@example.com");
    await createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url }).subscriptions.update(subscription.id, { pause_at_period_end: true });
    await advanceDays(stack, seller, 35);
    const security = { customerSession: (await seller.polar.customerSessions.create({ customerId: subscription.customerId })).token };
    const [only] = (await customerSide.customerPortal.customers.listPaymentMethods(security, {})).result.items;
    expect((await seller.polar.subscriptions.get({ id: subscription.id })).status).toBe("paused");
    await expect(customerSide.customerPortal.customers.deletePaymentMethod(security, { id: only?.id ?? "" })).rejects.toMatchObject({ statusCode: 400, error: "PaymentMethodInUseByActiveSubscription" });
    const added = await customerSide.customerPortal.customers.addPaymentMethod(security, { confirmationTokenId: await cardToken(stack, "5555555555554444"), setDefault: true, returnUrl: "https://app.example/billing" });
    const renewsWith = await stack.billing.context.db("subscriptions").where({ id: subscription.id }).first<{ payment_method_id: string }>("payment_method_id");
    expect(renewsWith?.payment_method_id).toBe((added as { paymentMethod: { id: string } }).paymentMethod.id);
  });

  it("opens a customer session by the seller's own id for the customer; another seller's customer, or an id of nobody, is not found", async () => {
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const customer = await seller.customers.create({ email: "by-external@example.com", external_id: "crm-42" });
    const session = await seller.customerSessions.create({ external_customer_id: "crm-42" });
    expect(session.customer_id).toBe(customer.id);
    const rival = await stack.seller();
    const theirs = await rival.polar.customers.create({ email: "rivals@example.com", externalId: "crm-43" });
    await expect(seller.customerSessions.create({ customer_id: theirs.id })).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["body", "customer_id"], input: theirs.id }] } });
    await expect(seller.customerSessions.create({ external_customer_id: "crm-43" })).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["body", "external_customer_id"], input: "crm-43" }] } });
  });
});
