import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing } from "./browser.js";
import { layoutBreaks, screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const { checkConsole } = screenChecks("de", "console");

describe("the seller's console", () => {
  it("lists a seller's products and makes a new one, its mistakes said next to its fields, in German and at phone width", { timeout: 120_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, say } = await newPerson({ locale: "de" });
    await signUp(page, "Grete Verkäuferin", `console-${Date.now()}@example.com`);
    const slug = `laden-${Date.now()}`;
    await openShop(page, "Gretes Laden", slug, ["products:read"]);

    // A new seller starts with nothing, and is told what a product is and offered to make one.
    await page.goto(`/${slug}/products`);
    await page.getByText(say("seller.products.none")).waitFor();
    await checkConsole(page, "products-empty");
    await page.getByRole("link", { name: say("seller.products.create") }).first().click();

    // What the form checks before sending: a name, and an amount of at least 0.50.
    await page.getByRole("heading", { name: say("seller.newProduct.title") }).waitFor();
    await page.getByLabel(say("seller.productForm.amount")).fill("0,1");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();
    await page.getByText(say("forms.product.name")).waitFor();
    await page.getByText(say("forms.amount.tooSmall")).waitFor();
    await checkConsole(page, "new-product-refused");
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Atlas Pro");
    await page.getByLabel(say("seller.productForm.amount")).fill("19");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();

    // Back in the list, the product with its price in the price's currency, written the German way.
    const row = page.getByRole("row", { name: /Atlas Pro/ });
    await row.waitFor();
    // Intl puts a no-break space between the amount and its symbol.
    await expect.poll(async () => (await row.textContent())?.replace(/\u00a0/g, " ")).toContain(say("price.perInterval", { price: "19,00 $", count: 1, interval: "month" }));
    await page.getByText(say("seller.products.total", { total: 1 })).waitFor();
    await checkConsole(page, "products");

    // A search the server answers with nothing says so.
    await page.getByLabel(say("seller.products.search")).fill("Zeppelin");
    await page.getByText(say("seller.products.noMatch")).waitFor();

    // On a phone the filters fold behind one button, which says one is set.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: say("ui.filters.toggleSet", { active: 1 }) }).click();
    await page.getByLabel(say("seller.products.search")).fill("");
    await row.waitFor();
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "products-phone");
  });
});
