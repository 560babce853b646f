import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { ARTIFACTS, newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing, type ShopApi } from "./browser.js";
import { screenChecks } from "./text-checks.js";

let gateway: string;
beforeAll(async () => {
  gateway = (await startBrowsing()).url;
}, 240_000);
afterAll(stopBrowsing);

const SCOPES = ["products:write", "checkouts:write", "checkout_links:write", "benefits:write", "customers:write", "customer_sessions:write", "subscriptions:write"];
const DAY_MS = 86_400_000;

interface Subscription {
  id: string;
  customer_id: string;
  status: string;
  current_period_end: string;
  trial_end: string | null;
}

/** A buyer subscribes to `productId` as `email` with the sandbox's 4242 card, as the hosted checkout confirms it. */
async function subscribe(api: ShopApi, productId: string, email: string): Promise<Subscription> {
  const post = async <T,>(route: string, body: unknown): Promise<T> => {
    const response = await fetch(`${gateway}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.ok, `${route}: ${response.status}`).toBe(true);
    return (await response.json()) as T;
  };
  const card = await post<{ id: string }>("/v1/sandbox/confirmation-tokens", { card_number: "4242424242424242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 1, cvc: "123" });
  const checkout = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [productId] });
  await post(`/v1/checkouts/client/${checkout.client_secret}/confirm`, { customer_email: email, customer_billing_address: { country: "FR" }, confirmation_token_id: card.id });
  let subscription: Subscription | undefined;
  await expect
    .poll(async () => {
      const listed = await api<{ items: (Subscription & { customer: { email: string } })[] }>(`/v1/subscriptions/?product_id=${productId}&limit=100`);
      subscription = listed.items.find((item) => item.customer.email === email);
      return subscription?.status;
    }, { timeout: 15_000 })
    .toMatch(/^(trialing|active)$/);
  if (!subscription) throw new Error(`no subscription for ${email}`);
  return subscription;
}

/** The customer's portal, on this site rather than the stack's public address. */
async function portalOf(api: ShopApi, customerId: string): Promise<string> {
  const link = new URL((await api<{ customer_portal_url: string }>("/v1/customer-sessions/", { customer_id: customerId })).customer_portal_url);
  return `${link.pathname}${link.search}`;
}

/** A moment as a page in `locale` writes it, in the browser's zone (`longDate`). */
const longDateOn = (page: Page, locale: string, moment: string | Date) =>
  page.evaluate<string>(`new Date(${JSON.stringify(new Date(moment).toISOString())}).toLocaleDateString(${JSON.stringify(locale)}, { dateStyle: "long" })`);

/** A moment's day as a date field takes it (yyyy-mm-dd), in the page's zone. */
const dayOn = (page: Page, moment: Date) => page.evaluate<string>(`(() => { const d = new Date(${JSON.stringify(moment.toISOString())}); return [d.getFullYear(), String(d.getMonth() + 1).padStart(2, "0"), String(d.getDate()).padStart(2, "0")].join("-"); })()`);

/** Spaces as Intl writes them inside amounts and dates (no-break, narrow), as plain ones. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `cancel-flow-${name}.png`), fullPage: true });

const inConsole = screenChecks("en", "cancel-flow-console");
const inFrench = screenChecks("fr", "cancel-flow-portal-fr");
const inEnglish = screenChecks("en", "cancel-flow-portal-en");

describe("setting up a trial and the cancel flow", () => {
  it("makes a benefit from inside the product form without losing the typed name, shows a product's trial; a buyer in a trial cancels with a reason in French, a paid buyer is told of the paid period, the seller sees the reason and extends a trial, and edits a checkout link", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "en", viewport: { width: 1280, height: 800 } });
    await signUp(page, "Tara Seller", `trials-${stamp}@example.com`);
    const slug = `trial-shop-${stamp}`;
    const { api } = await openShop(page, "Trial Shop", slug, SCOPES);

    // A new product: its name typed, then a benefit made in a dialog over the form; the name stays and the benefit is granted.
    await page.goto(`/${slug}/products/new`);
    await page.getByRole("heading", { name: say("seller.newProduct.title") }).waitFor();
    await page.getByLabel(say("seller.productForm.name"), { exact: true }).fill("Studio Plan");
    expect(await page.getByLabel(say("seller.productForm.trialCount")).count()).toBe(0);
    await page.getByLabel(say("seller.productForm.trial"), { exact: true }).selectOption("day");
    // The trial's length is in the field, not a hidden default.
    expect(await page.getByLabel(say("seller.productForm.trialCount")).inputValue()).toBe("14");
    await page.getByLabel(say("seller.productForm.amount")).fill("12");
    await page.getByRole("button", { name: say("seller.productForm.newBenefit") }).click();
    const dialog = page.getByRole("dialog", { name: say("seller.productForm.newBenefit") });
    const discord = dialog.getByRole("option", { name: say("seller.benefit.typeNotYet", { type: say("seller.benefits.type.discord") }) });
    expect(await discord.isDisabled()).toBe(true);
    await dialog.getByLabel(say("seller.benefit.description")).fill("Welcome pack");
    await dialog.getByLabel(say("seller.benefit.note")).fill("Thanks for joining the studio.");
    await inConsole.checkConsole(page, "benefit-dialog");
    await dialog.getByRole("button", { name: say("seller.benefit.create") }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => page.getByLabel("Welcome pack").isChecked()).toBe(true);
    expect(await page.getByLabel(say("seller.productForm.name"), { exact: true }).inputValue()).toBe("Studio Plan");
    await page.getByRole("button", { name: say("seller.newProduct.create") }).click();

    // The trial shows in the list and in the product's header.
    const trialBadge = say("seller.product.trialBadge", { interval: "day", count: 14 });
    const row = page.getByRole("row", { name: /Studio Plan/ });
    await expect.poll(() => row.textContent()).toContain(trialBadge);
    await inConsole.checkConsole(page, "products");
    await row.getByRole("link", { name: "Studio Plan" }).click();
    await page.getByRole("heading", { name: "Studio Plan" }).waitFor();
    await page.locator(".badge", { hasText: trialBadge }).first().waitFor();
    await inConsole.checkPhone(page, "product");

    const products = await api<{ items: { id: string; name: string }[] }>("/v1/products/?limit=10");
    const studio = products.items.find((product) => product.name === "Studio Plan");
    if (!studio) throw new Error("the product was not made");
    const paid = await api<{ id: string }>("/v1/products/", { name: "Paid Plan", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 1_000, price_currency: "usd" }] });
    const [inTrial, paying, toExtend] = await Promise.all([
      subscribe(api, studio.id, `essai-${stamp}@example.com`),
      subscribe(api, paid.id, `paying-${stamp}@example.com`),
      subscribe(api, studio.id, `longer-${stamp}@example.com`),
    ]);
    expect([inTrial.status, paying.status, toExtend.status]).toEqual(["trialing", "active", "trialing"]);

    // A buyer in a trial, in French on a phone: the portal says when the trial ends; cancelling says nothing will be charged and asks why.
    const buyer = await newPerson({ locale: "fr", viewport: { width: 390, height: 844 } });
    await buyer.page.goto(await portalOf(api, inTrial.customer_id));
    const trialEnd = await longDateOn(buyer.page, "fr", inTrial.current_period_end);
    await buyer.page.getByText(buyer.say("portal.subscription.trialEndsOn", { date: trialEnd }), { exact: false }).waitFor();
    await buyer.page.getByRole("button", { name: buyer.say("portal.subscription.cancel") }).click();
    const cancel = buyer.page.getByRole("dialog", { name: buyer.say("portal.subscription.cancelTitle", { product: "Studio Plan" }) });
    await cancel.getByText(buyer.say("portal.subscription.cancelTrial", { date: trialEnd })).waitFor();
    await cancel.getByRole("button", { name: buyer.say("portal.subscription.keep") }).waitFor();
    await cancel.getByLabel(buyer.say("portal.subscription.cancelReason")).selectOption("too_expensive");
    await cancel.getByLabel(buyer.say("portal.subscription.cancelComment")).fill("Trop cher pour une petite équipe.");
    await inFrench.checkConsole(buyer.page, "cancel-dialog");
    await shot(buyer.page, "portal-fr-cancel-dialog-phone");
    await cancel.getByRole("button", { name: buyer.say("portal.subscription.cancel") }).click();
    await buyer.page.getByText(buyer.say("portal.subscription.trialCanceled", { date: trialEnd })).waitFor();
    await buyer.page.getByRole("button", { name: buyer.say("portal.subscription.resume") }).waitFor();
    await inFrench.checkConsole(buyer.page, "canceled-phone");

    // A paying buyer is told the subscription stays theirs to the end of the paid period; kept, nothing changes.
    const payer = await newPerson({ locale: "en", viewport: { width: 1280, height: 800 } });
    await payer.page.goto(await portalOf(api, paying.customer_id));
    await payer.page.getByRole("button", { name: payer.say("portal.subscription.cancel") }).click();
    const keep = payer.page.getByRole("dialog", { name: payer.say("portal.subscription.cancelTitle", { product: "Paid Plan" }) });
    await keep.getByText(payer.say("portal.subscription.cancelUntilPaid", { date: await longDateOn(payer.page, "en", paying.current_period_end) })).waitFor();
    await inEnglish.checkConsole(payer.page, "paid-cancel-dialog");
    await keep.getByRole("button", { name: payer.say("portal.subscription.keep") }).click();
    await keep.waitFor({ state: "detached" });
    await payer.page.getByText(payer.say("portal.subscription.renewsOn", { date: await longDateOn(payer.page, "en", paying.current_period_end) })).waitFor();

    // The seller sees why the trial was canceled, and that it ends when the trial does, with nothing charged.
    await page.goto(`/${slug}/subscriptions/${inTrial.id}`);
    await page.getByRole("heading", { name: say("seller.subscription.title", { product: "Studio Plan" }) }).waitFor();
    const facts = page.locator(".facts");
    await expect.poll(() => facts.textContent()).toContain(say("subscription.cancellationReason", { reason: "too_expensive" }));
    expect(await facts.textContent()).toContain("Trop cher pour une petite équipe.");
    await page.getByText(say("seller.subscription.trialEnds", { date: await longDateOn(page, "en", inTrial.current_period_end) })).waitFor();
    await inConsole.checkConsole(page, "canceled-trial");

    // Another buyer's trial, extended by the seller: the page says the new end, and what is charged after it.
    await page.goto(`/${slug}/subscriptions/${toExtend.id}`);
    await page.getByRole("heading", { name: say("seller.subscription.title", { product: "Studio Plan" }) }).waitFor();
    const amount = say("price.perInterval", { price: "$12.00", count: 1, interval: "month" });
    const firstEnd = await longDateOn(page, "en", toExtend.current_period_end);
    await expect.poll(async () => plain(await page.getByText(/^Trial ends on/).textContent())).toBe(plain(say("seller.subscription.trialRenews", { date: firstEnd, amount })));
    const newEnd = new Date(new Date(toExtend.current_period_end).getTime() + 16 * DAY_MS);
    await page.getByLabel(say("seller.trial.newEnd")).fill(await dayOn(page, newEnd));
    await page.getByRole("button", { name: say("seller.trial.extend") }).click();
    const newDate = await longDateOn(page, "en", newEnd);
    await page.getByText(say("seller.trial.extended", { date: newDate })).waitFor();
    await expect.poll(async () => plain(await facts.textContent())).toContain(plain(say("seller.subscription.trialUntil", { date: newDate, amount })));
    const extended = await api<Subscription>(`/v1/subscriptions/${toExtend.id}`);
    expect(extended.status).toBe("trialing");
    expect(new Date(extended.trial_end ?? 0).getTime()).toBe(newEnd.getTime());
    await inConsole.checkConsole(page, "extended-trial");
    await inConsole.checkPhone(page, "extended-trial");

    // A checkout link, edited in place from the list: its label and products change, its address stays.
    const link = await api<{ id: string; url: string }>("/v1/checkout-links/", { products: [studio.id], label: "Spring" });
    await page.goto(`/${slug}/checkout-links`);
    await page.getByRole("link", { name: `${say("seller.checkoutLinks.edit")}: Spring` }).click();
    await page.getByRole("heading", { name: say("seller.checkoutLink.editTitle") }).waitFor();
    await expect.poll(() => page.getByLabel(say("seller.checkoutLink.label")).inputValue()).toBe("Spring");
    await page.getByLabel(say("seller.checkoutLink.label")).fill("Spring sale");
    await page.getByLabel("Paid Plan").check();
    await page.getByLabel(say("seller.checkoutLink.metadata")).fill('{"campaign": "spring"}');
    await inConsole.checkConsole(page, "checkout-link-edit");
    await page.getByRole("button", { name: say("seller.checkoutLink.save") }).click();
    const linkRow = page.getByRole("row", { name: /Spring sale/ });
    await expect.poll(() => linkRow.textContent()).toContain("Paid Plan");
    expect(await linkRow.textContent()).toContain(link.url);
    expect(await api<{ metadata: Record<string, string> }>(`/v1/checkout-links/${link.id}`)).toMatchObject({ metadata: { campaign: "spring" } });
    await inConsole.checkPhone(page, "checkout-links");
  });
});
