import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { ALL_SCOPES, startBillingStack, type BillingStack, type Seller } from "../../../test/stacks/billing.js";
import { join, organizationOf, signedUp, type Person } from "../../../test/stacks/people.js";
import { cardToken } from "../../../test/stacks/purchases.js";

let stack: BillingStack;
let shop: Seller;
let seller: ReturnType<typeof createPolar>;

beforeAll(async () => {
  stack = await startBillingStack();
  shop = await stack.seller({ scopes: [...ALL_SCOPES, "customer_seats:read", "customer_seats:write", "members:read", "members:write"] });
  seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
});
afterAll(async () => {
  await stack?.stop();
});

let people = 0;
const address = (who: string) => `${who}-${++people}-${Date.now()}@example.com`;

interface LinkedMember {
  user_id: string;
  email: string | null;
  status: "seated" | "refused" | "left";
  seat_id: string | null;
  reason: string | null;
}
interface Link {
  customer_id: string;
  status: "awaiting_consent" | "linked";
  organization: { id: string; name: string; slug: string } | null;
  members: LinkedMember[];
}

/** A JSON call to the gateway: its status and body. */
async function call(path: string, init: { method?: string; bearer?: string; body?: unknown; via?: Person } = {}): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { "content-type": "application/json", origin: PUBLIC_URL };
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  const request = { method: init.method ?? "GET", headers, ...(init.body !== undefined && { body: JSON.stringify(init.body) }) };
  const response = init.via ? await init.via.fetch(`${stack.gateway.url}${path}`, request) : await fetch(`${stack.gateway.url}${path}`, request);
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const linkOf = async (customerId: string) => (await call(`/v1/customers/${customerId}/organization-link`, { bearer: shop.token })).body as Link;
const memberOf = async (customerId: string, person: Person) => (await linkOf(customerId)).members.find((member) => member.user_id === person.id);

/** A team customer who bought `seats` seats of a monthly plan whose benefit is a license key, and its owner's portal session. */
async function teamWithSeats(email: string, seats: number) {
  const benefit = await seller.benefits.create({ type: "license_keys", description: `Key ${Date.now()}`, properties: {} });
  const product = await seller.products.create({
    name: `Team plan ${Date.now()}`,
    recurring_interval: "month",
    prices: [{ amount_type: "seat_based", price_currency: "usd", seat_tiers: { seat_tier_type: "volume", tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 900 }] } }],
  });
  await seller.products.updateBenefits(product.id, { benefits: [benefit.id] });
  const customer = await seller.customers.create({ email, name: "Buyers Inc", type: "team" });
  const checkout = await seller.checkouts.create({ products: [product.id], seats, customer_id: customer.id });
  await new Polar({ serverURL: stack.gateway.url }).checkouts.clientConfirm({
    clientSecret: checkout.client_secret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "NL" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await seller.checkouts.get(checkout.id)).status, { timeout: 10_000 }).toBe("succeeded");
  const [subscription] = (await seller.subscriptions.list({ product_id: product.id })).items;
  if (!subscription) throw new Error("the checkout started no subscription");
  const [owner] = (await seller.customers.members.list(customer.id, {})).items;
  const session = await seller.customerSessions.create({ customer_id: customer.id, member_id: owner?.id ?? null });
  return { customer, subscription, benefit, portalToken: session.token };
}

/** The team's owner goes from the portal to the consent page: the token in the link they are given. */
async function consentToken(portalToken: string): Promise<string> {
  const consent = await call("/v1/customer-portal/organization-link/consent", { method: "POST", bearer: portalToken });
  expect(consent.status).toBe(200);
  const url = new URL((consent.body as { url: string }).url);
  expect(url.pathname).toMatch(/^\/organization-links\//);
  return url.pathname.split("/").pop() ?? "";
}

describe("a team customer linked to the buyer's organization", () => {
  it("hands the team's seats to the organization's members as they join, refuses one when none is left, and passes a seat on when someone leaves", async () => {
    const owner = await signedUp(stack, address("owner"));
    const organization = await organizationOf(owner, `buyers-${Date.now()}`);
    const { customer, subscription, benefit, portalToken } = await teamWithSeats(owner.email, 2);

    // Before the seller asks, there is nothing to consent to.
    expect((await call("/v1/customer-portal/organization-link/consent", { method: "POST", bearer: portalToken })).status).toBe(404);
    const asked = await call(`/v1/customers/${customer.id}/organization-link`, { method: "POST", bearer: shop.token });
    expect(asked).toMatchObject({ status: 201, body: { customer_id: customer.id, status: "awaiting_consent", organization: null, members: [] } });
    expect((await call("/v1/customer-portal/organization-link", { bearer: portalToken })).body).toMatchObject({ status: "awaiting_consent" });

    // Signed in to Tollgate, the owner sees who asks and the organizations they own, and links one.
    const token = await consentToken(portalToken);
    const invitation = await call(`/v1/me/organization-links/${token}`, { via: owner });
    expect(invitation).toMatchObject({ status: 200, body: { customer: { email: owner.email }, status: "awaiting_consent", organizations: [{ id: organization.id, slug: organization.slug }] } });
    const linked = await call(`/v1/me/organization-links/${token}`, { method: "POST", via: owner, body: { organization_id: organization.id } });
    expect(linked).toMatchObject({ status: 200, body: { status: "linked", organization: { id: organization.id, name: organization.name }, members: [{ user_id: owner.id, status: "seated", email: owner.email.toLowerCase() }] } });
    // The link was good for one consent.
    expect((await call(`/v1/me/organization-links/${token}`, { method: "POST", via: owner, body: { organization_id: organization.id } })).status).toBe(404);

    // A member who joins takes the second seat, and holds a license key of their own.
    const alice = await signedUp(stack, address("alice"));
    await join(owner, organization.id, alice);
    await expect.poll(async () => (await memberOf(customer.id, alice))?.status, { timeout: 10_000 }).toBe("seated");
    const seats = await seller.customerSeats.listSeats({ subscription_id: subscription.id });
    expect(seats).toMatchObject({ total_seats: 2, available_seats: 0 });
    const aliceSeat = seats.seats.find((seat) => seat.email === alice.email.toLowerCase());
    expect(aliceSeat).toMatchObject({ status: "claimed" });
    const keysOf = async (memberId: string | null | undefined) => (await seller.licenseKeys.list({ benefit_id: benefit.id })).items.filter((key) => key.member_id === memberId);
    expect((await keysOf(aliceSeat?.member_id)).map((key) => key.status)).toEqual(["granted"]);

    // The next finds none left, and is told why.
    const bob = await signedUp(stack, address("bob"));
    await join(owner, organization.id, bob);
    await expect.poll(async () => (await memberOf(customer.id, bob))?.status, { timeout: 10_000 }).toBe("refused");
    expect((await memberOf(customer.id, bob))?.reason).toBe("No seat is left: all 2 seats are taken.");

    // Alice leaves: her seat and key are taken back, and Bob, who was waiting, gets the seat.
    const removed = await owner.client.organization.removeMember({ memberIdOrEmail: alice.email, organizationId: organization.id });
    expect(removed.error).toBeNull();
    await expect.poll(async () => (await memberOf(customer.id, bob))?.status, { timeout: 10_000 }).toBe("seated");
    expect(await memberOf(customer.id, alice)).toMatchObject({ status: "left", seat_id: null });
    expect((await keysOf(aliceSeat?.member_id)).map((key) => key.status)).toEqual(["revoked"]);
    const after = await seller.customerSeats.listSeats({ subscription_id: subscription.id });
    expect(after.seats.filter((seat) => seat.status === "claimed").map((seat) => seat.email).sort()).toEqual([owner.email, bob.email].map((email) => email.toLowerCase()).sort());
    expect(after.available_seats).toBe(0);
  });

  it("is refused where it would give away what is not the asker's", async () => {
    const owner = await signedUp(stack, address("owner"));
    const organization = await organizationOf(owner, `others-${Date.now()}`);
    const outsider = await signedUp(stack, address("outsider"));
    await join(owner, organization.id, outsider);

    // Only a team customer's seats can follow an organization.
    const individual = await seller.customers.create({ email: address("solo") });
    expect(await call(`/v1/customers/${individual.id}/organization-link`, { method: "POST", bearer: shop.token })).toMatchObject({
      status: 403,
      body: { error: "NotPermitted", detail: "Only a team customer's seats can follow an organization's members." },
    });

    const { customer, portalToken } = await teamWithSeats(owner.email, 1);
    await call(`/v1/customers/${customer.id}/organization-link`, { method: "POST", bearer: shop.token });
    const token = await consentToken(portalToken);
    // A member who is not an owner cannot link the organization; nor can anyone not signed in.
    expect(await call(`/v1/me/organization-links/${token}`, { method: "POST", via: outsider, body: { organization_id: organization.id } })).toMatchObject({
      status: 403,
      body: { error: "NotPermitted", detail: "Only an owner of the organization can link it." },
    });
    expect((await call(`/v1/me/organization-links/${token}`, { method: "POST", body: { organization_id: organization.id } })).status).toBe(401);
    expect((await call(`/v1/me/organization-links/not-a-token`, { via: owner })).status).toBe(404);
    // Another seller's token cannot read or end this customer's link.
    const other = await stack.seller();
    expect((await call(`/v1/customers/${customer.id}/organization-link`, { bearer: other.token })).status).toBe(404);
    expect((await call(`/v1/customers/${customer.id}/organization-link`, { method: "DELETE", bearer: other.token })).status).toBe(404);
    expect((await linkOf(customer.id)).status).toBe("awaiting_consent");
  });
});
