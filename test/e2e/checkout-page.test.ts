import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Locator, Page } from "playwright-core";
import { checkScreen, chooseCountry, fillCheckout, newPerson, nextYearExpiry, openShop, screenshotFailure, signUp, site, startBrowsing, stopBrowsing, type Say, type ShopApi } from "./browser.js";
import { layoutBreaks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not on screen");
  return found;
};

/** The plan as the summary shows it: $19.00 / month, after 14 free days, with its benefit. */
async function expectPlanSummary(page: Page, say: Say): Promise<void> {
  const monthly = say("checkout.perInterval", { price: "$19.00", interval: "month", count: 1 });
  expect(monthly).toBe("$19.00 / month");
  const summary = page.getByRole("region", { name: "Atlas Pro from Atlas Maps" });
  await summary.getByText(monthly).first().waitFor();
  await summary.getByRole("definition").filter({ hasText: monthly }).waitFor();
  await summary.getByText(say("checkout.summary.trial", { interval: "day", count: 14 })).waitFor();
  await summary.getByRole("listitem").filter({ hasText: "Priority support by e-mail" }).waitFor();
  // The seller's name at the top, none of the platform's header.
  await page.getByRole("banner").getByText("Atlas Maps").waitFor();
  expect(await page.getByRole("link", { name: "Tollgate" }).count()).toBe(0);
}

describe("the hosted checkout", () => {
  let api: ShopApi;
  let productId: string;

  beforeAll(async () => {
    const seller = await newPerson();
    await signUp(seller.page, "Ada Seller", `atlas-${Date.now()}@example.com`);
    ({ api } = await openShop(seller.page, "Atlas Maps", `atlas-${Date.now()}`, ["products:write", "benefits:write", "checkouts:write"]));
    const benefit = await api<{ id: string }>("/v1/benefits/", { type: "custom", description: "Priority support by e-mail", properties: { note: "Write to help@atlas.example" } });
    const product = await api<{ id: string }>("/v1/products/", {
      name: "Atlas Pro",
      description: "Every map, every month",
      recurring_interval: "month",
      trial_interval: "day",
      trial_interval_count: 14,
      prices: [{ amount_type: "fixed", price_amount: 1_900, price_currency: "usd" }],
    });
    await api(`/v1/products/${product.id}/benefits`, { benefits: [benefit.id] });
    productId = product.id;
    await seller.context.close();
  }, 120_000);

  it("on a desktop: the summary ('/ month', the trial, the benefit) beside the form, a country by name, the US asks for a state, the card formatted with its brand, the success page", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    // On a desktop: what is bought on the left, the form on the right.
    const buyer = await newPerson({ viewport: { width: 1280, height: 900 } });
    const { page, say } = buyer;
    const first = await api<{ client_secret: string }>("/v1/checkouts/", { products: [productId] });
    await page.goto(`/checkout/${first.client_secret}`);
    await expectPlanSummary(page, say);
    const summary = await box(page.getByRole("region", { name: "Atlas Pro from Atlas Maps" }));
    const form = await box(page.getByRole("region", { name: say("checkout.details") }));
    expect(summary.x + summary.width).toBeLessThanOrEqual(form.x);
    expect(Math.abs(summary.y - form.y)).toBeLessThan(40);

    // The country is found by typing part of its name; the US asks for a state and postal code.
    await page.getByLabel(say("checkout.email")).fill("ada-buyer@example.com");
    await page.getByLabel(say("checkout.country")).fill("united");
    await page.getByRole("option", { name: "United Kingdom" }).waitFor();
    await page.getByRole("option", { name: "United States", exact: true }).click();
    await expect.poll(() => page.getByLabel(say("checkout.country")).inputValue()).toBe("United States");
    const card = page.getByLabel(say("checkout.cardNumber"));
    await card.fill("4242424242424242");
    await expect.poll(() => card.inputValue()).toBe("4242 4242 4242 4242");
    await page.getByText("Visa", { exact: true }).waitFor();
    await page.getByLabel(say("checkout.expiry")).fill(nextYearExpiry().replace("/", ""));
    await expect.poll(() => page.getByLabel(say("checkout.expiry")).inputValue()).toBe(nextYearExpiry());
    await page.getByLabel(say("checkout.cvc")).fill("123");
    await page.getByRole("button", { name: say("checkout.startTrial") }).click();
    await page.getByText(say("forms.state.missing")).waitFor();
    await checkScreen(page, "checkout-desktop");
    await page.getByLabel(say("checkout.state")).fill("CA");
    await page.getByLabel(say("checkout.postalCode")).fill("94103");
    await page.getByRole("button", { name: say("checkout.startTrial") }).click();
    await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
    await page.getByText(say("checkout.success.bought", { product: "Atlas Pro" })).waitFor();
    // Nothing was paid today: the page says when the first charge comes.
    await page.getByText(say("checkout.success.trialStarted", { amount: "$19.00 / month", seller: "Atlas Maps" })).waitFor();
    // What the purchase gave, with the seller's note, and the way into the portal, already signed in.
    const benefits = page.getByRole("region", { name: say("portal.benefits.title") });
    await benefits.getByText("Priority support by e-mail").waitFor();
    await benefits.getByText("Write to help@atlas.example").waitFor();
    await checkScreen(page, "checkout-success");
    await page.getByRole("link", { name: say("checkout.success.openPortal") }).click();
    await page.getByText(say("portal.forEmail", { email: "ada-buyer@example.com" })).waitFor();
    await buyer.context.close();
  });

  it("on a phone: the summary above the form, nothing wider than the screen; paid, the buyer goes to the seller's success_url", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const phone = await newPerson({ viewport: { width: 390, height: 844 } });
    const second = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [productId], success_url: `${site}/?bought={CHECKOUT_ID}` });
    await phone.page.goto(`/checkout/${second.client_secret}`);
    await expectPlanSummary(phone.page, phone.say);
    const stackedSummary = await box(phone.page.getByRole("region", { name: "Atlas Pro from Atlas Maps" }));
    const stackedForm = await box(phone.page.getByRole("region", { name: phone.say("checkout.details") }));
    expect(stackedSummary.y + stackedSummary.height).toBeLessThanOrEqual(stackedForm.y);
    expect(await layoutBreaks(phone.page)).toEqual([]);
    await checkScreen(phone.page, "checkout-phone");
    await phone.page.getByLabel(phone.say("checkout.email")).fill("ada-phone@example.com");
    await chooseCountry(phone.page, "FR");
    await phone.page.getByLabel(phone.say("checkout.cardNumber")).fill("4242 4242 4242 4242");
    await phone.page.getByLabel(phone.say("checkout.expiry")).fill(nextYearExpiry());
    await phone.page.getByLabel(phone.say("checkout.cvc")).fill("123");
    await phone.page.getByRole("button", { name: phone.say("checkout.startTrial") }).click();
    await phone.page.waitForURL((address) => address.searchParams.get("bought") === second.id);

    await phone.context.close();
  });
});

describe("tax at the checkout", () => {
  it("the seller says where they charge VAT in the console; a German buyer sees it in the price once they pick their country, and a German business with a VAT number pays none", { timeout: 180_000 }, async () => {
    onTestFailed(screenshotFailure);
    const seller = await newPerson({ viewport: { width: 1280, height: 900 } });
    const slug = `sterne-${Date.now()}`;
    await signUp(seller.page, "Claire Vendeuse", `${slug}@example.com`);
    const { api } = await openShop(seller.page, "Sterne & Co", slug, ["products:write", "checkouts:write", "orders:read"]);
    const { page: settingsPage, say: sellerSays } = seller;
    await settingsPage.goto(`/${slug}/settings`);
    const tax = settingsPage.getByRole("region", { name: sellerSays("seller.settings.tax.title") });
    await tax.getByText(sellerSays("seller.settings.tax.none")).waitFor();
    await tax.getByLabel(sellerSays("seller.settings.tax.country")).fill("fr");
    await tax.getByLabel(sellerSays("seller.settings.tax.line1")).fill("12 rue des Étoiles");
    await tax.getByLabel(sellerSays("seller.settings.tax.postalCode")).fill("75004");
    await tax.getByLabel(sellerSays("seller.settings.tax.city")).fill("Paris");
    await tax.getByLabel(sellerSays("seller.settings.tax.taxId")).fill("FR 40 303265045");
    await tax.getByRole("button", { name: sellerSays("seller.settings.tax.add") }).click();
    await tax.getByLabel(sellerSays("seller.settings.tax.place")).fill("DE");
    await tax.getByRole("button", { name: sellerSays("seller.settings.tax.add") }).click();
    await tax.getByLabel(sellerSays("seller.settings.tax.place")).nth(1).fill("US");
    // The US is registered state by state: the server's refusal sits on the row's state.
    await tax.getByRole("button", { name: sellerSays("seller.settings.tax.save") }).click();
    await tax.getByText("US sales tax is registered state by state: name the state").waitFor();
    await tax.getByLabel(sellerSays("seller.settings.tax.state")).nth(1).fill("NY");
    await tax.getByLabel(sellerSays("seller.settings.tax.rate")).nth(1).fill("8.875");
    await tax.getByRole("button", { name: sellerSays("seller.settings.tax.save") }).click();
    await tax.getByText(sellerSays("seller.settings.tax.saved")).waitFor();
    await expect.poll(() => tax.getByLabel(sellerSays("seller.settings.tax.taxId")).inputValue()).toBe("FR40303265045");
    await checkScreen(settingsPage, "settings-tax");
    await settingsPage.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(settingsPage)).toEqual([]);
    await checkScreen(settingsPage, "settings-tax-phone");
    await seller.context.close();

    const product = await api<{ id: string }>("/v1/products/", { name: "Sternkarte", prices: [{ amount_type: "fixed", price_amount: 1_200, price_currency: "eur" }] });
    const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [product.id], currency: "eur" });
    const buyer = await newPerson({ viewport: { width: 1280, height: 900 } });
    const { page, say } = buyer;
    await page.goto(`/checkout/${checkout.client_secret}`);
    const summary = page.getByRole("region", { name: "Sternkarte from Sterne & Co" });
    await summary.getByText(say("checkout.summary.taxLater")).waitFor();
    await page.getByLabel(say("checkout.email")).fill("leserin@example.com");
    await chooseCountry(page, "DE");
    // 12.00 including 19%: 1.92 of it is VAT.
    await summary.getByRole("term").filter({ hasText: say("checkout.summary.taxIncluded") }).waitFor();
    await summary.getByRole("definition").filter({ hasText: "€1.92" }).waitFor();
    await page.getByLabel(say("checkout.business")).check();
    await page.getByLabel(say("checkout.business.name")).fill("Sternwarte Nord GmbH");
    await page.getByLabel(say("checkout.business.line1")).fill("Himmelsweg 7");
    await page.getByLabel(say("checkout.postalCode")).fill("20095");
    await page.getByLabel(say("checkout.business.city")).fill("Hamburg");
    await page.getByLabel(say("checkout.business.taxId")).fill("DE 1234");
    await page.getByText(say("checkout.business.taxIdRefused")).waitFor();
    await page.getByLabel(say("checkout.business.taxId")).fill("DE123456789");
    await summary.getByRole("definition").filter({ hasText: "€0.00" }).waitFor();
    await checkScreen(page, "checkout-business");
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(page)).toEqual([]);
    await checkScreen(page, "checkout-business-phone");
    await page.getByLabel(say("checkout.cardNumber")).fill("4242 4242 4242 4242");
    await page.getByLabel(say("checkout.expiry")).fill(nextYearExpiry());
    await page.getByLabel(say("checkout.cvc")).fill("123");
    await page.getByRole("button", { name: say("checkout.pay", { amount: "€12.00" }) }).click();
    await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
    const [order] = (await api<{ items: { tax_amount: number; billing_name: string | null }[] }>("/v1/orders/")).items;
    expect(order).toMatchObject({ tax_amount: 0, billing_name: "Sternwarte Nord GmbH" });
    await buyer.context.close();
  });
});

describe("seats at the checkout", () => {
  it("the buyer chooses how many seats within the price's tiers, the total following the count; the subscription is for those seats", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const seller = await newPerson();
    await signUp(seller.page, "Tess Seller", `teams-${Date.now()}@example.com`);
    const { api } = await openShop(seller.page, "Team Maps", `team-maps-${Date.now()}`, ["products:write", "checkouts:write", "subscriptions:read"]);
    await seller.context.close();
    // 1–4 seats at 12.00 each, 5 to 20 at 10.00 each.
    const tiers = [
      { min_seats: 1, max_seats: 4, price_per_seat: 1_200 },
      { min_seats: 5, max_seats: 20, price_per_seat: 1_000 },
    ];
    const product = await api<{ id: string }>("/v1/products/", { name: "Team Atlas", recurring_interval: "month", prices: [{ amount_type: "seat_based", price_currency: "usd", seat_tiers: { seat_tier_type: "volume", tiers } }] });
    const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [product.id] });

    const { page, say } = await newPerson({ viewport: { width: 1280, height: 900 } });
    await page.goto(`/checkout/${checkout.client_secret}`);
    const summary = page.getByRole("region", { name: "Team Atlas from Team Maps" });
    const seats = page.getByLabel(say("checkout.seats"));
    expect(await seats.inputValue()).toBe("1");
    expect([await seats.getAttribute("min"), await seats.getAttribute("max")]).toEqual(["1", "20"]);
    await page.getByText(say("checkout.seats.between", { min: 1, max: 20 })).waitFor();
    const total = (amount: string) => summary.getByRole("definition").filter({ hasText: say("checkout.perInterval", { price: amount, interval: "month", count: 1 }) });
    await total("$12.00").waitFor();

    await seats.fill("25");
    await page.getByText(say("checkout.seats.between", { min: 1, max: 20 })).waitFor();
    expect(await seats.getAttribute("aria-invalid")).toBe("true");
    // Volume: five seats all at the second tier's 10.00.
    await seats.fill("5");
    await total("$50.00").waitFor();
    await checkScreen(page, "checkout-seats");

    await fillCheckout(page, say, { email: "team-buyer@example.com", country: "FR", card: "4242 4242 4242 4242" });
    await page.getByRole("button", { name: say("checkout.pay", { amount: "$50.00" }) }).click();
    await page.getByRole("heading", { name: say("checkout.thankYou") }).waitFor();
    const [subscription] = (await api<{ items: { seats: number | null; amount: number }[] }>(`/v1/subscriptions/?product_id=${product.id}`)).items;
    expect(subscription).toMatchObject({ seats: 5, amount: 5_000 });
  });
});
