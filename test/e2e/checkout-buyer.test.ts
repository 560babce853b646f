import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { newPerson, nextYearExpiry, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing, type Say, type ShopApi } from "./browser.js";
import { layoutBreaks, screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const SHOTS = "/tmp/shots-checkout-path";
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

const SCOPES = ["products:write", "benefits:write", "checkouts:write", "checkout_links:write", "customers:write"];
const SUPPORT = "help@acme.example";
const TERMS = "https://acme.example/terms";
const REFUNDS = "https://acme.example/refunds";

/** An amount as the page writes it in `locale`. */
const dollars = (locale: string, amount: number) => new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(amount);

/** The seller's contact and policies, as its settings gave them, under what is bought. */
async function expectSellerContact(page: Page, say: Say): Promise<void> {
  expect(await page.getByRole("link", { name: SUPPORT }).getAttribute("href")).toBe(`mailto:${SUPPORT}`);
  expect(await page.getByRole("link", { name: say("checkout.seller.terms") }).getAttribute("href")).toBe(TERMS);
  expect(await page.getByRole("link", { name: say("checkout.seller.refunds") }).getAttribute("href")).toBe(REFUNDS);
}

async function fillCard(page: Page, say: Say): Promise<void> {
  await page.getByLabel(say("checkout.cardNumber")).fill("4242 4242 4242 4242");
  await page.getByLabel(say("checkout.expiry")).fill(nextYearExpiry());
  await page.getByLabel(say("checkout.cvc")).fill("123");
}

describe("the buyer's checkout", () => {
  let api: ShopApi;
  let trialId: string;
  let linkPath: string;

  beforeAll(async () => {
    const stamp = Date.now();
    const seller = await newPerson({ viewport: { width: 1280, height: 900 } });
    const slug = `acme-${stamp}`;
    await signUp(seller.page, "Ada Seller", `acme-${stamp}@example.com`);
    ({ api } = await openShop(seller.page, "Acme", slug, SCOPES));
    // The seller gives the support e-mail and policies buyers see, in the console's profile.
    const { page, say } = seller;
    await page.goto(`/${slug}/settings`);
    const profile = page.getByRole("region", { name: say("seller.settings.profile.title") });
    await profile.getByLabel(say("seller.settings.profile.email")).fill(SUPPORT);
    await profile.getByLabel(say("seller.settings.profile.terms")).fill(TERMS);
    await profile.getByLabel(say("seller.settings.profile.refunds")).fill(REFUNDS);
    await profile.getByRole("button", { name: say("seller.settings.profile.save") }).click();
    await profile.getByText(say("seller.settings.profile.saved")).waitFor();
    await seller.context.close();

    const licence = await api<{ id: string }>("/v1/benefits/", { type: "license_keys", description: "Acme licence key", properties: {} });
    const basic = await api<{ id: string }>("/v1/products/", {
      name: "Acme Basic",
      description: '**Acme Cloud** keeps your *maps* in sync.\n\n- Works offline\n- [Read the guide](https://acme.example/guide)\n\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">',
      prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }],
    });
    const pro = await api<{ id: string }>("/v1/products/", { name: "Acme Pro", description: "Everything in **Basic**, for teams.", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_200, price_currency: "usd" }] });
    const trial = await api<{ id: string }>("/v1/products/", { name: "Acme Trial", recurring_interval: "month", trial_interval: "day", trial_interval_count: 14, prices: [{ amount_type: "fixed", price_amount: 1_200, price_currency: "usd" }] });
    for (const product of [basic, pro]) await api(`/v1/products/${product.id}/benefits`, { benefits: [licence.id] });
    trialId = trial.id;
    const link = await api<{ url: string }>("/v1/checkout-links/", { products: [basic.id, pro.id] });
    linkPath = new URL(link.url).pathname;
  }, 120_000);

  it("a link with two products, in German on a desktop: the description as Markdown, the country from the browser, the second product chosen, paid; the thank-you page shows the key and opens the portal", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, say, context } = await newPerson({ locale: "de-DE", viewport: { width: 1280, height: 900 } });
    const { checkConsole, checkPhone } = screenChecks("de", "checkout-buyer");
    await page.goto(linkPath);
    const basicSummary = page.getByRole("region", { name: say("checkout.productFrom", { product: "Acme Basic", seller: "Acme" }) });
    await basicSummary.waitFor();
    // The description drawn as Markdown, its HTML shown as text and never run.
    await basicSummary.locator(".markdown strong", { hasText: "Acme Cloud" }).waitFor();
    await basicSummary.locator(".markdown em", { hasText: "maps" }).waitFor();
    await basicSummary.getByRole("listitem").filter({ hasText: "Works offline" }).waitFor();
    expect(await basicSummary.getByRole("link", { name: "Read the guide" }).getAttribute("rel")).toBe("noopener noreferrer");
    await basicSummary.getByText("<script>window.__pwned = 1</script>", { exact: false }).waitFor();
    expect(await basicSummary.locator(".markdown script, .markdown img").count()).toBe(0);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    // A German browser: Germany, still the buyer's to change.
    await expect.poll(() => page.getByLabel(say("checkout.country")).inputValue()).toBe("Deutschland");
    await expectSellerContact(page, say);
    const choice = page.getByRole("group", { name: say("checkout.choice.title") });
    expect(await choice.getByRole("radio", { name: /Acme Basic/ }).isChecked()).toBe(true);
    await shot(page, "chooser-de-1280");
    await checkConsole(page, "chooser");
    await checkPhone(page, "chooser");
    await shot(page, "chooser-de-1280-after-phone");

    // The second product: the summary, its price and the button follow.
    await choice.getByRole("radio", { name: /Acme Pro/ }).check();
    const proSummary = page.getByRole("region", { name: say("checkout.productFrom", { product: "Acme Pro", seller: "Acme" }) });
    const monthly = say("checkout.perInterval", { price: dollars("de", 12), interval: "month", count: 1 });
    await proSummary.getByRole("definition").filter({ hasText: monthly }).first().waitFor();
    await proSummary.locator(".markdown strong", { hasText: "Basic" }).waitFor();
    const pay = page.getByRole("button", { name: say("checkout.pay", { amount: dollars("de", 12) }) });
    await pay.waitFor();
    await shot(page, "chosen-pro-de-1280");

    await page.getByLabel(say("checkout.email")).fill("kaeuferin@example.com");
    await fillCard(page, say);
    await pay.click();
    await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
    await page.getByText(say("checkout.success.bought", { product: "Acme Pro" })).waitFor();
    const benefits = page.getByRole("region", { name: say("portal.benefits.title") });
    await benefits.getByText("Acme licence key").waitFor();
    const key = benefits.locator("code.license-key");
    await key.waitFor();
    expect((await key.textContent())?.length).toBeGreaterThan(8);
    await benefits.getByRole("button", { name: say("portal.benefits.copyKey") }).waitFor();
    await expectSellerContact(page, say);
    await shot(page, "thank-you-de-1280");
    await checkConsole(page, "thank-you");
    await checkPhone(page, "thank-you");
    await page.getByRole("link", { name: say("checkout.success.openPortal") }).click();
    await page.getByText(say("portal.forEmail", { email: "kaeuferin@example.com" })).waitFor();
    await context.close();
  });

  it("a seller's customer on a trial, in Polish on a phone: the e-mail locked, name and country filled in, the first charge's amount and day, the portal sign-in after paying", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const email = `jan-${Date.now()}@example.com`;
    const customer = await api<{ id: string }>("/v1/customers/", { email, name: "Jan Kowalski" });
    const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [trialId], customer_id: customer.id, customer_name: "Jan Kowalski", customer_billing_address: { country: "PL" } });
    const { page, say, context } = await newPerson({ locale: "pl", viewport: { width: 390, height: 844 } });
    const { checkConsole } = screenChecks("pl", "checkout-buyer");
    await page.goto(`/checkout/${checkout.client_secret}`);
    // The e-mail is read as text, with no field to change it.
    await page.getByRole("definition").filter({ hasText: email }).waitFor();
    await page.getByText(say("checkout.emailLocked", { seller: "Acme" })).waitFor();
    expect(await page.getByRole("textbox", { name: say("checkout.email") }).count()).toBe(0);
    expect(await page.getByLabel(say("checkout.name")).inputValue()).toBe("Jan Kowalski");
    expect(await page.getByLabel(say("checkout.country")).inputValue()).toBe("Polska");
    const firstCharge = new Date();
    firstCharge.setDate(firstCharge.getDate() + 14);
    const then = say("checkout.summary.thenFrom", {
      amount: say("checkout.perInterval", { price: dollars("pl", 12), interval: "month", count: 1 }),
      date: firstCharge.toLocaleDateString("pl", { dateStyle: "long" }),
    });
    await page.getByText(then).waitFor();
    await expectSellerContact(page, say);
    expect(await layoutBreaks(page)).toEqual([]);
    await shot(page, "trial-locked-pl-390");
    await checkConsole(page, "trial-phone");

    await fillCard(page, say);
    await page.getByRole("button", { name: say("checkout.startTrial") }).click();
    await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
    await page.getByText(say("checkout.success.bought", { product: "Acme Trial" })).waitFor();
    // A customer who existed gets no session here: the way into the portal, where they sign in.
    await page.getByText(say("checkout.success.signInLater", { seller: "Acme" })).waitFor();
    await page.getByRole("link", { name: say("checkout.success.goToPortal") }).waitFor();
    await shot(page, "trial-thank-you-pl-390");
    await checkConsole(page, "trial-thank-you-phone");
    await context.close();
  });

  it("a link followed with the buyer's e-mail and name in its query, in English: both filled in and the e-mail still the buyer's to change", { timeout: 60_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, say, context } = await newPerson({ viewport: { width: 390, height: 844 } });
    await page.goto(`${linkPath}?customer_email=lee%40example.com&customer_name=Lee%20Buyer`);
    const emailField = page.getByLabel(say("checkout.email"));
    await expect.poll(() => emailField.inputValue()).toBe("lee@example.com");
    expect(await emailField.isEditable()).toBe(true);
    expect(await page.getByLabel(say("checkout.name")).inputValue()).toBe("Lee Buyer");
    await shot(page, "prefilled-en-390");
    await context.close();
  });
});
