import { afterAll, beforeAll, expect } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { Polar } from "@polar-sh/sdk";
import { extractText } from "unpdf";
import { PUBLIC_URL } from "./auth.js";
import { startBillingStack, type BillingStack, type Seller } from "./billing.js";

const nextYear = new Date().getUTCFullYear() + 1;

/** What the hosted checkout page does with the card form before confirming: a sandbox confirmation token. */
export async function cardToken(stack: BillingStack, cardNumber: string): Promise<string> {
  const response = await fetch(`${stack.gateway.url}/v1/sandbox/confirmation-tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ card_number: cardNumber, exp_month: 12, exp_year: nextYear, cvc: "123" }),
  });
  if (response.status !== 201) throw new Error(`tokenizing answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** The types of billing events about `id` (a checkout, order or subscription), in the order they were published. */
export async function eventTypesAbout(stack: BillingStack, id: string): Promise<string[]> {
  const events = await publishedEvents(stack.billing.context.bus);
  return events.filter((event) => (event.data as { payload?: { id?: string } }).payload?.id === id).map((event) => event.type.replace(/^billing\./, ""));
}

/** The payloads of billing events of `type` about the resource `id`, as sellers' webhooks will get them. */
export async function announced(stack: BillingStack, type: string, id: string): Promise<Record<string, unknown>[]> {
  const events = await publishedEvents(stack.billing.context.bus);
  return events.filter((event) => event.type === `billing.${type}` && (event.data.payload as { id?: string }).id === id).map((event) => event.data.payload as Record<string, unknown>);
}

/** Moves the seller's test clock ahead; renewals and dunning up to then have run when it answers. */
export async function advanceDays(stack: BillingStack, seller: Seller, days: number): Promise<{ now: string; offset_seconds: number }> {
  const response = await fetch(`${stack.gateway.url}/v1/sandbox/clock/${seller.organizationId}/advance`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` },
    body: JSON.stringify({ days }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { now: string; offset_seconds: number };
}

/** Buys a monthly plan (1000 a month) with the card and waits for the subscription it starts. */
export async function subscribe(stack: BillingStack, seller: Seller, cardNumber: string, email: string, product?: { trialDays?: number }) {
  const plan = await seller.polar.products.create({
    name: `Pro ${email}`,
    recurringInterval: "month",
    ...(product?.trialDays ? { trialInterval: "day" as const, trialIntervalCount: product.trialDays } : {}),
    prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }],
  });
  return { plan, ...(await subscribeTo(stack, seller, plan.id, cardNumber, email)) };
}

/** Buys the seller's recurring product with the card through a checkout, and waits for the subscription it starts. */
export async function subscribeTo(stack: BillingStack, seller: Seller, productId: string, cardNumber: string, email: string) {
  const customerSide = new Polar({ serverURL: stack.gateway.url });
  const checkout = await seller.polar.checkouts.create({ products: [productId] });
  expect(checkout.isPaymentSetupRequired).toBe(true);
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "FR" }, confirmationTokenId: await cardToken(stack, cardNumber) },
  });
  await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const [subscription] = (await seller.polar.subscriptions.list({ productId })).result.items;
  if (!subscription) throw new Error("the checkout started no subscription");
  return { checkout, subscription };
}

/** Pays `productId` on its checkout with the sandbox's 4242 card, as `email`, and returns the paid order. */
export async function paidOrderOf({ stack, shop, customerSide }: Shop, productId: string, email: string, checkoutFields: { customerEmail?: string } = {}) {
  const checkout = await shop.polar.checkouts.create({ products: [productId], ...checkoutFields });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "NL" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
  if (!order) throw new Error("no order");
  return order;
}

/** A subscription's orders, oldest first. */
export const ordersOf = async (seller: Seller, subscriptionId: string) =>
  (await seller.polar.orders.list({ organizationId: seller.organizationId, limit: 100 })).result.items.filter((order) => order.subscriptionId === subscriptionId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

export interface Shop {
  stack: BillingStack;
  shop: Seller;
  /** The SDK as the hosted checkout page uses it: no token, the client secret is the credential. */
  customerSide: Polar;
}

/** A billing stack (or one with more services, from `start`) with one seller for the tests of a file: started before them, stopped after. */
export function useShop<Stack extends BillingStack = BillingStack>(receive: (opened: Shop & { stack: Stack }) => void, start: () => Promise<Stack> = startBillingStack as () => Promise<Stack>): void {
  let opened: (Shop & { stack: Stack }) | undefined;
  beforeAll(async () => {
    const stack = await start();
    opened = { stack, shop: await stack.seller(), customerSide: new Polar({ serverURL: stack.gateway.url }) };
    receive(opened);
  });
  afterAll(async () => {
    await opened?.stack.stop();
  });
}

/** The text of the PDF a document link downloads (a local store's link names the public address: it is reached through the gateway). */
export async function pdfText(stack: BillingStack, url: string): Promise<string> {
  const response = await fetch(url.startsWith(PUBLIC_URL) ? `${stack.gateway.url}${new URL(url).pathname}${new URL(url).search}` : url);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  return (await extractText(bytes, { mergePages: true })).text;
}
