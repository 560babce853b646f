import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { STRIPE_EVENT_TYPES } from "../../services/billing/src/stripe-events/service.js";
import { LocalStripe } from "../stacks/stripe/local-stripe.js";
import { routeStripeJs } from "../stacks/stripe/stripe-js.js";
import type { RunningTollgate } from "../stacks/tollgate.js";
import { checkScreen, chooseCountry, newPerson, openShop, screenshotFailure, signUp, startBrowsingWith, stopBrowsing, type Person, type ShopApi } from "./browser.js";

/**
 * Issue 30: the hosted checkout with Stripe as the processor. Tollgate runs as `npm start` runs it,
 * billing with PAYMENT_PROCESSOR=stripe against a local Stripe; the browser gets a stand-in for
 * Stripe.js at js.stripe.com, so the page's own code makes the token, confirms, and takes the buyer
 * through 3-D Secure.
 */

let local: LocalStripe;
let tollgate: RunningTollgate;
let api: ShopApi;
let productId: string;

beforeAll(async () => {
  local = await LocalStripe.start();
  const endpoint = local.addWebhookEndpoint("http://127.0.0.1:9/not-yet", [...STRIPE_EVENT_TYPES]);
  tollgate = await startBrowsingWith({ PAYMENT_PROCESSOR: "stripe", STRIPE_SECRET_KEY: local.secretKey, STRIPE_PUBLISHABLE_KEY: local.publishableKey, STRIPE_WEBHOOK_SECRET: endpoint.secret, STRIPE_API_URL: local.url });
  local.webhooks.updateEndpoint(endpoint.id, { url: `${tollgate.url}/v1/integrations/stripe/webhook` });
  const seller = await newPerson();
  await signUp(seller.page, "Stripe Seller", `stripe-seller-${Date.now()}@example.com`);
  ({ api } = await openShop(seller.page, "Harbour Prints", `harbour-${Date.now()}`, ["products:write", "checkouts:write"]));
  productId = (await api<{ id: string }>("/v1/products/", { name: "Harbour print", prices: [{ amount_type: "fixed", price_amount: 3_500, price_currency: "usd" }] })).id;
  await seller.context.close();
}, 240_000);

afterAll(async () => {
  await stopBrowsing();
  await local?.stop();
});

/** A buyer on a new checkout's page, Stripe.js routed to the stand-in. */
async function onCheckout(options: Parameters<typeof newPerson>[0] = {}): Promise<Person> {
  const buyer = await newPerson(options);
  await routeStripeJs(buyer.page, local);
  const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [productId] });
  await buyer.page.goto(`/checkout/${checkout.client_secret}`);
  return buyer;
}

/** The buyer's details and a card typed into the Payment Element. */
async function fill({ page, say }: Person, card: string): Promise<void> {
  await page.getByLabel(say("checkout.email")).fill(`buyer-${Date.now()}@example.com`);
  await chooseCountry(page, "GB");
  await typeCard({ page, say } as Person, card);
}

async function typeCard({ page }: Pick<Person, "page">, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration date").fill(`12 / ${String((new Date().getUTCFullYear() + 1) % 100)}`);
  await page.getByLabel("Security code").fill("123");
}

describe("the hosted checkout with Stripe", () => {
  it("pays with Stripe.js's token, on a page whose policy lets in Stripe alone", { timeout: 60_000 }, async () => {
    onTestFailed(screenshotFailure);
    const buyer = await onCheckout({ viewport: { width: 1280, height: 900 } });
    const policy = (await buyer.page.request.get(buyer.page.url())).headers()["content-security-policy"] ?? "";
    expect(policy).toContain("script-src 'self' https://js.stripe.com");
    expect(policy).toContain("frame-src https://js.stripe.com https://hooks.stripe.com");
    expect(policy).toContain("connect-src 'self' https://api.stripe.com");
    // Every other page keeps the strict default.
    expect((await buyer.page.request.get("/")).headers()["content-security-policy"]).not.toContain("stripe");

    await fill(buyer, "4242 4242 4242 4242");
    await checkScreen(buyer.page, "checkout-stripe");
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
    const intents = [...local.ledger.paymentIntents.values()].filter((intent) => intent.status === "succeeded" && intent.amount === 3_500);
    expect(intents).toHaveLength(1);
  });

  it("says a declined card in the buyer's language, then pays with another", { timeout: 60_000 }, async () => {
    onTestFailed(screenshotFailure);
    const buyer = await onCheckout({ locale: "de", viewport: { width: 390, height: 844 } });
    await fill(buyer, "4000 0000 0000 0002");
    await buyer.page.getByRole("button", { name: /^.*35,00/ }).click();
    await buyer.page.getByText(buyer.say("api.paymentError.declined")).waitFor();
    await checkScreen(buyer.page, "checkout-stripe-declined-phone");
    await typeCard(buyer, "4242 4242 4242 4242");
    await buyer.page.getByRole("button", { name: /^.*35,00/ }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  });

  it("takes the buyer through 3-D Secure at their bank, and thanks them once Stripe says it is paid", { timeout: 60_000 }, async () => {
    onTestFailed(screenshotFailure);
    const buyer = await onCheckout({ viewport: { width: 390, height: 844 } });
    await fill(buyer, "4000 0027 6000 3184");
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    const bank = buyer.page.getByRole("dialog", { name: "3D Secure 2 Test Page" });
    await bank.waitFor();
    await checkScreen(buyer.page, "checkout-stripe-3ds-phone");
    await bank.getByRole("button", { name: "Complete" }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  });
});
