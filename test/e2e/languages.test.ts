import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { ARTIFACTS, checkScreen, fillCheckout, newPerson, organizationIdOf, screenshotFailure, shopApi, signUp, startBrowsing, stopBrowsing, type Say } from "./browser.js";
import { untranslated, visibleTexts } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

/** $19.00 as each language writes it: the currency is the price's, the way of writing it the language's. */
const NINETEEN_DOLLARS: Record<string, string> = {
  ru: "19,00 $",
  uk: "19,00 USD",
  en: "$19.00",
  es: "19,00 US$",
  de: "19,00 $",
  pl: "19,00 USD",
  fr: "19,00 $US",
  tr: "$19,00",
};

/**
 * The language whose round also runs axe over each screen. The screens are built alike in every
 * language, so one scan a screen finds what eight would; German's long words are the likeliest to
 * crowd a label or a button out of reach.
 */
const SCANNED = "de";

/** The screen is in `locale`: `<html lang>`, nothing left in English or as a message id; a screenshot kept, and in German axe finds nothing serious. */
async function checkScreenIn(page: Page, locale: string, name: string): Promise<void> {
  expect(await page.locator("html").getAttribute("lang"), name).toBe(locale);
  expect(untranslated(await visibleTexts(page), locale), name).toEqual([]);
  if (locale === SCANNED) await checkScreen(page, `${locale}-${name}`);
  else await page.screenshot({ path: path.join(ARTIFACTS, `${locale}-${name}.png`), fullPage: true });
}

/**
 * One language's round. `buyerBrowser` is the language the buyer's browser asks for; when it differs,
 * the seller sets the checkout's `locale` (Polar's field), which the checkout and portal follow.
 */
const rounds = [
  { locale: "ru" },
  { locale: "uk" },
  { locale: "en" },
  { locale: "es" },
  { locale: "de" },
  { locale: "pl", buyerBrowser: "de" },
  { locale: "fr" },
  { locale: "tr" },
];

describe("the web app in each of its eight languages", () => {
  it.each(rounds)("$locale: sign-up, an organization, the hosted checkout and the customer portal", { timeout: 60_000 }, async ({ locale, buyerBrowser = locale }) => {
    onTestFailed(screenshotFailure);
    const seller = await newPerson({ locale });
    const { page, say } = seller;
    await page.goto("/sign-up");
    await page.getByRole("button", { name: say("auth.signUp.submit") }).waitFor();
    await checkScreenIn(page, locale, "sign-up");
    await signUp(page, "Zoë Seller", `seller-${locale}-${Date.now()}@example.com`);
    await checkScreenIn(page, locale, "home");

    const name = `Shop ${locale}`;
    const slug = `shop-${locale}-${Date.now()}`;
    await page.goto("/organizations/new");
    await page.getByLabel(say("organizations.field.name"), { exact: true }).fill(name);
    await page.getByLabel(say("organizations.field.slug")).fill(slug);
    await page.getByText(say("organizations.slug.free")).waitFor();
    await checkScreenIn(page, locale, "organization-new");
    await page.getByRole("button", { name: say("organizations.new.submit") }).click();
    // A new organization opens on its console, at the steps to a first sale.
    await page.getByRole("heading", { name: say("seller.start.title") }).waitFor();
    await checkScreenIn(page, locale, "console-start");

    const api = await shopApi(page, await organizationIdOf(page, slug), ["products:write", "checkouts:write", "customer_sessions:write"]);
    const product = await api<{ id: string }>("/v1/products/", { name: "Atlas", prices: [{ amount_type: "fixed", price_amount: 1_900, price_currency: "usd" }] });
    const checkout = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [product.id], ...(buyerBrowser === locale ? {} : { locale }) });

    const buyer = await newPerson({ locale: buyerBrowser });
    await buyer.page.goto(`/checkout/${checkout.client_secret}`);
    await payInLanguage(buyer.page, say, locale);

    const { customer_id: customerId } = await api<{ customer_id: string }>(`/v1/checkouts/${checkout.id}`);
    const session = await api<{ customer_portal_url: string }>("/v1/customer-sessions/", { customer_id: customerId });
    const link = new URL(session.customer_portal_url);
    await buyer.page.goto(`${link.pathname}${link.search}`);
    await buyer.page.getByRole("heading", { name: say("portal.title", { seller: name }) }).waitFor();
    await buyer.page.getByRole("list", { name: say("portal.orders.label") }).getByText(NINETEEN_DOLLARS[locale] ?? "", { exact: false }).waitFor();
    await buyer.page.getByRole("button", { name: say("portal.billing.submit") }).waitFor();
    await checkScreenIn(buyer.page, locale, "portal");

    await seller.context.close();
    await buyer.context.close();
  });
});

/** Pays $19.00 on the hosted checkout open on `page`, which shows in `locale`, with the card that pays. */
async function payInLanguage(page: Page, say: Say, locale: string): Promise<void> {
  const pay = page.getByRole("button", { name: say("checkout.pay", { amount: NINETEEN_DOLLARS[locale] ?? "" }) });
  await pay.waitFor();
  await checkScreenIn(page, locale, "checkout");
  await fillCheckout(page, say, { email: `buyer-${locale}@example.com`, country: "FR", card: "4242 4242 4242 4242" });
  await pay.click();
  await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
  await checkScreenIn(page, locale, "checkout-paid");
}
