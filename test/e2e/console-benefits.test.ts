import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Page } from "playwright-core";
import { checkScreen, newPerson, openShop, screenshotFailure, signUp, site, startBrowsing, stopBrowsing, type Say } from "./browser.js";
import { layoutBreaks, untranslated, visibleTexts } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

/** The screen as it stands: in French throughout, and nothing serious for axe. */
async function checkConsole(page: Page, name: string): Promise<void> {
  expect(untranslated(await visibleTexts(page), "fr"), name).toEqual([]);
  await checkScreen(page, `console-benefits-${name}`);
}

/** Intl writes "15 %" and "3 mois" with no-break spaces; the page and the catalog agree once they are plain. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/** Opens a section from the console's navigation and waits for its heading. */
async function openSection(page: Page, say: Say, nav: string, title: string): Promise<void> {
  await page.getByRole("navigation", { name: say("seller.space.navigation") }).getByRole("link", { name: say(nav) }).click();
  await page.getByRole("heading", { name: say(title) }).waitFor();
}

describe("the seller's benefits, custom fields, discounts and checkout links", () => {
  it("makes a license-key benefit, a select field, a percentage discount and a checkout link to copy and scan, in French", { timeout: 120_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, context, say } = await newPerson({ locale: "fr" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site });
    await signUp(page, "Camille Vendeuse", `benefits-${Date.now()}@example.com`);
    const slug = `boutique-${Date.now()}`;
    const { organizationId, api } = await openShop(page, "Boutique Camille", slug, ["products:write", "products:read", "custom_fields:read", "checkout_links:read"]);
    await api("/v1/products/", { organization_id: organizationId, name: "Atlas Pro", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1900, price_currency: "eur" }] });

    // Benefits: none yet; a license key's settings, checked before sending.
    await page.goto(`/${slug}/benefits`);
    await page.getByText(say("seller.benefits.none")).waitFor();
    await checkConsole(page, "benefits-empty");
    await page.getByRole("link", { name: say("seller.benefits.create") }).first().click();
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
    await page.getByText(say("seller.benefits.total", { total: 1 })).waitFor();
    await checkConsole(page, "benefits");

    // A select field with two options; its slug follows its name.
    await openSection(page, say, "seller.space.customFields", "seller.customFields.title");
    await page.getByRole("link", { name: say("seller.customFields.create") }).first().click();
    await page.getByLabel(say("seller.customField.type")).selectOption("select");
    await page.getByLabel(say("seller.customField.name"), { exact: true }).fill("Taille du tee-shirt");
    expect(await page.getByLabel(say("seller.customField.slug"), { exact: true }).inputValue()).toBe("taille_du_tee_shirt");
    await page.getByLabel(say("seller.customField.optionValue", { number: 1 })).fill("s");
    await page.getByLabel(say("seller.customField.optionLabel", { number: 1 })).fill("Petit");
    await page.getByRole("button", { name: say("seller.customField.addOption") }).click();
    await page.getByLabel(say("seller.customField.optionValue", { number: 2 })).fill("l");
    await checkConsole(page, "new-select-field");
    await page.getByRole("button", { name: say("seller.customField.create") }).click();
    await page.getByText(say("forms.customField.optionLabel")).waitFor();
    await page.getByLabel(say("seller.customField.optionLabel", { number: 2 })).fill("Grand");
    await page.getByRole("button", { name: say("seller.customField.create") }).click();
    const field = page.getByRole("row", { name: /Taille du tee-shirt/ });
    await field.waitFor();
    expect(await field.textContent()).toContain(say("seller.customFields.type.select"));
    await checkConsole(page, "custom-fields");
    // Polar makes a field required where a product asks for it: this one, on a product of its own.
    const fields = await api<{ items: { id: string }[] }>(`/v1/custom-fields/?organization_id=${organizationId}`);
    await api("/v1/products/", {
      organization_id: organizationId,
      name: "Tee-shirt Atlas",
      prices: [{ amount_type: "fixed", price_amount: 2500, price_currency: "eur" }],
      attached_custom_fields: [{ custom_field_id: fields.items[0]!.id, required: true }],
    });

    // A percentage discount for three months, with a code, for one product.
    await openSection(page, say, "seller.space.discounts", "seller.discounts.title");
    await page.getByRole("link", { name: say("seller.discounts.create") }).first().click();
    await page.getByLabel(say("seller.discount.name"), { exact: true }).fill("Bienvenue");
    await page.getByLabel(say("seller.discount.code"), { exact: true }).fill("BIENVENUE15");
    await page.getByLabel(say("seller.discount.percent")).fill("15");
    await page.getByLabel(say("seller.discount.duration")).selectOption("repeating");
    await page.getByLabel(say("seller.discount.months")).fill("3");
    await page.getByLabel("Atlas Pro").check();
    await page.getByRole("button", { name: say("seller.discount.create") }).click();
    const discount = page.getByRole("row", { name: /Bienvenue/ });
    await discount.waitFor();
    const terms = `${say("seller.discounts.terms.percentage", { share: 0.15 })}, ${say("seller.discounts.terms.repeating", { months: 3 })}`;
    expect(plain(await discount.textContent())).toContain(plain(terms));
    await checkConsole(page, "discounts");

    // A link selling both products with the discount: its address copied as the API gives it, and its QR code.
    await openSection(page, say, "seller.space.checkoutLinks", "seller.checkoutLinks.title");
    await page.getByText(say("seller.checkoutLinks.none")).waitFor();
    await page.getByRole("link", { name: say("seller.checkoutLinks.create") }).first().click();
    await page.getByRole("button", { name: say("seller.checkoutLink.create") }).click();
    await page.getByText(say("forms.checkoutLink.products")).waitFor();
    await page.getByLabel("Atlas Pro").check();
    await page.getByLabel("Tee-shirt Atlas").check();
    await page.getByLabel(say("seller.checkoutLink.discount")).selectOption({ label: "Bienvenue" });
    await checkConsole(page, "new-checkout-link");
    await page.getByRole("button", { name: say("seller.checkoutLink.create") }).click();
    const link = page.getByRole("row", { name: /Atlas Pro, Tee-shirt Atlas/ });
    await link.waitFor();
    const { items } = await api<{ items: { url: string }[] }>(`/v1/checkout-links/?organization_id=${organizationId}`);
    await link.getByRole("button", { name: say("seller.checkoutLinks.copy") }).click();
    await link.getByText(say("ui.copy.copied")).waitFor();
    // A script, as text-checks.ts writes them: the test's own types know no DOM.
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(items[0]!.url);
    await link.getByText(say("seller.checkoutLinks.showQr")).click();
    await link.getByRole("img", { name: say("seller.checkoutLinks.qrLabel", { url: items[0]!.url }) }).waitFor();
    await checkConsole(page, "checkout-links");

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "checkout-links-phone");
    await openSection(page, say, "seller.space.benefits", "seller.benefits.title");
    await benefit.waitFor();
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "benefits-phone");
  });
});
