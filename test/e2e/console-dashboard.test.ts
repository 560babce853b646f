import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Page } from "playwright-core";
import { WebhookReceiver } from "../stacks/receiver.js";
import { checkScreen, fillCheckout, newPerson, openShop, screenshotFailure, signUp, startBrowsingWith, stopBrowsing } from "./browser.js";
import { layoutBreaks, untranslated, visibleTexts } from "./text-checks.js";

// The seller's endpoint is a server on this machine, which the dispatcher refuses unless told otherwise.
beforeAll(() => startBrowsingWith({ WEBHOOKS_ALLOW_PRIVATE_URLS: "true" }), 240_000);
afterAll(stopBrowsing);

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/** Polar's event names (order.paid), shown as code: some are also ids of messages, which the check would take them for. */
const EVENT_NAME = /^[a-z_]+\.[a-z_]+$/;

/** The screen as it stands: in Russian throughout, and nothing serious for axe. */
async function checkConsole(page: Page, name: string): Promise<void> {
  expect(untranslated(await visibleTexts(page), "ru").filter((text) => !EVENT_NAME.test(text)), name).toEqual([]);
  await checkScreen(page, `console-${name}`);
}

/** What an element says, with Intl's no-break spaces as plain ones. */
const textOf = async (page: Page, role: "region", name: string) => (await page.getByRole(role, { name, exact: true }).textContent())?.replace(/[\u00a0\u202f]/g, " ") ?? "";

describe("the seller's dashboard and webhooks", () => {
  it("shows a sale in the figures, and delivers an event to the seller's endpoint, logged with its answer and sent again, in Russian and at phone width", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    const { page, say } = await newPerson({ locale: "ru" });
    await signUp(page, "Ада Продавщица", `dashboard-${Date.now()}@example.com`);
    const slug = `lavka-${Date.now()}`;
    const { api } = await openShop(page, "Лавка Ады", slug, ["products:write", "checkouts:write"]);

    // A buyer pays 19 dollars for an e-book on the hosted checkout.
    const ebook = await api<{ id: string }>("/v1/products/", { name: "Атлас", prices: [{ amount_type: "fixed", price_amount: 1_900, price_currency: "usd" }] });
    const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [ebook.id] });
    const buyer = await newPerson();
    await buyer.page.goto(`/checkout/${checkout.client_secret}`);
    await fillCheckout(buyer.page, buyer.say, { email: "reader@example.com", country: "DE", card: "4242 4242 4242 4242" });
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();

    // The seller's space opens on the dashboard, whose revenue and orders count the sale.
    await page.goto(`/${slug}`);
    await page.getByRole("heading", { name: say("seller.dashboard.title") }).waitFor();
    const revenue = say("seller.dashboard.metric.revenue");
    const dollars = new Intl.NumberFormat("ru", { style: "currency", currency: "USD" }).format(19).replace(/[\u00a0\u202f]/g, " ");
    await expect.poll(() => textOf(page, "region", revenue), { timeout: 10_000 }).toContain(dollars);
    expect(await textOf(page, "region", say("seller.dashboard.metric.orders"))).toMatch(new RegExp(`^${say("seller.dashboard.metric.orders")}1`));
    expect(await textOf(page, "region", say("seller.dashboard.metric.averageOrderValue"))).toContain(dollars);
    // The chart's figures, for those who cannot see it, in a table.
    await page.getByRole("region", { name: revenue, exact: true }).getByText(say("ui.chart.figures")).click();
    const figures = page.getByRole("region", { name: revenue, exact: true }).getByRole("table");
    await figures.waitFor();
    expect((await figures.textContent())?.replace(/[\u00a0\u202f]/g, " ")).toContain(dollars);
    await checkConsole(page, "dashboard");

    // No endpoint yet: the seller is told what one is, and makes one; the form first says what is missing.
    await page.getByRole("link", { name: say("seller.space.webhooks") }).click();
    await page.getByText(say("seller.webhooks.none")).waitFor();
    await checkConsole(page, "webhooks-empty");
    await page.getByRole("button", { name: say("seller.webhooks.create") }).first().click();
    await page.getByRole("button", { name: say("seller.webhooks.createSave") }).click();
    await page.getByText(say("forms.webhook.url")).waitFor();
    await page.getByText(say("forms.webhook.events")).waitFor();
    await checkConsole(page, "webhooks-new-refused");
    receiver.answer = () => ({ status: 200, body: "спасибо" });
    await page.getByLabel(say("seller.webhooks.form.url")).fill(receiver.url);
    await page.getByLabel("product.created").check();
    await page.getByRole("button", { name: say("seller.webhooks.createSave") }).click();

    // The endpoint's screen: its secret shown on request, the one its requests are signed with.
    await page.getByRole("heading", { name: receiver.url }).waitFor();
    await page.getByText(say("seller.webhook.deliveries.none")).waitFor();
    await page.getByRole("button", { name: say("seller.webhook.secret.reveal") }).click();
    const secret = (await page.locator("code.secret").textContent()) ?? "";
    expect(secret).toMatch(/^polar_whs_/);
    receiver.secrets = [secret];

    // A new product is told to the endpoint, and the log shows the request and the endpoint's answer.
    await api("/v1/products/", { name: "Глобус", prices: [{ amount_type: "fixed", price_amount: 4_500, price_currency: "usd" }] });
    const [delivered] = await receiver.waitFor(1, (request) => request.type === "product.created");
    expect(delivered?.verified).toBe(true);
    await page.reload();
    const delivery = page.getByRole("row", { name: new RegExp(say("seller.webhook.deliveries.succeeded", { code: "200" }).replace(/[()]/g, "\\$&")) });
    await delivery.waitFor();
    await delivery.getByText(say("seller.webhook.deliveries.details")).click();
    await delivery.getByText("спасибо").waitFor();
    await delivery.getByText(/Глобус/).first().waitFor();
    await checkConsole(page, "webhook");

    // Sent again: the endpoint gets the same event once more, and the log has both deliveries.
    await delivery.getByRole("button", { name: say("seller.webhook.deliveries.redeliver") }).click();
    await page.getByText(say("seller.webhook.deliveries.redelivered")).waitFor();
    const both = await receiver.waitFor(2, (request) => request.type === "product.created");
    expect(both[1]?.id).toBe(both[0]?.id);
    await page.reload();
    await expect.poll(() => page.getByRole("row", { name: new RegExp(say("seller.webhook.deliveries.redeliver")) }).count(), { timeout: 10_000 }).toBe(2);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "webhook-phone");
    await page.getByRole("link", { name: say("seller.space.dashboard") }).click();
    await page.getByRole("region", { name: revenue, exact: true }).waitFor();
    expect(await layoutBreaks(page)).toEqual([]);
    await checkConsole(page, "dashboard-phone");
  });
});
