import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { startBillingStack, type BillingStack, type Seller } from "../../../test/stacks/billing.js";
import { advanceDays, cardToken, ordersOf, subscribe, subscribeTo } from "../../../test/stacks/purchases.js";
import { startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { partsOf, sha256, uploadParts } from "../../../test/stacks/uploads.js";

let smtp: SmtpCatcher;
let stack: BillingStack;
let shop: Seller;
/** The seller's name and slug, as its customers see them. */
let seller: { name: string; slug: string };
const customerSide = () => new Polar({ serverURL: stack.gateway.url });

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  stack = await startBillingStack({}, {}, { SMTP_URL: smtp.url });
  shop = await stack.seller();
  seller = await shop.polar.organizations.update({ id: shop.organizationId, organizationUpdate: { email: "help@shop.example" } });
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

/** Pays for `productId` with the sandbox's good card as `email`, on a checkout in `locale`; the paid checkout. */
async function buy(productId: string, email: string, locale?: string) {
  const checkout = await shop.polar.checkouts.create({ products: [productId], ...(locale ? { locale } : {}) });
  await customerSide().checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "DE" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  return checkout;
}

/** The seller's mail switches as Polar's SDK sends them (every one named), all on but `off`. */
const mailSwitches = (off: "orderConfirmation" | null) => {
  const names = ["orderConfirmation", "subscriptionCancellation", "subscriptionConfirmation", "subscriptionCycled", "subscriptionCycledAfterTrial", "subscriptionPastDue", "subscriptionRenewalReminder", "subscriptionRevoked", "subscriptionTrialConversionReminder", "subscriptionUncanceled", "subscriptionUpdated"] as const;
  return Object.fromEntries(names.map((name) => [name, name !== off])) as Record<(typeof names)[number], boolean>;
};

/** A raw call to the portal's sign-in, which Polar's SDKs leave to its own web app. */
const signIn = (path: "request" | "authenticate", body: object) =>
  fetch(`${stack.gateway.url}/v1/customer-portal/customer-session/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("billing's mail to customers", () => {
  it("sends a receipt for a purchase, in the checkout's language, under the seller's name and answered to the seller", async () => {
    const product = await shop.polar.products.create({ name: "Field guide", prices: [{ amountType: "fixed", priceAmount: 2_950, priceCurrency: "usd" }] });
    await buy(product.id, "reader@example.com", "de");
    const order = (await shop.polar.orders.list({ productId: product.id })).result.items[0];

    const receipt = await smtp.next("reader@example.com");
    expect(receipt.subject).toBe(`Ihre Quittung von ${seller.name}`);
    expect(receipt.from?.value[0]).toMatchObject({ name: seller.name });
    expect(receipt.replyTo?.value[0]?.address).toBe("help@shop.example");
    expect(receipt.text).toMatch(/Gesamt: 29,50\s\$/);
    expect(receipt.text).toContain("Field guide");
    expect(receipt.text).toContain(`Rechnungsnummer: ${order?.invoiceNumber}`);
    expect(receipt.text).toContain(`${PUBLIC_URL}/${seller.slug}/portal`);
    expect(receipt.html).toContain("<table");
  });

  it("hands over what a purchase delivered with its receipt: the license key in full, the files to download from the portal", async () => {
    const bytes = Buffer.from("the whole atlas, page by page");
    const parts = partsOf(bytes, 1_000);
    const created = await shop.polar.files.create({ service: "downloadable", name: "atlas.pdf", mimeType: "application/pdf", size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    await shop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: await uploadParts(stack, created.upload, parts) } });
    const downloads = await shop.polar.benefits.create({ type: "downloadables", description: "The atlas files", properties: { files: [created.id] } });
    const licenses = await shop.polar.benefits.create({ type: "license_keys", description: "Atlas desktop licence", properties: { prefix: "ATLAS" } });
    const product = await shop.polar.products.create({ name: "Atlas desktop", prices: [{ amountType: "fixed", priceAmount: 4_900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [licenses.id, downloads.id] } });
    await buy(product.id, "cartographer@example.com");

    const receipt = await smtp.next("cartographer@example.com");
    const [key] = (await shop.polar.licenseKeys.list({ benefitId: licenses.id })).result.items;
    expect(key?.key).toMatch(/^ATLAS-/);
    expect(receipt.text).toContain(`License key for Atlas desktop licence\n${key?.key ?? "?"}`);
    expect(receipt.text).toContain("Your downloads of The atlas files (in your portal)\natlas.pdf");
    expect(receipt.html).toContain(key?.key ?? "?");
  });

  it("sends no receipt of a kind the seller turned off, and receipts again once it is back on", async () => {
    const product = await shop.polar.products.create({ name: "Sticker", prices: [{ amountType: "fixed", priceAmount: 300, priceCurrency: "usd" }] });
    await shop.polar.organizations.update({ id: shop.organizationId, organizationUpdate: { customerEmailSettings: mailSwitches("orderConfirmation") } });
    await buy(product.id, "quiet@example.com");
    // Mails are asked for in the order of their orders, and the switches are read when a mail is asked
    // for: once a later receipt under another switch has come, the quiet buyer's was decided while off.
    const plan = await shop.polar.products.create({ name: "Sticker club", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 300, priceCurrency: "usd" }] });
    await buy(plan.id, "member@example.com");
    await smtp.next("member@example.com");
    await shop.polar.organizations.update({ id: shop.organizationId, organizationUpdate: { customerEmailSettings: mailSwitches(null) } });
    await buy(product.id, "loud@example.com");

    expect((await smtp.next("loud@example.com")).subject).toBe(`Your receipt from ${seller.name}`);
    expect(smtp.received("quiet@example.com")).toEqual([]);
  });
});

describe("signing in to the customer portal with a code by e-mail", () => {
  it("mails a code to a customer, which opens their portal once", async () => {
    const product = await shop.polar.products.create({ name: "Notebook", prices: [{ amountType: "fixed", priceAmount: 1_200, priceCurrency: "usd" }] });
    await buy(product.id, "returning@example.com");
    await smtp.next("returning@example.com"); // the receipt

    expect((await signIn("request", { email: "Returning@Example.com", organization_id: shop.organizationId })).status).toBe(202);
    const mail = await smtp.next("returning@example.com");
    expect(mail.subject).toBe(`Your sign-in code for ${seller.name}`);
    const code = /^[A-HJ-NP-Z2-9]{8}$/m.exec(mail.text ?? "")?.[0];
    expect(code, mail.text).toBeDefined();

    const wrong = await signIn("authenticate", { code: "AAAAAAAA" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "CustomerSessionCodeInvalidOrExpired", detail: "This customer session code is invalid or has expired." });

    // Typed as a reader might: in lower case, split in two.
    const typed = `${code?.slice(0, 4).toLowerCase()} ${code?.slice(4)}`;
    const opened = await signIn("authenticate", { code: typed });
    expect(opened.status).toBe(200);
    const { token } = (await opened.json()) as { token: string };
    expect(token).toMatch(/^polar_cst_/);

    const security = { customerSession: token };
    const me = await customerSide().customerPortal.customers.get(security);
    expect(me.email).toBe("returning@example.com");
    expect((await customerSide().customerPortal.orders.list(security, {})).result.items.map((order) => order.product?.name)).toEqual(["Notebook"]);
    expect(await customerSide().customerPortal.customerSession.getAuthenticatedUser(security)).toMatchObject({ type: "customer", email: "returning@example.com", customerId: me.id });
    const session = await customerSide().customerPortal.customerSession.introspect(security);
    expect(session.returnUrl).toBeNull();
    expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    expect((await signIn("authenticate", { code })).status).toBe(401);
  });

  it("answers alike whether or not the customer or the seller exists, and mails only a customer", async () => {
    expect((await signIn("request", { email: "stranger@example.com", organization_id: shop.organizationId })).status).toBe(202);
    expect((await signIn("request", { email: "stranger@example.com", organization_id: "no-such-organization" })).status).toBe(202);
    expect((await signIn("request", { email: "not an address", organization_id: shop.organizationId })).status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(smtp.received("stranger@example.com")).toEqual([]);
  });

  it("signs a team's member in as that member, and asks which team when the address is a member of two", async () => {
    const teams = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const rowing = await teams.customers.create({ type: "team", email: "captain@rowing.example", name: "Rowing club" });
    const chess = await teams.customers.create({ type: "team", email: "captain@chess.example", name: "Chess club" });
    await teams.customers.members.create(rowing.id, { email: "oar@example.com", name: "Oar" });
    const codeIn = async (to: string) => /^[A-HJ-NP-Z2-9]{8}$/m.exec((await smtp.next(to)).text ?? "")?.[0];
    const userOf = async (code: string | undefined) => {
      const { token } = (await (await signIn("authenticate", { code })).json()) as { token: string };
      return customerSide().customerPortal.customerSession.getAuthenticatedUser({ customerSession: token });
    };

    expect((await signIn("request", { email: "Oar@Example.com", organization_id: shop.organizationId })).status).toBe(202);
    expect(await userOf(await codeIn("oar@example.com"))).toMatchObject({ type: "member", role: "member", email: "oar@example.com", customerId: rowing.id });

    await teams.customers.members.create(chess.id, { email: "oar@example.com" });
    const ambiguous = await signIn("request", { email: "oar@example.com", organization_id: shop.organizationId });
    expect(ambiguous.status).toBe(409);
    expect(await ambiguous.json()).toEqual({
      error: "customer_selection_required",
      detail: "Multiple customers found for this email. Please select one.",
      customers: expect.arrayContaining([
        { id: rowing.id, name: "Rowing club" },
        { id: chess.id, name: "Chess club" },
      ]) as unknown,
    });
    expect((await signIn("request", { email: "oar@example.com", organization_id: shop.organizationId, customer_id: chess.id })).status).toBe(202);
    expect(await userOf(await codeIn("oar@example.com"))).toMatchObject({ type: "member", customerId: chess.id });
    // The team's owner shares the team's address and signs in as the whole team, as before.
    expect((await signIn("request", { email: "captain@rowing.example", organization_id: shop.organizationId })).status).toBe(202);
    expect(await userOf(await codeIn("captain@rowing.example"))).toMatchObject({ type: "customer", customerId: rowing.id });
  });

  it("keeps only the latest code: asking again makes the earlier one fail", async () => {
    const product = await shop.polar.products.create({ name: "Pencil", prices: [{ amountType: "fixed", priceAmount: 200, priceCurrency: "usd" }] });
    await buy(product.id, "twice@example.com");
    await smtp.next("twice@example.com"); // the receipt
    const codeOf = async () => /^[A-HJ-NP-Z2-9]{8}$/m.exec((await smtp.next("twice@example.com")).text ?? "")?.[0];
    await signIn("request", { email: "twice@example.com", organization_id: shop.organizationId });
    const first = await codeOf();
    await signIn("request", { email: "twice@example.com", organization_id: shop.organizationId });
    const second = await codeOf();
    expect((await signIn("authenticate", { code: first })).status).toBe(401);
    expect((await signIn("authenticate", { code: second })).status).toBe(200);
  });
});

describe("billing's notices to subscribers", () => {
  it("tells a subscriber their subscription is canceled until its end, then resumed, then ended", async () => {
    const { subscription } = await subscribe(stack, shop, "4242424242424242", "subscriber@example.com");
    expect((await smtp.next("subscriber@example.com")).subject).toBe(`Your receipt from ${seller.name}`);

    const canceled = await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    const cancelMail = await smtp.next("subscriber@example.com");
    expect(cancelMail.subject).toBe("Your subscription to Pro subscriber@example.com is canceled");
    const endsOn = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(canceled.endsAt ?? canceled.currentPeriodEnd ?? new Date(0));
    expect(cancelMail.text).toContain(`It stays yours until ${endsOn}`);

    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { cancelAtPeriodEnd: false } });
    const resumed = await smtp.next("subscriber@example.com");
    expect(resumed.subject).toBe("Your subscription to Pro subscriber@example.com continues");
    expect(resumed.text).toContain("it renews as before, for $10.00");

    await shop.polar.subscriptions.revoke({ id: subscription.id });
    expect((await smtp.next("subscriber@example.com")).subject).toBe("Your subscription to Pro subscriber@example.com has ended");
  });

  it("tells a subscriber that a renewal was not paid, then each declined retry with the next one's date, and sends the receipt, not another warning, once a new card pays it", async () => {
    const dunning = await stack.seller();
    const { subscription } = await subscribe(stack, dunning, "4000000000000341", "declined@example.com");
    await smtp.next("declined@example.com"); // the receipt of the first period
    // A month is at most 31 days: the renewal has failed, its first retry (two days on) not yet come.
    await advanceDays(stack, dunning, 31);
    const warning = await smtp.next("declined@example.com");
    expect(warning.subject).toBe("Your payment for Pro declined@example.com did not go through");
    expect(warning.text).toContain("We could not charge your card $10.00");
    expect(warning.text).toMatch(/Update your card: http:\/\/\S+\/portal/);
    await advanceDays(stack, dunning, 2);
    const retried = await smtp.next("declined@example.com");
    expect(retried.subject).toBe("Your payment for Pro declined@example.com failed again");
    const pastDue = await dunning.polar.subscriptions.get({ id: subscription.id });
    const nextTry = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date((pastDue.currentPeriodStart.getTime()) + 7 * 86_400_000));
    expect(retried.text).toContain(`We will try again on ${nextTry}.`);

    const { token } = await dunning.polar.customerSessions.create({ customerId: subscription.customerId });
    await customerSide().customerPortal.customers.addPaymentMethod({ customerSession: token }, { confirmationTokenId: await cardToken(stack, "4242424242424242"), setDefault: true, returnUrl: "https://app.example/billing" });
    await expect.poll(async () => (await ordersOf(dunning, subscription.id)).map((order) => order.status), { timeout: 15_000 }).toEqual(["paid", "paid"]);
    expect((await smtp.next("declined@example.com")).subject).toMatch(/^Your receipt from /);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const subjects = smtp.received("declined@example.com").map((mail) => mail.subject ?? "");
    expect(subjects.filter((subject) => subject.includes("did not go through"))).toHaveLength(1);
    expect(subjects.filter((subject) => subject.includes("failed again"))).toHaveLength(1);
    // Each charge says what made it, as SDK 1.x reads Polar's payments.
    const pinned = createPolar({ accessToken: dunning.token, baseUrl: stack.gateway.url });
    const payments = await pinned.payments.list({ customer_id: subscription.customerId, sorting: ["created_at"] });
    expect(payments.items.map((payment) => [payment.trigger, payment.status])).toEqual([
      ["purchase", "succeeded"],
      ["subscription_cycle", "failed"],
      ["retry_dunning", "failed"],
      // Tried at once because the customer gave a new card, not on the dunning schedule.
      ["retry_payment_method_update", "succeeded"],
    ]);
  });

  it("tells a subscriber their subscription is paused and has resumed, unless the seller switched those mails off", async () => {
    const pausing = await stack.seller();
    const { subscription } = await subscribe(stack, pausing, "4242424242424242", "pausing@example.com");
    await smtp.next("pausing@example.com"); // the receipt of the first period
    const pinned = createPolar({ accessToken: pausing.token, baseUrl: stack.gateway.url });
    await pinned.subscriptions.update(subscription.id, { pause_at_period_end: true });
    await advanceDays(stack, pausing, 32);
    const paused = await smtp.next("pausing@example.com");
    expect(paused.subject).toBe("Your subscription to Pro pausing@example.com is paused");
    expect(paused.text).toContain("nothing is charged");
    await pinned.subscriptions.update(subscription.id, { resume: true });
    // The renewal's receipt and the notice that it resumed, in whichever order the mailer sends them.
    await expect.poll(() => smtp.received("pausing@example.com").map((mail) => mail.subject ?? ""), { timeout: 15_000 }).toEqual(
      expect.arrayContaining(["Your subscription to Pro pausing@example.com has resumed", expect.stringMatching(/^Your receipt from /)]),
    );
    expect(smtp.received("pausing@example.com").find((mail) => mail.subject?.endsWith("has resumed"))?.text).toContain("renews as before, for $10.00");

    // Switched off, and the card-expiry switch shown off, since no such reminder is sent.
    const current = (await pinned.organizations.get(pausing.organizationId)).customer_email_settings;
    expect(current).toMatchObject({ subscription_paused: true, subscription_resumed: true, payment_method_expiration_reminder: false });
    const settings = await pinned.organizations.update(pausing.organizationId, { customer_email_settings: { ...current, subscription_paused: false, subscription_resumed: false } });
    expect(settings.customer_email_settings).toMatchObject({ subscription_paused: false, subscription_resumed: false, payment_method_expiration_reminder: false, order_confirmation: true });
    await expect(pinned.organizations.update(pausing.organizationId, { customer_email_settings: { ...current, payment_method_expiration_reminder: true } })).rejects.toMatchObject({ statusCode: 422 });
    await pinned.subscriptions.update(subscription.id, { pause_at_period_end: true });
    await advanceDays(stack, pausing, 32);
    expect((await pinned.subscriptions.get(subscription.id)).status).toBe("paused");
    await pinned.subscriptions.update(subscription.id, { resume: true });
    await expect.poll(() => smtp.received("pausing@example.com").filter((mail) => mail.subject?.startsWith("Your receipt from ")).length, { timeout: 15_000 }).toBe(3);
    expect(smtp.received("pausing@example.com").filter((mail) => /is paused|has resumed/.test(mail.subject ?? ""))).toHaveLength(2);
  });

  it("tells a subscriber of a plan change that charged nothing now; one that charged gets its receipt instead", async () => {
    const { subscription } = await subscribe(stack, shop, "4242424242424242", "upgrader@example.com");
    await smtp.next("upgrader@example.com"); // the receipt of the first period
    const team = await shop.polar.products.create({ name: "Team plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 2_500, priceCurrency: "usd" }] });
    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: team.id, prorationBehavior: "prorate" } });
    const changed = await smtp.next("upgrader@example.com");
    expect(changed.subject).toBe("Your subscription is now Team plan");
    expect(changed.text).toContain(`Your subscription with ${seller.name} is now Team plan, at $25.00 a renewal. Nothing is charged now`);

    const studio = await shop.polar.products.create({ name: "Studio plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 4_000, priceCurrency: "usd" }] });
    await shop.polar.subscriptions.update({ id: subscription.id, subscriptionUpdate: { productId: studio.id, prorationBehavior: "invoice" } });
    expect((await smtp.next("upgrader@example.com")).subject).toBe(`Your receipt from ${seller.name}`);
  });

  it("tells a buyer of a refund once it went through", async () => {
    const product = await shop.polar.products.create({ name: "Lamp", prices: [{ amountType: "fixed", priceAmount: 4_000, priceCurrency: "usd" }] });
    await buy(product.id, "refunded@example.com");
    await smtp.next("refunded@example.com"); // the receipt
    const [order] = (await shop.polar.orders.list({ productId: product.id })).result.items;
    await shop.polar.refunds.create({ orderId: order?.id ?? "", reason: "customer_request", amount: 1_500 });
    const notice = await smtp.next("refunded@example.com");
    expect(notice.subject).toBe(`${seller.name} refunded $15.00`);
    expect(notice.text).toContain(`of your order ${order?.invoiceNumber}`);
  });
  it("reminds a customer three days before their trial ends and a week before their yearly plan renews, once each", async () => {
    const reminding = await stack.seller();
    const named = await reminding.polar.organizations.update({ id: reminding.organizationId, organizationUpdate: { email: "help@reminders.example" } });
    /** The next mail to `to` whose subject is `subject`, passing over the receipts before it. */
    const nextWithSubject = async (to: string, subject: string) => {
      for (let read = 0; read < 4; read++) {
        const mail = await smtp.next(to);
        if (mail.subject === subject) return mail;
      }
      throw new Error(`no mail "${subject}" to ${to}`);
    };
    const { subscription: trial } = await subscribe(stack, reminding, "4242424242424242", "trialist@example.com", { trialDays: 14 });
    await advanceDays(stack, reminding, 11);
    const reminder = await nextWithSubject("trialist@example.com", "Your free trial of Pro trialist@example.com ends soon");
    const endsOn = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(trial.currentPeriodEnd ?? new Date(0));
    expect(reminder.text).toContain(`ends on ${endsOn}. Then your card is charged $10.00, unless you cancel before.`);
    expect(reminder.replyTo?.value[0]?.address).toBe("help@reminders.example");
    expect(reminder.from?.value[0]).toMatchObject({ name: named.name });
    // A day later nothing more is said; the next mail is the receipt of the first charge.
    await advanceDays(stack, reminding, 1);
    await advanceDays(stack, reminding, 3);
    expect((await smtp.next("trialist@example.com")).subject).toBe(`Your receipt from ${named.name}`);

    const yearly = await reminding.polar.products.create({ name: "Almanac", recurringInterval: "year", prices: [{ amountType: "fixed", priceAmount: 12_000, priceCurrency: "usd" }] });
    await subscribeTo(stack, reminding, yearly.id, "4242424242424242", "yearly@example.com");
    expect((await smtp.next("yearly@example.com")).subject).toBe(`Your receipt from ${named.name}`);
    // Another subscriber has a quarter off for good: their reminder says what they will be charged.
    const { subscription: discounted } = await subscribeTo(stack, reminding, yearly.id, "4242424242424242", "loyal@example.com");
    expect((await smtp.next("loyal@example.com")).subject).toBe(`Your receipt from ${named.name}`);
    const quarterOff = await reminding.polar.discounts.create({ name: "Loyalty", type: "percentage", basisPoints: 2500, duration: "forever", organizationId: reminding.organizationId });
    await reminding.polar.subscriptions.update({ id: discounted.id, subscriptionUpdate: { discountId: quarterOff.id } });
    await advanceDays(stack, reminding, 359);
    const renewal = await nextWithSubject("yearly@example.com", "Your subscription to Almanac renews soon");
    expect(renewal.text).toContain("for $120.00. To stop it, cancel before then.");
    const discountedRenewal = await nextWithSubject("loyal@example.com", "Your subscription to Almanac renews soon");
    expect(discountedRenewal.text).toContain("for $90.00. To stop it, cancel before then.");
  });
});

