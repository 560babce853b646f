import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { advanceDays, cardToken, ordersOf, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
/** The checkout page's side, through SDK 0.47. */
let customerSide: Polar;

// Each test has a seller of its own: the test clock moves a seller's whole time.
useShop((opened) => ({ stack, customerSide } = opened));

const sdk = (seller: Seller) => createPolar({ accessToken: seller.token, baseUrl: stack.gateway.url });

/** 1–4 seats at 10.00 each, 5–10 at 8.00, 11 and more at 6.00. */
const TIERS = [
  { min_seats: 1, max_seats: 4, price_per_seat: 1000 },
  { min_seats: 5, max_seats: 10, price_per_seat: 800 },
  { min_seats: 11, max_seats: null, price_per_seat: 600 },
];

const seatPrice = (seat_tier_type: "volume" | "graduated", tiers = TIERS) => ({ amount_type: "seat_based" as const, price_currency: "usd" as const, seat_tiers: { seat_tier_type, tiers } });

/** Confirms a checkout with the sandbox's 4242 card and waits until it is settled. */
async function pay(seller: Seller, clientSecret: string, id: string, email: string) {
  await customerSide.checkouts.clientConfirm({
    clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "FR" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await sdk(seller).checkouts.get(id)).status, { timeout: 10_000 }).toBe("succeeded");
}

describe("seat-based prices", () => {
  it("are created with their tiers and shown with the seats they allow, through SDK 1.x", async () => {
    const seller = await stack.seller();
    const product = await sdk(seller).products.create({ name: "Team", recurring_interval: "month", prices: [seatPrice("graduated", [...TIERS].reverse())] });
    const [price] = product.prices;
    expect(price).toMatchObject({
      amount_type: "seat_based",
      price_currency: "usd",
      seat_tiers: { seat_tier_type: "graduated", tiers: TIERS, minimum_seats: 1, maximum_seats: null },
    });
    const bounded = await sdk(seller).products.create({ name: "Small team", prices: [seatPrice("volume", [{ min_seats: 2, max_seats: 20, price_per_seat: 500 }])] });
    expect(bounded.prices[0]).toMatchObject({ seat_tiers: { seat_tier_type: "volume", minimum_seats: 2, maximum_seats: 20 } });
  });

  it("sell the seats chosen at checkout on a subscription, which renews at what its seats cost", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const product = await polar.products.create({ name: "Team plan", recurring_interval: "month", prices: [seatPrice("volume")] });
    const opened = await polar.checkouts.create({ products: [product.id] });
    // The fewest seats the tiers allow, unless told.
    expect(opened).toMatchObject({ seats: 1, min_seats: null, max_seats: null, amount: 1000 });

    const chosen = await customerSide.checkouts.clientUpdate({ clientSecret: opened.client_secret, checkoutUpdatePublic: { seats: 6 } });
    // Volume: all six seats at the second tier's 8.00.
    expect(chosen).toMatchObject({ seats: 6, amount: 4800, totalAmount: 4800 });
    await pay(seller, opened.client_secret, opened.id, "team-owner@example.com");

    const [subscription] = (await polar.subscriptions.list({ product_id: product.id })).items;
    expect(subscription).toMatchObject({ seats: 6, amount: 4800, status: "active" });
    const [first] = await ordersOf(seller, subscription?.id ?? "");
    expect(first).toMatchObject({ billingReason: "subscription_create", subtotalAmount: 4800, seats: 6 });
    expect(first?.items.map((item) => item.label)).toEqual(["Team plan (6 seats)"]);

    await advanceDays(stack, seller, 31);
    const renewal = (await ordersOf(seller, subscription?.id ?? "")).at(-1);
    expect(renewal).toMatchObject({ billingReason: "subscription_cycle", subtotalAmount: 4800, seats: 6, status: "paid" });
  });

  it("sell seats once on a one-time product: the order records them, each range priced at its tier when graduated", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const product = await polar.products.create({ name: "Workshop", prices: [seatPrice("graduated")] });
    const opened = await polar.checkouts.create({ products: [product.id], seats: 12 });
    // 4 × 10.00 + 6 × 8.00 + 2 × 6.00.
    expect(opened).toMatchObject({ seats: 12, amount: 10_000 });
    await pay(seller, opened.client_secret, opened.id, "workshop@example.com");
    const [order] = (await polar.orders.list({ checkout_id: opened.id })).items;
    expect(order).toMatchObject({ seats: 12, subtotal_amount: 10_000, status: "paid" });
    expect(order?.items.map((item) => item.label)).toEqual(["Workshop (12 seats)"]);
  });
});
