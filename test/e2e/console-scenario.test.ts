import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Page } from "playwright-core";
import { WebhookReceiver } from "../stacks/receiver.js";
import { chooseCountry, newPerson, nextYearExpiry, openShop, screenshotFailure, signUp, site, startBrowsingWith, stopBrowsing, type Say } from "./browser.js";
import { screenChecks } from "./text-checks.js";

/**
 * A seller's first sale, all of it in the browser and in French: the console makes a product with a
 * license key and a required question, a discount code and a checkout link; a buyer pays the link
 * with the code and 4242; the seller sees the order, the customer, the key, the webhook delivery and
 * the dashboard, then refunds the order in its dialog.
 */

// The seller's endpoint is a server on this machine, which the dispatcher refuses unless told otherwise.
beforeAll(() => startBrowsingWith({ WEBHOOKS_ALLOW_PRIVATE_URLS: "true" }), 240_000);
afterAll(stopBrowsing);

/** Polar's event names (order.paid), shown as code: some are also ids of messages, which the check would take them for. */
const EVENT_NAME = /^[a-z_]+\.[a-z_]+$/;
const { checkConsole, checkPhone } = screenChecks("fr", "console-scenario", EVENT_NAME);

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/** Intl writes "15 %" and "34,00 $US" with no-break spaces; the page and the test agree once they are plain. */
const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");
const dollars = (amount: number) => plain(new Intl.NumberFormat("fr", { style: "currency", currency: "USD" }).format(amount));

/** Opens a section from the console's navigation and waits for its heading. */
async function openSection(page: Page, say: Say, nav: string, title: string): Promise<void> {
  await page.getByRole("navigation", { name: say("seller.space.navigation") }).getByRole("link", { name: say(nav) }).click();
  await page.getByRole("heading", { name: say(title), level: 1 }).waitFor();
}

/**
 * Opens a section's form for a new thing and waits for its heading: the list behind it may have a
 * filter with the same label as the form's first field ("Type d'avantage" in French).
 */
async function openNew(page: Page, say: Say, create: string, title: string): Promise<void> {
  await page.getByRole("link", { name: say(create) }).first().click();
  await page.getByRole("heading", { name: say(title), level: 1 }).waitFor();
}

describe("a seller's first sale, from the console to a refund", () => {
  it("builds a product with a license key and a required question, sells it through a checkout link with a discount code, sees the order, customer, key, delivery and dashboard, and refunds it, in French", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, context, say } = await newPerson({ locale: "fr", viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site });
    await signUp(page, "Camille Vendeuse", `vente-${stamp}@example.com`);
    const slug = `boutique-${stamp}`;
    const { organizationId, api } = await openShop(page, "Boutique Camille", slug, ["checkout_links:read"]);

    // An endpoint for the sale's events; the form first says what is missing.
    await page.goto(`/${slug}/webhooks`);
    await page.getByText(say("seller.webhooks.none")).waitFor();
    await page.getByRole("button", { name: say("seller.webhooks.create") }).first().click();
    await page.getByRole("button", { name: say("seller.webhooks.createSave") }).click();
    await page.getByText(say("forms.webhook.url")).waitFor();
    await page.getByText(say("forms.webhook.events")).waitFor();
    await checkConsole(page, "webhook-new-refused");
    receiver.answer = () => ({ status: 200, body: "merci" });
    await page.getByLabel(say("seller.webhooks.form.url")).fill(receiver.url);
    await page.getByLabel("order.paid").check();
    await page.getByLabel("order.refunded").check();
    // The newest API version is chosen until the seller picks an older one their code reads.
    const apiVersion = page.getByLabel(say("seller.webhooks.form.apiVersion"));
    expect(await apiVersion.inputValue()).toBe("2027-01");
    await apiVersion.selectOption("2026-10");
    await page.getByRole("button", { name: say("seller.webhooks.createSave") }).click();
    await page.getByRole("heading", { name: receiver.url }).waitFor();
    await page.getByRole("button", { name: say("seller.webhook.secret.reveal") }).click();
    const secret = (await page.locator("code.secret").textContent()) ?? "";
    expect(secret).toMatch(/^polar_whs_/);
    receiver.secrets = [secret];

    // A license key's settings, checked before sending.
    await openSection(page, say, "seller.space.benefits", "seller.benefits.title");
    await page.getByText(say("seller.benefits.none")).waitFor();
    await openNew(page, say, "seller.benefits.create", "seller.benefit.newTitle");
    await page.getByLabel(say("seller.benefit.type")).selectOption("license_keys");
    await page.getByLabel(say("seller.benefit.description"), { exact: true }).fill("Clé Atlas");
    await page.getByLabel(say("seller.benefit.prefix"), { exact: true }).fill("ATLAS");
    await page.getByLabel(say("seller.benefit.expires")).check();
    await page.getByLabel(say("seller.benefit.ttl")).fill("0");
    await page.getByLabel(say("seller.benefit.activations")).check();
    await page.getByRole("button", { name: say("seller.benefit.create") }).click();
    await page.getByText(say("forms.number.whole", { min: 1, max: 9999 })).waitFor();
    await checkConsole(page, "new-license-key-refused");
    await page.getByLabel(say("seller.benefit.ttl")).fill("2");
    await page.getByLabel(say("seller.benefit.timeframe")).selectOption("year");
    await page.getByRole("button", { name: say("seller.benefit.create") }).click();
    const benefit = page.getByRole("row", { name: /Clé Atlas/ });
    await benefit.waitFor();
    expect(await benefit.textContent()).toContain(say("seller.benefits.type.licenseKeys"));

    // A question with two options; its slug follows its name, and an option needs its label.
    await openSection(page, say, "seller.space.customFields", "seller.customFields.title");
    await openNew(page, say, "seller.customFields.create", "seller.customField.newTitle");
    await page.getByLabel(say("seller.customField.type")).selectOption("select");
    await page.getByLabel(say("seller.customField.name"), { exact: true }).fill("Taille du tee-shirt");
    expect(await page.getByLabel(say("seller.customField.slug"), { exact: true }).inputValue()).toBe("taille_du_tee_shirt");
    await page.getByLabel(say("seller.customField.optionValue", { number: 1 })).fill("s");
    await page.getByLabel(say("seller.customField.optionLabel", { number: 1 })).fill("Petit");
    await page.getByRole("button", { name: say("seller.customField.addOption") }).click();
    await page.getByLabel(say("seller.customField.optionValue", { number: 2 })).fill("l");
    await page.getByRole("button", { name: say("seller.customField.create") }).click();
    await page.getByText(say("forms.customField.optionLabel")).waitFor();
    await page.getByLabel(say("seller.customField.optionLabel", { number: 2 })).fill("Grand");
    await page.getByRole("button", { name: say("seller.customField.create") }).click();
    const field = page.getByRole("row", { name: /Taille du tee-shirt/ });
    await field.waitFor();
    expect(await field.textContent()).toContain(say("seller.customFields.type.select"));
    await checkConsole(page, "custom-fields");

    // The product: 40 dollars once, with the key and the question, which the buyer must answer.
    await openSection(page, say, "seller.space.products", "seller.products.title");
    await openNew(page, say, "seller.products.create", "seller.newProduct.title");
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Atlas Pro");
    await page.getByLabel(say("seller.productForm.cycle")).selectOption({ label: say("seller.productForm.cycle.once") });
    await page.getByLabel(say("seller.productForm.amount")).fill("40");
    await page.getByLabel("Taille du tee-shirt", { exact: true }).check();
    await page.getByLabel(say("seller.productForm.fieldRequired", { name: "Taille du tee-shirt" })).check();
    await page.getByLabel("Clé Atlas").check();
    await checkConsole(page, "new-product");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();
    await expect.poll(async () => plain(await page.getByRole("row", { name: /Atlas Pro/ }).textContent())).toContain(dollars(40));

    // A code worth 15 % off that product, once.
    await openSection(page, say, "seller.space.discounts", "seller.discounts.title");
    await openNew(page, say, "seller.discounts.create", "seller.discount.newTitle");
    await page.getByLabel(say("seller.discount.name"), { exact: true }).fill("Bienvenue");
    await page.getByLabel(say("seller.discount.code"), { exact: true }).fill("BIENVENUE15");
    await page.getByLabel(say("seller.discount.percent")).fill("15");
    await page.getByLabel(say("seller.discount.duration")).selectOption("once");
    await page.getByLabel("Atlas Pro").check();
    await page.getByRole("button", { name: say("seller.discount.create") }).click();
    const discount = page.getByRole("row", { name: /Bienvenue/ });
    await discount.waitFor();
    expect(plain(await discount.textContent())).toContain(plain(`${say("seller.discounts.terms.percentage", { share: 0.15 })}, ${say("seller.discounts.terms.once")}`));

    // A link to the product: its address copied as the API gives it, and its QR code.
    await openSection(page, say, "seller.space.checkoutLinks", "seller.checkoutLinks.title");
    await page.getByRole("link", { name: say("seller.checkoutLinks.create") }).first().click();
    await page.getByRole("button", { name: say("seller.checkoutLink.create") }).click();
    await page.getByText(say("forms.checkoutLink.products")).waitFor();
    await page.getByLabel("Atlas Pro").check();
    await page.getByRole("button", { name: say("seller.checkoutLink.create") }).click();
    const link = page.getByRole("row", { name: /Atlas Pro/ });
    await link.waitFor();
    const { items } = await api<{ items: { url: string }[] }>(`/v1/checkout-links/?organization_id=${organizationId}`);
    await link.getByRole("button", { name: say("seller.checkoutLinks.copy") }).click();
    await link.getByText(say("ui.copy.copied")).waitFor();
    // A script, as text-checks.ts writes them: the test's own types know no DOM.
    const copied = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(copied).toBe(items[0]!.url);
    await link.getByText(say("seller.checkoutLinks.showQr")).click();
    await link.getByRole("img", { name: say("seller.checkoutLinks.qrLabel", { url: copied }) }).waitFor();
    await checkConsole(page, "checkout-links");
    await checkPhone(page, "checkout-links");

    // The buyer follows the link: the question must be answered, a wrong code is refused, the right one takes 15 % off.
    const buyer = await newPerson({ locale: "fr" });
    const email = `lea-${stamp}@example.com`;
    await buyer.page.goto(new URL(copied).pathname);
    const pay = (amount: number) => buyer.page.getByRole("button", { name: buyer.say("checkout.pay", { amount: dollars(amount) }) });
    await pay(40).waitFor();
    await buyer.page.getByLabel(buyer.say("checkout.email")).fill(email);
    await chooseCountry(buyer.page, "FR");
    await buyer.page.getByLabel(buyer.say("checkout.cardNumber")).fill("4242 4242 4242 4242");
    await buyer.page.getByLabel(buyer.say("checkout.expiry")).fill(nextYearExpiry());
    await buyer.page.getByLabel(buyer.say("checkout.cvc")).fill("123");
    await pay(40).click();
    await buyer.page.getByText(buyer.say("forms.answer.missing")).waitFor();
    const code = buyer.page.getByLabel(buyer.say("checkout.discountCode"));
    await code.fill("BIENVENUE");
    await buyer.page.getByRole("button", { name: buyer.say("checkout.discountCode.apply") }).click();
    await buyer.page.getByText(buyer.say("checkout.discountCode.unknown")).waitFor();
    await checkConsole(buyer.page, "checkout-refusals");
    await code.fill("BIENVENUE15");
    await buyer.page.getByRole("button", { name: buyer.say("checkout.discountCode.apply") }).click();
    await buyer.page.getByText(buyer.say("checkout.discountCode.applied", { code: "BIENVENUE15" })).waitFor();
    await buyer.page.getByLabel("Taille du tee-shirt").selectOption({ label: "Grand" });
    await checkConsole(buyer.page, "checkout");
    await pay(34).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
    await buyer.context.close();

    // The sale, told to the endpoint, signed with the secret the console showed.
    const [paid] = await receiver.waitFor(1, (request) => request.type === "order.paid");
    expect(paid?.headers["webhook-api-version"]).toBe("2026-10");
    expect(paid?.verified).toBe(true);

    // The order: paid, 34 dollars, the buyer's answer kept; its customer has the key.
    await openSection(page, say, "seller.space.orders", "seller.orders.title");
    const orderRow = page.getByRole("row", { name: /Atlas Pro/ });
    await expect.poll(async () => plain(await orderRow.textContent())).toContain(dollars(34));
    await orderRow.getByRole("link").first().click();
    await page.getByText(say("seller.orders.reason.purchase")).waitFor();
    await page.getByRole("heading", { name: say("seller.order.answers") }).waitFor();
    await page.locator(".facts-row", { hasText: "Taille du tee-shirt" }).getByText("Grand", { exact: true }).waitFor();
    await checkConsole(page, "order");
    await page.getByRole("link", { name: new RegExp(email) }).click();
    await page.getByRole("heading", { name: email, level: 1 }).waitFor();
    await page.getByText(/^Clé Atlas/).waitFor();
    await checkConsole(page, "customer");

    await openSection(page, say, "seller.space.licenseKeys", "seller.licenseKeys.title");
    const key = page.getByRole("row", { name: new RegExp(email) });
    await key.waitFor();
    // Shown as Polar's display_key: its last characters only.
    expect(await key.textContent()).toMatch(/\*{4}-[0-9A-F]{6}/);
    await checkConsole(page, "license-keys");

    // The endpoint's log has the delivery with the endpoint's answer.
    await openSection(page, say, "seller.space.webhooks", "seller.webhooks.title");
    await page.getByRole("link", { name: receiver.url }).click();
    const delivery = page.getByRole("row", { name: new RegExp(say("seller.webhook.deliveries.succeeded", { code: "200" }).replace(/[()]/g, "\\$&")) });
    await delivery.first().waitFor();
    await delivery.first().getByText(say("seller.webhook.deliveries.details")).click();
    await delivery.first().getByText("merci").waitFor();
    await checkConsole(page, "webhook");
    // Sent again: the endpoint gets the same event once more.
    await delivery.first().getByRole("button", { name: say("seller.webhook.deliveries.redeliver") }).click();
    await page.getByText(say("seller.webhook.deliveries.redelivered")).waitFor();
    const both = await receiver.waitFor(2, (request) => request.type === "order.paid");
    expect(both[1]?.id).toBe(both[0]?.id);
    // The log shows the second delivery by itself, without a reload.
    await expect.poll(() => delivery.count(), { timeout: 15_000 }).toBe(2);
    await checkPhone(page, "webhook");

    // The dashboard counts the sale.
    await openSection(page, say, "seller.space.dashboard", "seller.dashboard.title");
    const revenue = page.getByRole("region", { name: say("seller.dashboard.metric.grossRevenue"), exact: true });
    await expect.poll(async () => plain(await revenue.textContent()), { timeout: 10_000 }).toContain(dollars(34));
    // The chart's figures, for those who cannot see it, in a table.
    await revenue.getByText(say("ui.chart.figures")).click();
    expect(plain(await revenue.getByRole("table").textContent())).toContain(dollars(34));
    await checkConsole(page, "dashboard");
    await checkPhone(page, "dashboard");

    // Refunded in full from the order's dialog: the order says so, and the endpoint hears of it.
    await openSection(page, say, "seller.space.orders", "seller.orders.title");
    await orderRow.getByRole("link").first().click();
    await page.getByRole("button", { name: say("seller.refund.open") }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(async () => plain(await dialog.getByLabel(say("seller.refund.amount")).inputValue())).toBe("34,00");
    await checkConsole(page, "refund-dialog");
    await dialog.getByRole("button", { name: say("seller.refund.submit") }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(say("seller.refund.nothingLeft")).waitFor();
    await page.locator(".facts-row", { hasText: say("seller.order.status") }).getByText(say("seller.orders.status.refunded"), { exact: true }).waitFor();
    const [refunded] = await receiver.waitFor(1, (request) => request.type === "order.refunded");
    expect(refunded?.verified).toBe(true);
    await checkPhone(page, "order-refunded");
  });
});
