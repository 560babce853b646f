import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing } from "./browser.js";
import { layoutBreaks, screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const { checkConsole } = screenChecks("pl", "console-products");

// These run in the page: the test's own types know no DOM, so they are written as scripts.

/** Records every text the upload's progress shows from now on: it may come and go within a frame. */
const RECORD_PROGRESS = `(() => {
  const seen = (window.progressSeen = []);
  new MutationObserver(() => {
    const shown = document.querySelector(".upload-progress span")?.textContent;
    if (shown && seen.at(-1) !== shown) seen.push(shown);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
const PROGRESS_SEEN = "window.progressSeen";
/** Whether the page's image named `alt` loaded: a broken one has no width. */
const imageLoaded = (alt: string) => `[...document.images].some((img) => img.alt === ${JSON.stringify(alt)} && img.complete && img.naturalWidth > 0)`;

const amountOf = (text: string | null) => text?.replace(/\u00a0/g, " ");

describe("the seller's products", () => {
  it("makes a monthly product with a trial, an image, a benefit and a required question, changes its price, previews its checkout and archives it, in Polish and at phone width", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, context, say } = await newPerson({ locale: "pl" });
    await signUp(page, "Zofia Sprzedawczyni", `products-${Date.now()}@example.com`);
    const slug = `sklep-${Date.now()}`;
    const { organizationId, api } = await openShop(page, "Sklep Zofii", slug, ["products:read", "benefits:write", "custom_fields:write"]);
    // Benefits and custom fields have screens of their own: seeded here as a seller's backend would.
    await api("/v1/benefits/", { organization_id: organizationId, type: "custom", description: "Dostęp do społeczności", properties: { note: null } });
    await api("/v1/custom-fields/", { organization_id: organizationId, type: "text", slug: "firma", name: "Nazwa firmy", properties: {} });

    await page.goto(`/${slug}/products/new`);
    await page.getByRole("heading", { name: say("seller.newProduct.title") }).waitFor();
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Atlas Pro");
    await page.getByLabel(say("seller.productForm.trial"), { exact: true }).selectOption("day");
    await page.getByLabel(say("seller.productForm.trialCount")).fill("14");
    await page.getByLabel(say("seller.productForm.amount")).fill("19");

    // The image goes up at once, slowly enough here for its progress to be seen, and shows as a thumbnail.
    const image = await page.screenshot({ fullPage: true });
    const network = await context.newCDPSession(page);
    await network.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: Math.ceil(image.length / 2) });
    await page.evaluate(RECORD_PROGRESS);
    await page.getByLabel(say("seller.productForm.addImage")).setInputFiles({ name: "atlas.png", mimeType: "image/png", buffer: image });
    await page.getByText(say("ui.fileUpload.uploaded", { name: "atlas.png" })).waitFor();
    await network.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = await page.evaluate<string[]>(PROGRESS_SEEN);
    expect(seen[0]).toBe(say("ui.fileUpload.uploading", { name: "atlas.png", percent: 0 }));
    expect(seen.length, seen.join(" | ")).toBeGreaterThan(2);
    await expect.poll(() => page.evaluate<boolean>(imageLoaded("atlas.png"))).toBe(true);

    await page.getByLabel("Nazwa firmy", { exact: true }).check();
    await page.getByLabel(say("seller.productForm.fieldRequired", { name: "Nazwa firmy" })).check();
    await page.getByLabel("Dostęp do społeczności").check();
    await checkConsole(page, "new");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();

    // In the list, with its price a month; opened, it shows everything it was made with.
    const row = page.getByRole("row", { name: /Atlas Pro/ });
    await expect.poll(async () => amountOf(await row.textContent())).toContain(say("price.perInterval", { price: "19,00 USD", count: 1, interval: "month" }));
    await row.getByRole("link", { name: "Atlas Pro" }).click();
    await page.getByRole("heading", { name: "Atlas Pro" }).waitFor();
    await expect.poll(() => page.getByLabel(say("seller.productForm.trial"), { exact: true }).inputValue()).toBe("day");
    expect(await page.getByLabel(say("seller.productForm.trialCount")).inputValue()).toBe("14");
    await page.getByRole("img", { name: "atlas.png" }).waitFor();
    expect(await page.getByLabel(say("seller.productForm.fieldRequired", { name: "Nazwa firmy" })).isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel("Dostęp do społeczności").isChecked()).toBe(true);
    await checkConsole(page, "product");

    // A new price replaces the old one, which the API keeps, archived, for the orders made with it.
    await page.getByLabel(say("seller.productForm.amount")).fill("29");
    await page.getByRole("button", { name: say("seller.product.save") }).click();
    await page.getByText(say("seller.product.saved")).waitFor();
    await expect.poll(async () => amountOf(await page.locator(".page-header").textContent())).toContain(say("price.perInterval", { price: "29,00 USD", count: 1, interval: "month" }));
    expect(await page.getByLabel(say("seller.productForm.amount")).inputValue()).toBe("29");
    const [product] = (await api<{ items: { prices: { price_amount: number; is_archived: boolean }[] }[] }>(`/v1/products/?organization_id=${organizationId}`)).items;
    expect(product?.prices.map(({ price_amount, is_archived }) => ({ price_amount, is_archived })).sort((a, b) => a.price_amount - b.price_amount)).toEqual([
      { price_amount: 1900, is_archived: true },
      { price_amount: 2900, is_archived: false },
    ]);

    // The preview is a real checkout of the product, in a new tab.
    const [preview] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: say("seller.product.preview") }).click()]);
    await preview.waitForURL(/\/checkout\//);
    await preview.getByRole("heading", { name: /Atlas Pro/ }).waitFor();
    await preview.close();

    // Archived after asking; the product says so and offers to bring it back.
    await page.getByRole("button", { name: say("seller.product.archive") }).click();
    await page.getByRole("dialog", { name: say("seller.product.archiveTitle", { name: "Atlas Pro" }) }).waitFor();
    await checkConsole(page, "archive-dialog");
    await page.getByRole("dialog").getByRole("button", { name: say("seller.product.archive") }).click();
    await page.getByText(say("seller.product.archivedNote")).waitFor();
    await page.getByRole("button", { name: say("seller.product.unarchive") }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "archived-phone");
  });

  it("makes a per-seat price with graduated tiers, each starting where the one before ends, and shows it again as made", { timeout: 150_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, say } = await newPerson({ locale: "pl" });
    await signUp(page, "Tomasz Sprzedawca", `seats-${Date.now()}@example.com`);
    const slug = `zespoly-${Date.now()}`;
    const { organizationId, api } = await openShop(page, "Zespoły", slug, ["products:read"]);

    await page.goto(`/${slug}/products/new`);
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Plan zespołowy");
    await page.getByLabel(say("seller.productForm.priceType")).selectOption("seat_based");
    await page.getByLabel(say("seller.productForm.seatTierType")).selectOption("graduated");
    const tier = (number: number, from: number) => page.getByRole("group", { name: say("seller.productForm.seatTier", { number, from }) });
    await tier(1, 1).getByLabel(say("seller.productForm.seatTierUpTo")).fill("4");
    await tier(1, 1).getByLabel(say("seller.productForm.pricePerSeat")).fill("12");
    await page.getByRole("button", { name: say("seller.productForm.addSeatTier") }).click();
    // The second tier starts where the first ends; left without an end, it has no limit.
    await tier(2, 5).getByLabel(say("seller.productForm.pricePerSeat")).fill("abc");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();
    await tier(2, 5).getByText(say("forms.amount.perSeat")).waitFor();
    await tier(2, 5).getByLabel(say("seller.productForm.pricePerSeat")).fill("10");
    await checkConsole(page, "seat-tiers");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();

    const row = page.getByRole("row", { name: /Plan zespołowy/ });
    await expect.poll(async () => amountOf(await row.textContent())).toContain(amountOf(say("seller.price.perSeat", { amount: "10,00 USD", kind: "tiered" })));
    const [product] = (await api<{ items: { prices: { seat_tiers?: unknown }[] }[] }>(`/v1/products/?organization_id=${organizationId}`)).items;
    expect(product?.prices[0]?.seat_tiers).toEqual({
      seat_tier_type: "graduated",
      tiers: [
        { min_seats: 1, max_seats: 4, price_per_seat: 1200 },
        { min_seats: 5, max_seats: null, price_per_seat: 1000 },
      ],
      minimum_seats: 1,
      maximum_seats: null,
    });

    await row.getByRole("link", { name: "Plan zespołowy" }).click();
    await expect.poll(() => tier(1, 1).getByLabel(say("seller.productForm.seatTierUpTo")).inputValue()).toBe("4");
    expect(await tier(2, 5).getByLabel(say("seller.productForm.pricePerSeat")).inputValue()).toBe("10");
    expect(await page.getByLabel(say("seller.productForm.seatTierType")).inputValue()).toBe("graduated");
  });
});
