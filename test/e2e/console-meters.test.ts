import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { newPerson, openShop, sayIn, screenshotFailure, signUp, startBrowsing, stopBrowsing, type ShopApi } from "./browser.js";
import { screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const SCOPES = ["customers:write", "events:write", "meters:read", "products:write", "subscriptions:write"];

const inGerman = screenChecks("de", "meters");
const inEnglish = screenChecks("en", "meters");
const english = sayIn("en");

/** What the seller's system reports: one customer's usage in Europe, another's in the US, and events the meter must leave out. */
async function ingestUsage(api: ShopApi, ada: string, bob: string) {
  const event = (customer_id: string, name: string, tokens: number, region: string) => ({ name, customer_id, metadata: { tokens, region } });
  await api("/v1/events/ingest", {
    events: [event(ada, "api_call", 10, "eu"), event(ada, "api_call", 20, "eu"), event(bob, "api_call", 5, "us"), event(ada, "api_call", 100, "asia"), event(bob, "other_call", 1000, "eu")],
  });
}

/** Reloads until `shown` appears: the measurer counts ingested events a moment after they arrive. */
async function reloadUntil(page: Page, shown: Locator) {
  for (let attempt = 0; attempt < 30; attempt++) {
    if (await shown.waitFor({ timeout: 1_000 }).then(() => true, () => false)) return;
    await page.reload();
  }
  await shown.waitFor({ timeout: 1_000 });
}

/** The cells of the meter's row in the card titled `card`. */
async function meterRow(page: Page, card: string): Promise<string[]> {
  const row = page.getByRole("region", { name: card }).getByRole("row").filter({ hasText: "KI-Tokens" });
  await row.waitFor();
  return row.getByRole("cell").locator(".cell-value").allTextContents();
}

describe("usage billing in the console", () => {
  it("makes and edits a meter with the filter builder in German, is told why it cannot archive it, charts what it measured of ingested events, lists the events by name and customer with their metadata and shows a customer's meter and a subscription's usage so far in English, at desktop and phone width", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "de", viewport: { width: 1280, height: 800 } });
    await signUp(page, "Mia Meter", `meters-${stamp}@example.com`);
    const slug = `metered-${stamp}`;
    const { api } = await openShop(page, "Metered", slug, SCOPES);
    const ada = await api<{ id: string }>("/v1/customers/", { email: `ada-${stamp}@example.com`, name: "Ada" });
    const bob = await api<{ id: string }>("/v1/customers/", { email: `bob-${stamp}@example.com`, name: "Bob" });

    // No meters yet: the seller starts one from the list.
    await page.goto(`/${slug}/meters`);
    await page.getByText(say("seller.meters.none")).waitFor();
    await page.getByRole("link", { name: say("seller.meters.create") }).first().click();

    // The filter builder: API calls, from Europe or the US; the sum of their tokens.
    await page.getByLabel(say("seller.meter.name")).fill("KI-Tokens");
    const filter = page.getByRole("group", { name: say("seller.meter.filter") });
    const first = filter.getByRole("group", { name: say("seller.meter.clause", { number: 1 }) }).first();
    await first.getByLabel(say("seller.meter.property")).fill("name");
    await first.getByLabel(say("seller.meter.operator")).selectOption("eq");
    await first.getByLabel(say("seller.meter.value")).fill("api_call");
    await filter.getByRole("button", { name: say("seller.meter.addGroup") }).click();
    const group = filter.getByRole("group", { name: say("seller.meter.group", { number: 1 }) });
    await group.getByLabel(say("seller.meter.match")).selectOption("or");
    await group.getByRole("button", { name: say("seller.meter.addClause") }).click();
    for (const [number, region] of [[1, "eu"], [2, "us"]] as const) {
      const clause = group.getByRole("group", { name: say("seller.meter.clause", { number }) });
      await clause.getByLabel(say("seller.meter.property")).fill("region");
      await clause.getByLabel(say("seller.meter.value")).fill(region);
    }
    await page.getByLabel(say("seller.meter.aggregation")).selectOption("sum");

    // A sum needs the key it adds up, said beside its field.
    await page.getByRole("button", { name: say("seller.meter.create") }).click();
    await page.getByText(say("forms.meter.aggregationProperty")).waitFor();
    await inGerman.checkConsole(page, "form");
    await inGerman.checkPhone(page, "form");
    await page.getByLabel(say("seller.meter.aggregationProperty")).fill("tokens");
    await page.getByRole("button", { name: say("seller.meter.create") }).click();

    // The meter's page says what it counts, in words.
    await page.getByRole("heading", { name: "KI-Tokens", level: 1 }).waitFor();
    await page.getByText(`name ${say("seller.meters.operator.eq")} "api_call" ${say("seller.meters.conjunction.and")} (region ${say("seller.meters.operator.eq")} "eu" ${say("seller.meters.conjunction.or")} region ${say("seller.meters.operator.eq")} "us")`).waitFor();

    // Ada is on a plan that bills the meter: 2 cents a token.
    const meterId = new URL(page.url()).pathname.split("/").pop() ?? "";
    const plan = await api<{ id: string }>("/v1/products/", {
      name: "Pay as you go",
      recurring_interval: "month",
      prices: [{ amount_type: "free" }, { amount_type: "metered_unit", meter_id: meterId, unit_amount: "2", price_currency: "usd" }],
    });
    const subscription = await api<{ id: string }>("/v1/subscriptions/", { product_id: plan.id, customer_id: ada.id });

    // Usage arrives through the API; the chart and its total show what passed the filter: 10 + 20 + 5 tokens.
    await ingestUsage(api, ada.id, bob.id);
    await reloadUntil(page, page.getByText(say("seller.meter.quantities.total", { total: "35" })));
    await page.getByRole("img", { name: new RegExp(say("seller.meter.quantities.quantity")) }).waitFor();
    await page.getByLabel(say("seller.meter.quantities.customer"), { exact: true }).selectOption({ label: `ada-${stamp}@example.com` });
    await page.getByText(say("seller.meter.quantities.total", { total: "30" })).waitFor();
    // The plan still bills by the meter, so it stays active, and the seller is told why.
    await page.getByRole("button", { name: say("seller.meter.page.archive") }).click();
    await page.getByRole("alert").getByText(say("seller.meter.page.inUse")).waitFor();
    await inGerman.checkConsole(page, "meter");
    await inGerman.checkPhone(page, "meter");

    // The meters list: its name, what it measures, its filter.
    await page.goto(`/${slug}/meters`);
    const row = page.getByRole("row").filter({ hasText: "KI-Tokens" });
    await row.getByText(say("seller.meters.aggregationOf", { aggregation: say("seller.meters.aggregation.sum"), property: "tokens" })).waitFor();
    await inGerman.checkConsole(page, "list");
    await inGerman.checkPhone(page, "list");

    // The events, in English: by name, then by customer; an event's metadata opens.
    await page.goto(`/${slug}/events?locale=en`);
    const events = page.getByRole("table").locator("tbody tr");
    await expect.poll(() => events.count()).toBe(5);
    await page.getByLabel(english("seller.events.filter.name")).selectOption("api_call");
    await expect.poll(() => events.count()).toBe(4);
    await page.getByLabel(english("seller.events.filter.customer"), { exact: true }).selectOption({ label: `bob-${stamp}@example.com` });
    await expect.poll(() => events.count()).toBe(1);
    await events.getByText(english("seller.events.properties", { count: 2 })).click();
    await events.locator("pre").getByText('"tokens": 5').waitFor();
    await inEnglish.checkConsole(page, "events");
    await inEnglish.checkPhone(page, "events");

    // Ada's page: what she consumed, her credits and her balance on the meter.
    await page.goto(`/${slug}/customers/${ada.id}?locale=en`);
    expect(await meterRow(page, english("seller.customerMeters.title"))).toEqual(["KI-Tokens", "30", "0", "-30"]);
    await inEnglish.checkConsole(page, "customer");
    await inEnglish.checkPhone(page, "customer");

    // Her subscription: what she used so far this period, and what it comes to.
    await page.goto(`/${slug}/subscriptions/${subscription.id}?locale=en`);
    expect(await meterRow(page, english("seller.subscriptionUsage.title"))).toEqual(["KI-Tokens", "30", "0", "$0.60"]);
    await inEnglish.checkConsole(page, "subscription");
    await inEnglish.checkPhone(page, "subscription");

    // Back in German, the meter's form holds its filter as it was made; a new name keeps what it measured.
    await page.goto(`/${slug}/meters/${meterId}/edit`);
    const edited = page.getByRole("group", { name: say("seller.meter.group", { number: 1 }) }).getByRole("group", { name: say("seller.meter.clause", { number: 2 }) });
    expect(await edited.getByLabel(say("seller.meter.value")).inputValue()).toBe("us");
    expect(await page.getByLabel(say("seller.meter.aggregationProperty")).inputValue()).toBe("tokens");
    await page.getByLabel(say("seller.meter.name")).fill("KI-Tokens gesamt");
    await page.getByRole("button", { name: say("seller.meter.save") }).click();
    await page.getByRole("heading", { name: "KI-Tokens gesamt", level: 1 }).waitFor();
    await page.getByText(say("seller.meter.quantities.total", { total: "35" })).waitFor();
  });
});
