import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { WebhookReceiver } from "../stacks/receiver.js";
import { fillCheckout, newPerson, openShop, screenshotFailure, signUp, startBrowsingWith, stopBrowsing, type Say, type ShopApi } from "./browser.js";
import { screenChecks } from "./text-checks.js";

beforeAll(() => startBrowsingWith({ WEBHOOKS_ALLOW_PRIVATE_URLS: "true" }), 240_000);
afterAll(stopBrowsing);

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/** Screenshots to look at, at both widths. */
const SHOTS = "/tmp/shots-dashboard-polish";

/** Intl writes "12,00 $" with no-break spaces; the page and the test agree once they are plain. */
const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ").trim();
const dollarsIn = (locale: string, cents: number) => plain(new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(cents / 100));

/** Buys `productId` on the hosted checkout with the sandbox card, in English, as a buyer does. */
async function buy(api: ShopApi, productId: string, email: string, button: RegExp): Promise<void> {
  const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [productId] });
  const buyer = await newPerson();
  await buyer.page.goto(`/checkout/${checkout.client_secret}`);
  await fillCheckout(buyer.page, buyer.say, { email, country: "DE", card: "4242 4242 4242 4242" });
  await buyer.page.getByRole("button", { name: button }).click();
  await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  await buyer.context.close();
}

/** Whether the whole of `locator` is inside the window as it is scrolled now. */
async function inViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const window = locator.page().viewportSize();
  return box !== null && window !== null && box.y >= 0 && box.y + box.height <= window.height;
}

const attributes = async (locator: Locator, name: string) => Promise.all((await locator.all()).map((each) => each.getAttribute(name)));
const checked = async (locator: Locator) => Promise.all((await locator.all()).map((each) => each.isChecked()));

/** A dashboard card by its name, and its figure. */
const card = (page: Page, say: Say, metric: string) => page.getByRole("region", { name: say(`seller.dashboard.metric.${metric}`), exact: true });
const figureOf = async (page: Page, say: Say, metric: string) => plain(await card(page, say, metric).locator(".metric-figure").textContent());

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const inTurkish = screenChecks("tr", "dashboard-polish", /^webhook\.test$|^[a-z_]+\.[a-z_]+$/);
const inRussian = screenChecks("ru", "dashboard-polish-ru");

describe("the dashboard's figures and the console's polish", () => {
  it("shows MRR, trialing MRR and ARPU that agree with one paying and one trialing plan, each labelled and compared with the previous period; Saved beside Save; dates in Turkish order; our own file picker in Russian; a webhook test event in the log", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "tr", viewport: { width: 1280, height: 800 } });
    await signUp(page, "Deniz Satıcı", `panel-${stamp}@example.com`);
    const slug = `panel-${stamp}`;
    const { api } = await openShop(page, "Deniz Yazılım", slug, ["products:write", "checkouts:write", "subscriptions:read"]);
    const monthly = { recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_200, price_currency: "usd" }] };
    const paying = await api<{ id: string }>("/v1/products/", { name: "Pro", ...monthly });
    const trying = await api<{ id: string }>("/v1/products/", { name: "Pro deneme", trial_interval: "day", trial_interval_count: 14, ...monthly });
    await buy(api, paying.id, `ada-${stamp}@example.com`, /^Pay /);
    await buy(api, trying.id, `grace-${stamp}@example.com`, /^Start free trial$/);

    // The dashboard: the paying plan in MRR, the trial apart, ARPU their MRR over two customers.
    await page.goto(`/${slug}`);
    await card(page, say, "monthlyRecurringRevenue").waitFor();
    await expect.poll(() => figureOf(page, say, "activeSubscriptions"), { timeout: 15_000 }).toBe("2");
    expect(await figureOf(page, say, "monthlyRecurringRevenue")).toBe(dollarsIn("tr", 1_200));
    expect(await figureOf(page, say, "trialMonthlyRecurringRevenue")).toBe(dollarsIn("tr", 1_200));
    expect(await figureOf(page, say, "averageRevenuePerUser")).toBe(dollarsIn("tr", 600));
    expect(await figureOf(page, say, "netRevenue")).toBe(dollarsIn("tr", 1_200));
    // Each card says what it counts, and how it stands against the 30 days before.
    await card(page, say, "netRevenue").getByText(say("seller.dashboard.about.netRevenue")).waitFor();
    await card(page, say, "grossRevenue").getByText(say("seller.dashboard.about.grossRevenue")).waitFor();
    await card(page, say, "trialMonthlyRecurringRevenue").getByText(say("seller.dashboard.about.trialMonthlyRecurringRevenue")).waitFor();
    await card(page, say, "monthlyRecurringRevenue").getByText(say("seller.dashboard.previousWas", { figure: dollarsIn("tr", 0), days: 30 })).waitFor();
    // All twelve are shown; a saved dashboard keeps ten at most, so this choice is not offered for saving.
    expect(await page.getByRole("button", { name: say("seller.dashboard.saved.saveAs") }).isDisabled()).toBe(true);
    await page.getByText(say("seller.dashboard.saved.tooMany", { max: 10 })).waitFor();
    await inTurkish.checkConsole(page, "dashboard");
    await shoot(page, "dashboard-1280");
    await inTurkish.checkPhone(page, "dashboard");
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, "dashboard-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Custom dates are chosen day, month, year: Turkish writes the day first.
    await page.getByLabel(say("seller.dashboard.range"), { exact: true }).selectOption("custom");
    const from = page.locator(".date-input").first().locator("select");
    expect(await attributes(from, "aria-label")).toEqual([say("ui.dateInput.day"), say("ui.dateInput.month"), say("ui.dateInput.year")]);
    expect(await from.nth(1).locator("option:checked").textContent()).toBe(new Intl.DateTimeFormat("tr", { month: "long" }).format(new Date(Date.now() - 29 * 86_400_000)));
    await inTurkish.checkConsole(page, "dashboard-custom");

    // A settings form says it saved beside its button, in sight.
    await page.goto(`/${slug}/settings`);
    const save = page.getByRole("button", { name: say("seller.settings.mail.save") });
    await save.click();
    const saved = page.locator(".form-footer").filter({ has: save }).getByText(say("seller.settings.mail.saved"));
    await saved.waitFor();
    expect(await inViewport(saved)).toBe(true);
    expect(await inViewport(save)).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, "settings-saved-1280.png") });
    await inTurkish.checkPhone(page, "settings");

    // A webhook endpoint for every event at once; a test event is signed, sent and logged.
    await page.goto(`/${slug}/webhooks`);
    await page.getByRole("button", { name: say("seller.webhooks.create") }).first().click();
    await page.getByLabel(say("seller.webhooks.form.url")).fill(receiver.url);
    await page.getByRole("button", { name: say("seller.webhooks.form.selectAll") }).click();
    const events = page.locator(".event-types input[type=checkbox]");
    expect(await checked(events)).not.toContain(false);
    await page.getByRole("button", { name: say("seller.webhooks.form.clear") }).click();
    expect(await checked(events)).not.toContain(true);
    await page.getByRole("button", { name: say("seller.webhooks.form.selectAll") }).click();
    await page.getByRole("button", { name: say("seller.webhooks.createSave") }).click();
    await page.getByRole("heading", { name: receiver.url }).waitFor();
    await page.getByRole("button", { name: say("seller.webhook.deliveries.sendTest") }).click();
    await page.getByText(say("seller.webhook.deliveries.testSent")).waitFor();
    const [test] = await receiver.waitFor(1, (request) => request.type === "webhook.test");
    expect(test).toBeDefined();
    await page.getByRole("row").filter({ hasText: "webhook.test" }).first().waitFor({ timeout: 15_000 });
    await inTurkish.checkConsole(page, "webhook-tested");
    await shoot(page, "webhook-1280");
    await inTurkish.checkPhone(page, "webhook-tested");

    // In Russian, the file picker is ours: its button and "no file" in Russian, not the browser's English.
    const russian = await newPerson({ locale: "ru", viewport: { width: 1280, height: 800 }, signedInAs: { context: page.context(), page, say } });
    await russian.page.goto(`/${slug}/products/new`);
    await russian.page.getByText(russian.say("ui.fileUpload.noneChosen")).waitFor();
    await russian.page.getByText(russian.say("seller.productForm.addImage"), { exact: true }).waitFor();
    await inRussian.checkConsole(russian.page, "product-new");
    await shoot(russian.page, "file-picker-ru-1280");
    await inRussian.checkPhone(russian.page, "product-new");
  });

  it("serves /docs titled Tollgate API, a page limit of at most 100, and nothing the page's policy refuses", { timeout: 60_000 }, async () => {
    const { page } = await newPerson();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    page.on("requestfailed", (request) => refused.push(`${request.url()}: ${request.failure()?.errorText ?? ""}`));
    const logo = page.waitForResponse((response) => response.url().endsWith("/docs/redoc-logo-mini.svg"));
    await page.goto("/docs");
    await page.getByRole("heading", { name: /^Tollgate API \(\d{4}-\d{2}\)$/ }).waitFor();
    await page.getByRole("heading", { name: "Create a webhook endpoint" }).waitFor();
    const document = (await (await page.request.get("/v1/openapi.json")).json()) as { tags: { name: string; "x-displayName": string }[]; paths: Record<string, { get?: { parameters?: { name: string; schema: { maximum?: number } }[] } }> };
    expect(document.paths["/v1/products/"]?.get?.parameters?.find((parameter) => parameter.name === "limit")?.schema.maximum).toBe(100);
    expect(JSON.stringify(document)).not.toContain("9007199254740991");
    const sections = document.tags.map((tag) => tag["x-displayName"]);
    expect(sections).toContain("Custom fields");
    expect(sections).toContain("License keys");
    expect(sections).toEqual([...sections].sort((one, other) => one.localeCompare(other)));
    // Redoc's logo comes from the site, as the page's policy wants.
    expect((await logo).status()).toBe(200);
    await page.screenshot({ path: path.join(SHOTS, "docs-1280.png") });
    expect(refused).toEqual([]);
  });
});
