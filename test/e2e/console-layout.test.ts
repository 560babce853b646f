import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { checkScreen, fillCheckout, newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing, type Person, type ShopApi } from "./browser.js";
import { layoutBreaks, untranslated, visibleTexts, wordBreaks } from "./text-checks.js";

/**
 * The console's frame on a desktop and a phone: grouped navigation (a drawer on a phone), tables that
 * become cards and never cut a word, filters folded behind one button, and a new organization's
 * front page, its steps to a first sale ticking themselves off.
 */

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SCOPES = ["products:write", "checkouts:write", "checkout_links:write", "benefits:write", "custom_fields:write", "discounts:write", "customers:write", "subscriptions:write", "license_keys:read", "orders:read", "webhooks:write"];

interface Shop {
  owner: Person;
  slug: string;
  productId: string;
  customerId: string;
  orderId: string;
  subscriptionId: string;
}

/** A buyer pays for `productId` on the hosted checkout with the sandbox card. */
async function buy(api: ShopApi, productId: string, email: string): Promise<void> {
  const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [productId] });
  const buyer = await newPerson();
  await buyer.page.goto(`/checkout/${checkout.client_secret}`);
  await fillCheckout(buyer.page, buyer.say, { email, country: "DE", card: "4242 4242 4242 4242" });
  await buyer.page.getByRole("button", { name: /^Pay / }).click();
  await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  await buyer.context.close();
}

/** A shop with something on every console screen: products, a benefit, a question, a discount, a link, an endpoint, and a buyer's order, subscription and license key. */
async function shopWithData(stamp: number): Promise<Shop> {
  const owner = await newPerson({ viewport: DESKTOP });
  await signUp(owner.page, "Hanna Layout", `layout-${stamp}@example.com`);
  const slug = `harbour-maps-${stamp}`;
  const { api, organizationId } = await openShop(owner.page, "Harbour Maps", slug, SCOPES);
  const licence = await api<{ id: string }>("/v1/benefits/", { type: "license_keys", description: "Chart plotter licence", properties: {} });
  await api("/v1/custom-fields/", { organization_id: organizationId, type: "text", slug: "vessel", name: "Vessel name", properties: {} });
  const plan = await api<{ id: string }>("/v1/products/", { name: "Tide tables yearly subscription", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 3_920, price_currency: "usd" }] });
  await api(`/v1/products/${plan.id}/benefits`, { benefits: [licence.id] });
  const guide = await api<{ id: string }>("/v1/products/", { name: "Field guide", prices: [{ amount_type: "fixed", price_amount: 1_250, price_currency: "usd" }] });
  await api("/v1/discounts/", { type: "percentage", basis_points: 2_500, duration: "once", name: "Launch week", code: "LAUNCH25" });
  await api("/v1/checkout-links/", { products: [plan.id] });
  await api("/v1/webhooks/endpoints", { url: "https://hooks.example.com/tollgate/orders-and-subscriptions", format: "raw", events: ["order.paid", "subscription.created"] });
  const email = `skipper-with-a-long-address-${stamp}@example.com`;
  await buy(api, plan.id, email);
  await buy(api, guide.id, email);
  const [subscription] = (await api<{ items: { id: string; customer_id: string }[] }>(`/v1/subscriptions/?organization_id=${organizationId}`)).items;
  const [order] = (await api<{ items: { id: string }[] }>(`/v1/orders/?organization_id=${organizationId}`)).items;
  if (!subscription || !order) throw new Error("the purchases did not arrive");
  return { owner, slug, productId: plan.id, customerId: subscription.customer_id, orderId: order.id, subscriptionId: subscription.id };
}

/** Every console screen, by a name for its screenshots and its address under the shop's. */
const screensOf = (shop: Shop): [name: string, path: string][] => [
  ["dashboard", ""],
  ["products", "/products"],
  ["product", `/products/${shop.productId}`],
  ["new-product", "/products/new"],
  ["benefits", "/benefits"],
  ["custom-fields", "/custom-fields"],
  ["discounts", "/discounts"],
  ["checkout-links", "/checkout-links"],
  ["customers", "/customers"],
  ["customer", `/customers/${shop.customerId}`],
  ["orders", "/orders"],
  ["order", `/orders/${shop.orderId}`],
  ["subscriptions", "/subscriptions"],
  ["subscription", `/subscriptions/${shop.subscriptionId}`],
  ["license-keys", "/license-keys"],
  ["webhooks", "/webhooks"],
  ["access-tokens", "/access-tokens"],
  ["set-aside-work", "/set-aside-work"],
  ["settings", "/settings"],
  ["settings-members", "/settings?tab=members"],
];

/** Loaded: the screen's heading is there and nothing is still loading. */
async function settled(page: Page): Promise<void> {
  await page.locator("h1").first().waitFor();
  await page.locator(".loading").first().waitFor({ state: "detached" });
  await page.locator("[aria-busy=true]").first().waitFor({ state: "detached" });
}

let shop: Shop;

describe("the console's layout", () => {
  it("the check finds a cell that cuts a word, and a page wider than a phone", { timeout: 60_000 }, async () => {
    const { page, context } = await newPerson({ viewport: PHONE });
    await page.setContent(`<!doctype html><html lang="en"><body style="margin:0">
      <table><tr><th>Date</th><td style="width:3ch;max-width:3ch;overflow-wrap:anywhere">November 27</td></tr>
      <tr><th>Amount</th><td style="white-space:nowrap">$39.20</td></tr></table>
      <div style="width:600px">wide</div></body></html>`);
    const cut = await wordBreaks(page);
    expect(cut).toContainEqual(expect.stringMatching(/^"November" is cut over \d lines in td/));
    expect(cut.join("\n")).not.toContain("$39.20");
    expect(await layoutBreaks(page)).toContainEqual(expect.stringMatching(/^the page is \d+px wide in a 390px window$/));
    // The same table laid out as the app does: nothing to report.
    await page.setContent(`<!doctype html><html lang="en"><body><table><tr><th>Date</th><td style="white-space:nowrap">November 27</td></tr></table></body></html>`);
    expect(await wordBreaks(page)).toEqual([]);
    expect(await layoutBreaks(page)).toEqual([]);
    await context.close();
  });

  it("a new organization opens on its console's steps to a first sale: a product made through the form, a checkout link and a test purchase through it tick themselves off; the list hides for good", { timeout: 120_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "de", viewport: DESKTOP });
    await signUp(page, "Nora Neu", `new-seller-${stamp}@example.com`);
    // From the account's home: a new organization, which opens on the console, not its members.
    await page.getByRole("link", { name: say("home.organizations.new") }).click();
    await page.getByLabel(say("organizations.field.name"), { exact: true }).fill("Leuchtturm Karten");
    await page.getByLabel(say("organizations.field.slug")).fill(`leuchtturm-${stamp}`);
    await page.getByText(say("organizations.slug.free")).waitFor();
    await page.getByRole("button", { name: say("organizations.new.submit") }).click();
    await page.waitForURL(new RegExp(`/leuchtturm-${stamp}$`));
    const steps = page.getByRole("region", { name: say("seller.start.title") });
    await steps.getByText(say("seller.start.doneCount", { done: 0, total: 4 })).waitFor();
    await settled(page);
    // The steps come before the charts.
    expect(await page.evaluate<number>(`document.querySelector(".getting-started").compareDocumentPosition(document.querySelector(".metric-grid"))`)).toBe(4);
    await checkScreen(page, "console-layout-start-de");

    // The first step's button leads to the product form; a product made there ticks the step off.
    await steps.getByRole("link", { name: say("seller.start.productAction") }).click();
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Seekarte Ostsee");
    await page.getByLabel(say("seller.productForm.amount")).fill("24");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();
    await page.getByRole("link", { name: "Seekarte Ostsee" }).waitFor();
    await page.getByRole("navigation", { name: say("seller.space.navigation") }).getByRole("link", { name: say("seller.space.dashboard") }).click();
    await steps.getByText(say("seller.start.doneCount", { done: 1, total: 4 })).waitFor();
    const first = steps.getByRole("listitem").first();
    expect(await first.textContent()).toContain(`${say("seller.start.done")} ${say("seller.start.product")}`);
    expect(await steps.getByRole("listitem").nth(1).textContent()).toContain(`${say("seller.start.toDo")} ${say("seller.start.link")}`);

    // The second step's button makes a checkout link for the product; the fourth's way leads to it, and a
    // test purchase with the sandbox card the step names is the first sale, ticked off on the front page.
    await steps.getByRole("link", { name: say("seller.start.linkAction") }).click();
    await page.getByLabel("Seekarte Ostsee").check();
    await page.getByRole("button", { name: say("seller.checkoutLink.create") }).click();
    await page.getByRole("navigation", { name: say("seller.space.navigation") }).getByRole("link", { name: say("seller.space.dashboard") }).click();
    await steps.getByText(say("seller.start.doneCount", { done: 2, total: 4 })).waitFor();
    await steps.getByRole("link", { name: say("seller.start.purchaseAction") }).click();
    const linkUrl = await page.getByRole("row", { name: /Seekarte Ostsee/ }).locator("a.link-url").getAttribute("href");
    const buyer = await newPerson({ locale: "de", viewport: DESKTOP });
    await buyer.page.goto(new URL(linkUrl ?? "").pathname);
    await fillCheckout(buyer.page, buyer.say, { email: `erster-kauf-${stamp}@example.com`, country: "DE", card: "4242 4242 4242 4242" });
    await buyer.page.getByRole("button", { name: buyer.say("checkout.pay", { amount: new Intl.NumberFormat("de", { style: "currency", currency: "USD" }).format(24) }) }).click();
    await buyer.page.getByText(buyer.say("checkout.success.bought", { product: "Seekarte Ostsee" })).waitFor();
    await buyer.context.close();
    await page.getByRole("navigation", { name: say("seller.space.navigation") }).getByRole("link", { name: say("seller.space.dashboard") }).click();
    await steps.getByText(say("seller.start.doneCount", { done: 3, total: 4 })).waitFor();
    expect(await steps.getByRole("listitem").nth(3).textContent()).toContain(`${say("seller.start.done")} ${say("seller.start.purchase")}`);

    // Hidden, it stays hidden for this organization.
    await steps.getByRole("button", { name: say("seller.start.hide") }).click();
    await steps.waitFor({ state: "detached" });
    await page.reload();
    await page.getByRole("heading", { name: say("seller.dashboard.title"), level: 1 }).waitFor();
    expect(await page.getByRole("region", { name: say("seller.start.title") }).count()).toBe(0);
  });

  it("on a phone the grouped navigation is a drawer: it opens from the menu button, keeps focus, closes on Escape and on navigating; on a desktop it is a sidebar", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    shop = await shopWithData(Date.now());
    const { page, say } = await newPerson({ viewport: PHONE, signedInAs: shop.owner });
    await page.goto(`/${shop.slug}/products`);
    await settled(page);
    const nav = page.getByRole("navigation", { name: say("seller.space.navigation") });
    expect(await nav.count(), "no sidebar on a phone").toBe(0);
    const menu = page.getByRole("button", { name: say("seller.space.menu"), exact: true });
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    await menu.click();
    const drawer = page.getByRole("dialog", { name: say("seller.space.menu") });
    await drawer.waitFor();
    // The rest of the page is hidden from screen readers while the drawer is open: the button is found by its place.
    const trigger = page.locator("button.menu-button");
    expect(await trigger.getAttribute("aria-expanded")).toBe("true");
    expect(await trigger.getAttribute("aria-controls")).toBe(await drawer.getAttribute("id"));
    // The groups, each with its sections; one Settings, the organization's members among them rather than a link of their own.
    for (const group of ["sales", "catalog", "customers", "developers"]) await drawer.getByRole("list", { name: say(`seller.space.group.${group}`) }).waitFor();
    const settings = drawer.getByRole("list", { name: say("seller.space.group.settings") });
    expect(await settings.getByRole("link").allTextContents()).toEqual([say("seller.space.settings")]);
    expect(await drawer.locator(`a[href^="/organizations/"]`).count()).toBe(0);
    await checkScreen(page, "console-layout-drawer");
    for (let step = 0; step < 20; step++) await page.keyboard.press("Tab");
    expect(await page.evaluate<boolean>(`document.activeElement?.closest("[role=dialog]") !== null`), "focus stays in the drawer").toBe(true);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    expect(await page.evaluate<string>("document.activeElement?.textContent ?? ''")).toContain(say("seller.space.menu"));
    await menu.click();
    await drawer.getByRole("link", { name: say("seller.space.orders") }).click();
    await drawer.waitFor({ state: "detached" });
    await page.waitForURL(new RegExp(`/${shop.slug}/orders$`));
    await page.getByRole("heading", { name: say("seller.orders.title"), level: 1 }).waitFor();

    // The orders' filters fold behind one button that counts those set.
    const status = page.getByLabel(say("seller.orders.filter.status"));
    const filters = page.getByRole("button", { name: say("ui.filters.toggle") });
    expect(await status.isVisible()).toBe(false);
    expect(await filters.getAttribute("aria-expanded")).toBe("false");
    await filters.click();
    await status.selectOption("paid");
    await page.getByRole("button", { name: say("ui.filters.toggleSet", { active: 1 }) }).waitFor();
    await checkScreen(page, "console-layout-filters-phone");

    // On a desktop: the sidebar, the filters in view, no menu button.
    await page.setViewportSize(DESKTOP);
    await nav.waitFor();
    expect(await menu.isVisible()).toBe(false);
    expect(await status.isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: say("ui.filters.toggleSet", { active: 1 }) }).isVisible()).toBe(false);

    // The organization's members are a section of the console's settings.
    await nav.getByRole("link", { name: say("seller.space.settings") }).click();
    const sections = page.getByRole("navigation", { name: say("seller.settings.sections") });
    expect(await sections.getByRole("link", { name: say("seller.settings.tab.selling") }).getAttribute("aria-current")).toBe("page");
    await sections.getByRole("link", { name: say("seller.settings.tab.members") }).click();
    await page.getByRole("heading", { name: say("organizations.members.title") }).waitFor();
    expect(await sections.getByRole("link", { name: say("seller.settings.tab.members") }).getAttribute("aria-current")).toBe("page");
    await page.context().close();
  });

  // Axe judges the markup, which is the same in every language: once, in English, at both widths,
  // keeps the sweep's 120 axe runs to 40 (the whole run has a time budget). Words and widths are each language's own.
  for (const locale of ["en", "de", "pl"]) {
    const withAxe = locale === "en";
    it(`every console screen in ${locale}, at 1280 and 390 px: no word cut in a table, nothing wider than a phone, nothing untranslated${withAxe ? ", axe clean" : ""}`, { timeout: 300_000 }, async () => {
      onTestFailed(screenshotFailure);
      const { page, context } = await newPerson({ locale, viewport: DESKTOP, signedInAs: shop.owner });
      const found: string[] = [];
      for (const [name, path] of screensOf(shop)) {
        await page.setViewportSize(DESKTOP);
        await page.goto(`/${shop.slug}${path}${path.includes("?") ? "&" : "?"}locale=${locale}`);
        await settled(page);
        found.push(...untranslated(await visibleTexts(page), locale).map((text) => `${name}: untranslated "${text}"`));
        found.push(...(await wordBreaks(page)).map((broken) => `${name} at 1280: ${broken}`));
        if (withAxe) await checkScreen(page, `console-layout-${locale}-${name}`);
        await page.setViewportSize(PHONE);
        found.push(...(await wordBreaks(page)).map((broken) => `${name} at 390: ${broken}`));
        found.push(...(await layoutBreaks(page)).map((broken) => `${name} at 390: ${broken}`));
        if (withAxe) await checkScreen(page, `console-layout-${locale}-${name}-phone`);
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
