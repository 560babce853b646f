import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { createPolar, webhooks } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { ALL_SCOPES, type Seller } from "../../../test/stacks/billing.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";
import { advanceDays, cardToken } from "../../../test/stacks/purchases.js";
import { WebhookReceiver } from "../../../test/stacks/receiver.js";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";

let smtp: SmtpCatcher;
let stack: DispatcherStack;
let shop: Seller;
let receiver: WebhookReceiver;
/** The seller's API through SDK 1.x, with a token that may manage seats. */
let seller: ReturnType<typeof createPolar>;
let webhookSecret: string;

const SEAT_SCOPES = [...ALL_SCOPES, "customer_seats:read", "customer_seats:write"];
const polarOf = (accessToken: string) => createPolar({ accessToken, baseUrl: stack.gateway.url });
/** The SDK with no token, as a claim page calls it (0.47: SDK 1.x always sends one). */
const anyone = () => new Polar({ serverURL: stack.gateway.url }).customerSeats;

/** A refusal as 0.47 throws it: the status, and the body Polar's error is in. */
type Refusal = { statusCode: number; body: string };

/** What a call of 0.47's was refused with. */
async function refusalOf(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    return error as Refusal;
  }
  throw new Error("the call went through");
}

/** Polar's answer to a claim link that is used up, expired or unknown. */
const INVALID_TOKEN = { statusCode: 400, body: JSON.stringify({ error: "InvalidInvitationToken", detail: "Invalid or expired invitation token" }) };

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  stack = await startDispatcherStack({}, { SMTP_URL: smtp.url });
  shop = await stack.seller({ scopes: SEAT_SCOPES });
  seller = polarOf(shop.token);
  receiver = await new WebhookReceiver().start();
  const endpoint = await shop.polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["customer_seat.assigned", "customer_seat.claimed", "customer_seat.revoked"] });
  webhookSecret = endpoint.secret;
  receiver.secrets = [endpoint.secret];
});
afterAll(async () => {
  await receiver?.stop();
  await stack?.stop();
  await smtp?.close();
});

let buyers = 0;
const newAddress = (who: string) => `${who}-${++buyers}-${Date.now()}@example.com`;

/** A monthly seat-based plan (1000 a seat) whose benefit is a license key. */
async function seatPlan() {
  const benefit = await seller.benefits.create({ type: "license_keys", description: `Key ${Date.now()}`, properties: {} });
  const product = await seller.products.create({
    name: `Team plan ${Date.now()}`,
    recurring_interval: "month",
    prices: [{ amount_type: "seat_based", price_currency: "usd", seat_tiers: { seat_tier_type: "volume", tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 1000 }] } }],
  });
  await seller.products.updateBenefits(product.id, { benefits: [benefit.id] });
  return { product, benefit };
}

/** A team buys `seats` seats of the product with the sandbox's good card; its subscription. */
async function buySeats(productId: string, seats: number) {
  const checkout = await seller.checkouts.create({ products: [productId], seats });
  await new Polar({ serverURL: stack.gateway.url }).checkouts.clientConfirm({
    clientSecret: checkout.client_secret,
    checkoutConfirmStripe: { customerEmail: newAddress("team"), customerBillingAddress: { country: "NL" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await seller.checkouts.get(checkout.id)).status, { timeout: 10_000 }).toBe("succeeded");
  const [subscription] = (await seller.subscriptions.list({ product_id: productId })).items;
  if (!subscription) throw new Error("the checkout started no subscription");
  expect(subscription.seats).toBe(seats);
  return subscription;
}

/** The claim token in the newest invitation mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  const mail = await smtp.next(email);
  return new URL(linkTo(mail, `/${(await seller.organizations.get(shop.organizationId)).slug}/portal/claim`)).searchParams.get("token") ?? "";
}

describe("customer seats", () => {
  it("gives a seat by e-mail: the claim link mailed to the member claims it once, and the member then holds a license key of their own until the seat is revoked", async () => {
    const { product, benefit } = await seatPlan();
    const subscription = await buySeats(product.id, 3);
    const email = newAddress("member");

    const assigned = await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email, metadata: { team: "design" } });
    expect(assigned).toMatchObject({ status: "pending", email, customer_email: email, customer_id: subscription.customer_id, member: { email, role: "member" }, seat_metadata: { team: "design" } });
    expect((await seller.customerSeats.listSeats({ subscription_id: subscription.id })).available_seats).toBe(2);

    const mail = await smtp.next(email);
    expect(mail.subject).toBe(`You've been invited to access ${product.name}`);
    const link = linkTo(mail, "/");
    expect(link.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(new URL(link).pathname).toMatch(/\/portal\/claim$/);

    // Reading the link (a mail scanner does) claims nothing.
    const info = await anyone().getClaimInfo({ invitationToken: token });
    expect(info).toMatchObject({ productName: product.name, productId: product.id, customerEmail: email, canClaim: true });
    expect((await seller.customerSeats.listSeats({ subscription_id: subscription.id })).seats[0]?.status).toBe("pending");

    const claimed = await anyone().claimSeat({ invitationToken: token });
    expect(claimed.seat).toMatchObject({ id: assigned.id, status: "claimed", memberId: assigned.member_id });
    expect(claimed.customerSessionToken).toMatch(/^polar_cst_/);

    const memberPortal = polarOf(claimed.customerSessionToken);
    const [key] = (await memberPortal.customerPortal.licenseKeys.list({})).items;
    expect(key).toMatchObject({ benefit_id: benefit.id, status: "granted", member_id: assigned.member_id, member: { id: assigned.member_id, email } });
    const [grant] = (await seller.benefits.grants(benefit.id, {})).items;
    expect(grant).toMatchObject({ customer_id: subscription.customer_id, member_id: assigned.member_id, member: { email }, is_granted: true });

    // The link worked once.
    expect(await refusalOf(anyone().claimSeat({ invitationToken: token }))).toMatchObject(INVALID_TOKEN);
    await expect(anyone().getClaimInfo({ invitationToken: token })).rejects.toMatchObject({ statusCode: 404 });

    const revoked = await seller.customerSeats.revokeSeat(assigned.id);
    expect(revoked).toMatchObject({ status: "revoked", member_id: null, email: null });
    expect((await seller.licenseKeys.get(key?.id ?? "")).status).toBe("revoked");
    expect((await seller.customerSeats.listSeats({ subscription_id: subscription.id })).available_seats).toBe(3);

    // The seller's endpoint heard each step, as SDK 1.x reads it.
    const deliveries = await receiver.waitFor(3, (request) => request.body.includes(assigned.id));
    const events = await Promise.all(deliveries.map((request) => webhooks.validateEvent(request.body, request.headers as Record<string, string>, webhookSecret)));
    expect(events.map((event) => event.type)).toEqual(["customer_seat.assigned", "customer_seat.claimed", "customer_seat.revoked"]);
    expect(events[1]).toMatchObject({ data: { id: assigned.id, status: "claimed", member: { email } } });
  });

  it("never gives more seats than were bought: of twenty immediate claims for the last seat, one gets it", async () => {
    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 2);
    await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email: newAddress("first"), immediate_claim: true });

    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => seller.customerSeats.assignSeat({ subscription_id: subscription.id, email: newAddress(`racer${index}`), immediate_claim: true })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => each.status === "rejected")) {
      expect(outcome.reason).toMatchObject({ statusCode: 400, error: { detail: `No available seats for ${subscription.id}` } });
    }
    const seats = await seller.customerSeats.listSeats({ subscription_id: subscription.id });
    expect(seats).toMatchObject({ available_seats: 0, total_seats: 2 });
    expect(seats.seats.map((seat) => seat.status)).toEqual(["claimed", "claimed"]);
  });

  it("claims a link once when twenty claims of it arrive at once", async () => {
    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 1);
    const email = newAddress("twice");
    await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email });
    const token = await mailedToken(email);

    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => anyone().claimSeat({ invitationToken: token })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => each.status === "rejected")) expect(outcome.reason as Refusal).toMatchObject(INVALID_TOKEN);
  });

  it("refuses an expired link, and mails a new one on request that works instead of the old", async () => {
    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 1);
    const email = newAddress("late");
    const seat = await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email });
    const first = await mailedToken(email);

    // A day on (Polar's lifetime), by the seller's clock, the link is dead.
    await advanceDays(stack, shop, 2);
    await expect(anyone().getClaimInfo({ invitationToken: first })).rejects.toMatchObject({ statusCode: 404 });
    expect(await refusalOf(anyone().claimSeat({ invitationToken: first }))).toMatchObject(INVALID_TOKEN);

    await seller.customerSeats.resendInvitation(seat.id);
    const second = await mailedToken(email);
    expect(second).not.toBe(first);
    expect(await refusalOf(anyone().claimSeat({ invitationToken: first }))).toMatchObject(INVALID_TOKEN);
    expect((await anyone().claimSeat({ invitationToken: second })).seat.status).toBe("claimed");
    await expect(seller.customerSeats.resendInvitation(seat.id)).rejects.toMatchObject({ statusCode: 400, error: { detail: "Seat is not in pending status" } });
  });

  it("gives seats of seat-based purchases only, to one recipient named as Polar allows, once per member", async () => {
    const plain = await seller.products.create({ name: `Solo ${Date.now()}`, recurring_interval: "month", prices: [{ amount_type: "fixed", price_currency: "usd", price_amount: 900 }] });
    const checkout = await seller.checkouts.create({ products: [plain.id] });
    await new Polar({ serverURL: stack.gateway.url }).checkouts.clientConfirm({
      clientSecret: checkout.client_secret,
      checkoutConfirmStripe: { customerEmail: newAddress("solo"), customerBillingAddress: { country: "NL" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
    });
    await expect.poll(async () => (await seller.checkouts.get(checkout.id)).status, { timeout: 10_000 }).toBe("succeeded");
    const [solo] = (await seller.subscriptions.list({ product_id: plain.id })).items;
    await expect(seller.customerSeats.assignSeat({ subscription_id: solo?.id ?? "", email: newAddress("nobody") })).rejects.toMatchObject({ statusCode: 400, error: { detail: `No available seats for ${solo?.id}` } });

    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 3);
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, member_id: "someone", email: newAddress("both") })).rejects.toMatchObject({ statusCode: 422 });
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, customer_id: "nobody" })).rejects.toMatchObject({ statusCode: 400, error: { detail: "Customer not found for the provided customer_id or external_customer_id." } });
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, external_member_id: "ext-unknown" })).rejects.toMatchObject({ statusCode: 404, error: { detail: "Member not found: ext-unknown" } });
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, email: newAddress("big"), metadata: Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`k${index}`, index])) })).rejects.toMatchObject({ statusCode: 422 });

    const email = newAddress("linked");
    const seat = await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email, external_member_id: "ext-1" });
    expect(seat.member).toMatchObject({ email, external_id: "ext-1" });
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, external_member_id: "ext-1" })).rejects.toMatchObject({ statusCode: 400, error: { detail: `Seat already assigned to customer ${email}` } });
    await expect(seller.customerSeats.assignSeat({ subscription_id: subscription.id, member_id: seat.member_id ?? "" })).rejects.toMatchObject({ statusCode: 400 });
  });

  it("takes every seat back when the subscription is revoked, with the keys its members held", async () => {
    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 2);
    const held = await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email: newAddress("holder"), immediate_claim: true });
    const waiting = await seller.customerSeats.assignSeat({ subscription_id: subscription.id, email: newAddress("waiting") });
    const [key] = (await seller.licenseKeys.list({ organization_id: shop.organizationId })).items.filter((each) => each.member_id === held.member_id);
    expect(key?.status).toBe("granted");

    await seller.subscriptions.revoke(subscription.id);
    const seats = await seller.customerSeats.listSeats({ subscription_id: subscription.id });
    expect(seats.seats.map((seat) => [seat.id, seat.status])).toEqual([
      [held.id, "revoked"],
      [waiting.id, "revoked"],
    ]);
    expect((await seller.licenseKeys.get(key?.id ?? "")).status).toBe("revoked");
  });

  it("lets the team that bought seats give and take them back in the portal, and shows a member the subscriptions they hold a seat of", async () => {
    const { product } = await seatPlan();
    const subscription = await buySeats(product.id, 2);
    const session = await seller.customerSessions.create({ customer_id: subscription.customer_id });
    const team = polarOf(session.token);

    const given = await team.customerPortal.seats.assignSeat({ subscription_id: subscription.id, email: newAddress("colleague"), immediate_claim: true });
    expect((await team.customerPortal.seats.listSeats({ subscription_id: subscription.id })).available_seats).toBe(1);
    const revoked = await team.customerPortal.seats.revokeSeat(given.id);
    expect(revoked.status).toBe("revoked");

    const email = newAddress("invitee");
    const pending = await team.customerPortal.seats.assignSeat({ subscription_id: subscription.id, email });
    await smtp.next(email);
    await team.customerPortal.seats.resendInvitation(pending.id);
    const claimed = await anyone().claimSeat({ invitationToken: await mailedToken(email) });
    const member = polarOf(claimed.customerSessionToken);
    expect((await member.customerPortal.seats.listClaimedSubscriptions({})).items.map((each) => each.id)).toEqual([subscription.id]);

    // Another team's seat is nobody's here.
    const other = await buySeats(product.id, 1);
    const theirs = await seller.customerSeats.assignSeat({ subscription_id: other.id, email: newAddress("theirs") });
    await expect(team.customerPortal.seats.revokeSeat(theirs.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(team.customerPortal.seats.listSeats({ subscription_id: other.id })).rejects.toMatchObject({ statusCode: 404 });
  });
});
