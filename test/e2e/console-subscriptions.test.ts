import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { fillCheckout, newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing } from "./browser.js";
import { screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const { checkConsole, checkPhone } = screenChecks("pl", "console");

describe("the seller's subscriptions, access tokens and settings", () => {
  it("cancels a subscription at the period's end and keeps it, moves it to another plan, sees it renew on the test clock with its MRR, makes a token seen once and revokes it, and keeps a changed setting, in Polish", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "pl", viewport: { width: 1280, height: 800 } });
    await signUp(page, "Zofia Sprzedawczyni", `subskrypcje-${stamp}@example.com`);
    const slug = `sklep-${stamp}`;
    const { api } = await openShop(page, "Sklep Zofii", slug, ["products:write", "checkouts:write"]);
    const basic = await api<{ id: string }>("/v1/products/", { name: "Plan Podstawowy", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_000, price_currency: "usd" }] });
    await api("/v1/products/", { name: "Plan Pro", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 3_000, price_currency: "usd" }] });

    // A buyer subscribes to the basic plan on the hosted checkout.
    const buyer = await newPerson();
    const buyerEmail = `kupujacy-${stamp}@example.com`;
    const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [basic.id] });
    await buyer.page.goto(`/checkout/${checkout.client_secret}`);
    await fillCheckout(buyer.page, buyer.say, { email: buyerEmail, country: "PL", card: "4242 4242 4242 4242" });
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();

    // The seller finds it among the subscriptions, active.
    await page.goto(`/${slug}/subscriptions`);
    const row = page.getByRole("row", { name: new RegExp(buyerEmail) });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(say("seller.subscription.status", { status: "active" }));
    await page.getByText(say("seller.subscriptions.total", { total: 1 })).waitFor();
    await checkConsole(page, "subscriptions");
    // Nothing is ending yet.
    await page.getByLabel(say("seller.subscriptions.filter.standing")).selectOption("ending");
    await page.getByText(say("seller.subscriptions.noMatch")).waitFor();
    await page.getByLabel(say("seller.subscriptions.filter.standing")).selectOption("active");
    await row.getByRole("link", { name: buyerEmail }).click();

    // Canceled at the period's end, it says when it ends; kept, it renews again.
    await page.getByRole("heading", { name: say("seller.subscription.title", { product: "Plan Podstawowy" }) }).waitFor();
    await checkConsole(page, "subscription");
    await page.getByRole("button", { name: say("seller.subscription.cancel") }).click();
    await page.getByText(say("seller.subscription.canceled")).waitFor();
    await page.getByRole("button", { name: say("seller.subscription.uncancel") }).waitFor();
    await expect.poll(() => page.locator(".facts").textContent()).toMatch(/Kończy się/);
    await page.getByRole("button", { name: say("seller.subscription.uncancel") }).click();
    await page.getByText(say("seller.subscription.uncanceled")).waitFor();
    await expect.poll(() => page.locator(".facts").textContent()).toContain(say("seller.subscription.status", { status: "active" }));

    // Moved to the Pro plan, the difference added to the next renewal: the page says what that does, then what the server did.
    await page.getByLabel(say("seller.planChange.product"), { exact: true }).selectOption({ label: "Plan Pro" });
    await page.getByLabel(say("seller.planChange.behaviour")).selectOption("prorate");
    await page.getByText(/różnica zostanie doliczona do odnowienia/).waitFor();
    await page.getByRole("button", { name: say("seller.planChange.submit") }).click();
    await page.getByRole("heading", { name: say("seller.subscription.title", { product: "Plan Pro" }) }).waitFor();
    await page.getByText(/^Teraz: Plan Pro, za 30,00/).waitFor();
    await checkPhone(page, "subscription");

    // Two months later on the sandbox's test clock (whatever the months' lengths), the subscription has
    // renewed: a renewal order of the Pro plan, and the dashboard's MRR counts the Pro plan.
    await page.goto(`/organizations/${slug}`);
    for (const ahead of [30, 60]) {
      await page.getByRole("button", { name: say("testClock.advance", { days: 30 }) }).click();
      await page.getByText(say("testClock.daysAhead", { days: ahead })).waitFor();
    }
    await page.goto(`/${slug}/orders`);
    const renewal = page.getByRole("row", { name: /Plan Pro/ }).first();
    await renewal.waitFor();
    await renewal.getByRole("link").first().click();
    await page.getByText(say("seller.orders.reason.subscriptionCycle")).waitFor();
    await checkConsole(page, "renewal-order");
    await page.goto(`/${slug}`);
    const mrr = page.getByRole("region", { name: say("seller.dashboard.metric.monthlyRecurringRevenue"), exact: true });
    await expect.poll(async () => (await mrr.textContent())?.replace(/[\u00a0\u202f]/g, " ")).toContain("30,00 USD");

    // A new token is shown once, with a warning; after that only its comment is listed.
    await page.goto(`/${slug}/access-tokens`);
    await page.getByLabel(say("seller.accessTokens.new.comment")).fill("Integracja CRM");
    await page.getByRole("button", { name: say("seller.accessTokens.new.create") }).click();
    await page.getByText(say("forms.accessToken.scopes")).waitFor();
    await page.getByRole("group", { name: "subscriptions" }).getByLabel(say("seller.accessTokens.new.read")).check();
    await page.getByRole("button", { name: say("seller.accessTokens.new.create") }).click();
    await page.getByRole("heading", { name: say("seller.accessTokens.created.title") }).waitFor();
    await page.getByText(say("seller.accessTokens.created.warning")).waitFor();
    await page.getByText(/^polar_oat_/).waitFor();
    await page.getByRole("button", { name: say("seller.accessTokens.created.copy") }).waitFor();
    await checkConsole(page, "access-token-created");
    await page.getByRole("button", { name: say("seller.accessTokens.created.done") }).click();
    await page.reload();
    const tokenRow = page.getByRole("row", { name: /Integracja CRM/ });
    await tokenRow.waitFor();
    await expect.poll(() => tokenRow.textContent()).toContain(say("seller.accessTokens.scopeCount", { count: 1 }));
    expect(await page.getByText(/^polar_oat_/).count()).toBe(0);
    await checkConsole(page, "access-tokens");
    await checkPhone(page, "access-tokens");
    await page.getByRole("button", { name: say("seller.accessTokens.revokeNamed", { comment: "Integracja CRM" }) }).click();
    await page.getByRole("dialog").getByRole("button", { name: say("seller.accessTokens.revoke") }).click();
    await tokenRow.waitFor({ state: "detached" });

    // A changed setting is kept after a reload.
    await page.goto(`/${slug}/settings`);
    const website = page.getByLabel(say("seller.settings.profile.website"));
    await website.fill("https://sklep-zofii.example.com");
    await page.getByRole("button", { name: say("seller.settings.profile.save") }).click();
    await page.getByText(say("seller.settings.profile.saved")).waitFor();
    await page.getByLabel(say("seller.settings.subscriptions.proration")).selectOption("prorate");
    await page.getByLabel(say("seller.settings.subscriptions.multiple")).check();
    await page.getByRole("button", { name: say("seller.settings.subscriptions.save") }).click();
    await page.getByText(say("seller.settings.subscriptions.saved")).waitFor();
    await page.getByLabel(say("seller.settings.mail.subscriptionPastDue")).uncheck();
    await page.getByRole("button", { name: say("seller.settings.mail.save") }).click();
    await page.getByText(say("seller.settings.mail.saved")).waitFor();
    await checkConsole(page, "settings");
    await page.reload();
    await expect.poll(() => page.getByLabel(say("seller.settings.profile.website")).inputValue()).toBe("https://sklep-zofii.example.com");
    expect(await page.getByLabel(say("seller.settings.subscriptions.proration")).inputValue()).toBe("prorate");
    expect(await page.getByLabel(say("seller.settings.subscriptions.multiple")).isChecked()).toBe(true);
    expect(await page.getByLabel(say("seller.settings.mail.subscriptionPastDue")).isChecked()).toBe(false);
    expect(await page.getByLabel(say("seller.settings.mail.orderConfirmation")).isChecked()).toBe(true);
    await checkPhone(page, "settings");
  });
});
