import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { randomUUID } from "node:crypto";
import { advanceDays, cardToken, eventTypesAbout, ordersOf, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";

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

    // SDK 0.47 knows them too; the tier type is volume unless told.
    const older = await seller.polar.products.create({ name: "Studio", prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { tiers: [{ minSeats: 1, maxSeats: null, pricePerSeat: 900 }] } }] });
    expect(older.prices[0]).toMatchObject({ amountType: "seat_based", seatTiers: { seatTierType: "volume", minimumSeats: 1, maximumSeats: null, tiers: [{ minSeats: 1, maxSeats: null, pricePerSeat: 900 }] } });
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

  it("are refused with Polar's messages where the tiers go wrong", async () => {
    const seller = await stack.seller();
    const create = (tiers: object[]) =>
      fetch(`${stack.gateway.url}/v1/products/`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` },
        body: JSON.stringify({ name: "Broken", prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }, { amount_type: "seat_based", price_currency: "eur", seat_tiers: { tiers } }] }),
      });
    const refusals = async (tiers: object[]) => {
      const response = await create(tiers);
      expect(response.status).toBe(422);
      return ((await response.json()) as { detail: { loc: (string | number)[]; msg: string }[] }).detail.map(({ loc, msg }) => [loc, msg]);
    };
    const at = ["body", "prices", 1, "seat_tiers", "tiers"];
    expect(await refusals([{ min_seats: 1, max_seats: 4, price_per_seat: 100 }, { min_seats: 6, price_per_seat: 90 }])).toEqual([[at, "Gap or overlap between tiers: tier ending at 4 and tier starting at 6"]]);
    expect(await refusals([{ min_seats: 1, price_per_seat: 100 }, { min_seats: 5, max_seats: 9, price_per_seat: 90 }])).toEqual([[at, "Only the last tier can have unlimited max_seats (None)"]]);
    expect(await refusals([])).toEqual([[at, expect.any(String)]]);
    expect((await refusals([{ min_seats: 0, price_per_seat: 100 }]))[0]?.[0]).toEqual([...at, 0, "min_seats"]);
    expect((await refusals([{ min_seats: 1, price_per_seat: -1 }]))[0]?.[0]).toEqual([...at, 0, "price_per_seat"]);
  });
});

describe("a checkout of seats", () => {
  it("keeps its seats within the tiers and the seller's bounds, refusing others with Polar's messages", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const product = await polar.products.create({ name: "Bounded", prices: [seatPrice("volume", [{ min_seats: 2, max_seats: 10, price_per_seat: 700 }])] });
    await expect(polar.checkouts.create({ products: [product.id], seats: 1 })).rejects.toMatchObject({ statusCode: 422 });
    const narrowed = await polar.checkouts.create({ products: [product.id], min_seats: 3, max_seats: 5 });
    expect(narrowed).toMatchObject({ seats: 3, min_seats: 3, max_seats: 5, amount: 2100 });

    const page = (body: object) =>
      fetch(`${stack.gateway.url}/v1/checkouts/client/${narrowed.client_secret}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const tooMany = await page({ seats: 6 });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toMatchObject({ detail: [{ loc: ["body", "seats"], msg: "Maximum 5 seats allowed.", type: "less_than_equal" }] });
    expect(await (await page({ seats: 2 })).json()).toMatchObject({ detail: [{ loc: ["body", "seats"], msg: "Minimum 3 seats required." }] });
    expect(await (await page({ seats: 5 })).json()).toMatchObject({ seats: 5, amount: 3500 });

    const wide = await fetch(`${stack.gateway.url}/v1/checkouts/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` },
      body: JSON.stringify({ products: [product.id], max_seats: 11 }),
    });
    expect(await wide.json()).toMatchObject({ detail: [{ loc: ["body", "max_seats"], msg: "max_seats must be at most 10." }] });
    const flat = await polar.products.create({ name: "Flat", prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }] });
    await expect(polar.checkouts.create({ products: [flat.id], seats: 2 })).rejects.toMatchObject({ statusCode: 422 });
    expect(await polar.checkouts.create({ products: [flat.id] })).toMatchObject({ seats: null, amount: 900 });
  });
});

describe("a checkout link of seats", () => {
  it("fixes the seats of the checkouts it opens while its products allow them, and refuses seats they do not", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const team = await polar.products.create({ name: "Team", prices: [seatPrice("volume", [{ min_seats: 2, max_seats: 10, price_per_seat: 700 }])] });
    const flat = await polar.products.create({ name: "Flat", prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }] });
    const refusal = async (body: object) => {
      const response = await fetch(`${stack.gateway.url}/v1/checkout-links/`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` }, body: JSON.stringify({ payment_processor: "stripe", ...body }) });
      expect(response.status).toBe(422);
      return ((await response.json()) as { detail: { msg: string }[] }).detail[0]?.msg;
    };
    expect(await refusal({ products: [team.id], seats: 11 })).toBe("Product 'Team' allows between 2 and 10 seats.");
    expect(await refusal({ products: [team.id, flat.id], seats: 4 })).toBe("Seats can only be preconfigured when all products use seat-based pricing.");

    const link = await polar.checkoutLinks.create({ payment_processor: "stripe", products: [team.id], seats: 4 });
    expect(link.seats).toBe(4);
    const followed = await fetch(link.url.replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" });
    const clientSecret = (followed.headers.get("location") ?? "").slice(`${PUBLIC_URL}/checkout/`.length);
    expect(await customerSide.checkouts.clientGet({ clientSecret })).toMatchObject({ seats: 4, minSeats: 4, maxSeats: 4, amount: 2800 });
    await expect(customerSide.checkouts.clientUpdate({ clientSecret, checkoutUpdatePublic: { seats: 5 } })).rejects.toMatchObject({ statusCode: 422 });

    // Moved to a product that sells no seats, the link lets go of them.
    expect((await polar.checkoutLinks.update(link.id, { products: [flat.id] })).seats).toBeNull();
  });
});

describe("a subscription's seats", () => {
  /** A monthly seat plan, 1–4 seats at 10.00 and 5–10 at 8.00, bought with `seats` seats. */
  async function seatPlan(seller: Seller, seats: number, email: string) {
    const polar = sdk(seller);
    const product = await polar.products.create({ name: "Team plan", recurring_interval: "month", prices: [seatPrice("volume", TIERS.slice(0, 2))] });
    const opened = await polar.checkouts.create({ products: [product.id], seats });
    await pay(seller, opened.client_secret, opened.id, email);
    const [subscription] = (await polar.subscriptions.list({ product_id: product.id })).items;
    if (!subscription) throw new Error("no subscription");
    return subscription;
  }

  it("change now, prorated: more seats invoiced at once, fewer credited on the next renewal, each announced", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const subscription = await seatPlan(seller, 3, "growing@example.com");
    expect(subscription).toMatchObject({ seats: 3, amount: 3000 });

    const grown = await polar.subscriptions.update(subscription.id, { seats: 6, proration_behavior: "invoice" });
    expect(grown).toMatchObject({ seats: 6, amount: 4800 });
    const invoiced = (await ordersOf(seller, subscription.id)).at(-1);
    expect(invoiced).toMatchObject({ billingReason: "subscription_update", status: "paid", seats: 6 });
    expect(invoiced?.items).toHaveLength(1);
    expect(invoiced?.items[0]?.label).toMatch(/^Team plan \(3 → 6 seats\) — From [A-Z][a-z]{2} \d{1,2}, \d{4} to [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    // What is left of the month of 1,800 more: nearly all of it, just after buying.
    expect(invoiced?.subtotalAmount).toBeGreaterThan(1700);
    expect(invoiced?.subtotalAmount).toBeLessThanOrEqual(1800);
    await expect.poll(async () => (await eventTypesAbout(stack, subscription.id)).filter((type) => type === "subscription.updated").length).toBeGreaterThanOrEqual(1);

    const shrunk = await polar.subscriptions.update(subscription.id, { seats: 2, proration_behavior: "prorate" });
    expect(shrunk).toMatchObject({ seats: 2, amount: 2000 });
    expect((await ordersOf(seller, subscription.id)).map((order) => order.billingReason)).toEqual(["subscription_create", "subscription_update"]);
    // Asking for the seats it has changes nothing.
    expect(await polar.subscriptions.update(subscription.id, { seats: 2 })).toMatchObject({ seats: 2, amount: 2000 });

    await advanceDays(stack, seller, 31);
    const renewal = (await ordersOf(seller, subscription.id)).at(-1);
    expect(renewal?.billingReason).toBe("subscription_cycle");
    expect(renewal?.seats).toBe(2);
    expect(renewal?.items.map((item) => item.label)).toEqual(["Team plan (2 seats)", expect.stringMatching(/^Remaining time on Team plan \(6 → 2 seats\) — From /)]);
    // The credit for 2,800 less over nearly the whole month takes the renewal's 2,000 to nothing; the rest waits.
    expect(renewal?.totalAmount).toBe(0);
  });

  it("refuse what Polar refuses: seats outside the tiers, fewer than those taken, and a plan without seats", async () => {
    const seller = await stack.seller();
    const polar = sdk(seller);
    const subscription = await seatPlan(seller, 4, "bounded@example.com");
    const update = (body: object) =>
      fetch(`${stack.gateway.url}/v1/subscriptions/${subscription.id}`, { method: "PATCH", headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` }, body: JSON.stringify(body) });
    expect(await (await update({ seats: 11 })).json()).toEqual({ error: "AboveMaximumSeats", detail: "Maximum 10 seats allowed." });

    // Three seats taken (two invited, one claimed); a revoked one does not count.
    const { db } = stack.billing.context.app;
    const seat = (status: string) => ({ id: randomUUID(), organization_id: seller.organizationId, subscription_id: subscription.id, customer_id: subscription.customer_id, status });
    await db("customer_seats").insert([seat("pending"), seat("pending"), seat("claimed"), seat("revoked")]);
    const refused = await update({ seats: 2 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "SeatsAlreadyAssigned", detail: "Cannot decrease seats to 2. Currently 3 seats are assigned. Revoke seats first." });
    expect(await polar.subscriptions.update(subscription.id, { seats: 3, proration_behavior: "prorate" })).toMatchObject({ seats: 3, amount: 3000 });

    const flat = await polar.products.create({ name: "Flat plan", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }] });
    expect(await (await update({ product_id: flat.id })).json()).toMatchObject({ detail: [{ loc: ["body", "product_id"], msg: "Can't switch from a seat-based to a non-seat-based product." }] });
    await polar.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(await (await update({ seats: 5 })).json()).toEqual({ error: "AlreadyCanceledSubscription", detail: "This subscription is already canceled or will be at the end of the period." });
  });

  it("are changed by the customer in the portal, where the seller lets them", async () => {
    const seller = await stack.seller();
    const subscription = await seatPlan(seller, 2, "portal-seats@example.com");
    const security = { customerSession: (await seller.polar.customerSessions.create({ customerId: subscription.customer_id })).token };
    const grown = await customerSide.customerPortal.subscriptions.update(security, { id: subscription.id, customerSubscriptionUpdate: { seats: 5 } });
    expect(grown).toMatchObject({ seats: 5, amount: 4000 });
    expect(await sdk(seller).subscriptions.get(subscription.id)).toMatchObject({ seats: 5 });

    await seller.polar.organizations.update({ id: seller.organizationId, organizationUpdate: { customerPortalSettings: { usage: { show: true }, subscription: { updateSeats: false, updatePlan: true } } } });
    await expect(customerSide.customerPortal.subscriptions.update(security, { id: subscription.id, customerSubscriptionUpdate: { seats: 6 } })).rejects.toMatchObject({ statusCode: 403 });
    expect(await sdk(seller).subscriptions.get(subscription.id)).toMatchObject({ seats: 5 });
  });
});
