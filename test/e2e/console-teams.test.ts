import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { fillCheckout, newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing, type Say, type ShopApi } from "./browser.js";
import { screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const SCOPES = ["products:write", "checkouts:write", "benefits:write", "customers:write", "members:write", "customer_seats:write", "customer_sessions:write", "subscriptions:write", "license_keys:read"];

interface Team {
  api: ShopApi;
  slug: string;
  organizationId: string;
  customerId: string;
  subscriptionId: string;
  ownerEmail: string;
}

/**
 * A seller whose team plan (a seat-based subscription with a license key per seat) a team customer
 * has bought five seats of, paying on the hosted checkout.
 */
async function teamWithSeats(page: Page, stamp: number): Promise<Team> {
  await signUp(page, "Greta Seller", `teams-${stamp}@example.com`);
  const slug = `team-tools-${stamp}`;
  const { api, organizationId } = await openShop(page, "Team Tools", slug, SCOPES);
  const licence = await api<{ id: string }>("/v1/benefits/", { type: "license_keys", description: "Team licence", properties: {} });
  const plan = await api<{ id: string }>("/v1/products/", {
    name: "Team Plan",
    recurring_interval: "month",
    prices: [{ amount_type: "seat_based", price_currency: "usd", seat_tiers: { tiers: [{ min_seats: 1, max_seats: 10, price_per_seat: 1_000 }] } }],
  });
  await api(`/v1/products/${plan.id}/benefits`, { benefits: [licence.id] });
  const ownerEmail = `owner-${stamp}@example.com`;
  const customer = await api<{ id: string }>("/v1/customers/", { type: "team", email: ownerEmail, name: "Acme Team" });
  const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [plan.id], customer_id: customer.id, seats: 5 });
  const buyer = await newPerson();
  await buyer.page.goto(`/checkout/${checkout.client_secret}`);
  // Made for the team, the checkout shows its e-mail, locked.
  await buyer.page.getByText(ownerEmail).waitFor();
  await fillCheckout(buyer.page, buyer.say, { country: "DE", card: "4242 4242 4242 4242" });
  await buyer.page.getByRole("button", { name: /^Pay / }).click();
  await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  await buyer.context.close();
  const [subscription] = (await api<{ items: { id: string }[] }>(`/v1/subscriptions/?customer_id=${customer.id}`)).items;
  if (!subscription) throw new Error("the team's subscription did not start");
  return { api, slug, organizationId, customerId: customer.id, subscriptionId: subscription.id, ownerEmail };
}

/** A portal link for one member of the team, on this site rather than the stack's PUBLIC_URL. */
async function memberPortal(team: Team, memberId: string): Promise<string> {
  const session = await team.api<{ customer_portal_url: string }>("/v1/customer-sessions/", { customer_id: team.customerId, member_id: memberId });
  const link = new URL(session.customer_portal_url);
  return `${link.pathname}${link.search}`;
}

const membersOf = async (team: Team) => (await team.api<{ items: { id: string; email: string; role: string }[] }>(`/v1/members/?customer_id=${team.customerId}`)).items;

/** The seats card's line for `email`. */
const seatOf = (page: Page, say: Say, email: string) => page.getByRole("list", { name: say("ui.team.seats.label", { product: "Team Plan" }) }).getByRole("listitem").filter({ hasText: email });

const inConsole = screenChecks("de", "team-console");
const inPortal = screenChecks("en", "team-portal");

describe("a team customer's members and seats", () => {
  it("in the console: adds a member, is refused removing the only owner in the API's words, assigns a seat and changes the seat count, in German at desktop and phone width; in the portal: the owner assigns and revokes a seat, and a member sees only their own license key", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "de", viewport: { width: 1280, height: 800 } });
    const team = await teamWithSeats(page, stamp);

    // The team's page: its owner, and its five seats, all free.
    await page.goto(`/${team.slug}/customers/${team.customerId}`);
    await page.getByRole("heading", { name: "Acme Team", level: 1 }).waitFor();
    const members = page.getByRole("list", { name: say("ui.team.members.label") });
    await members.getByText(team.ownerEmail).waitFor();

    // A member is added with their e-mail, name and role.
    const devEmail = `dev-${stamp}@example.com`;
    await page.getByRole("button", { name: say("ui.team.members.add") }).click();
    const dialog = page.getByRole("dialog", { name: say("ui.team.members.add") });
    await dialog.getByLabel(say("ui.team.members.email")).fill(devEmail);
    await dialog.getByLabel(say("ui.team.members.name")).fill("Dev Eloper");
    await dialog.getByLabel(say("ui.team.members.roleLabel")).selectOption("billing_manager");
    await dialog.getByRole("button", { name: say("ui.team.members.save") }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => members.getByLabel(say("ui.team.members.roleOf", { email: devEmail })).inputValue()).toBe("billing_manager");

    // Removing the only owner is refused, as the API words it, beside the owner.
    await page.getByRole("button", { name: say("ui.team.members.removeNamed", { email: team.ownerEmail }) }).click();
    await page.getByRole("dialog").getByRole("button", { name: say("ui.team.members.remove") }).click();
    await members.getByRole("listitem").filter({ hasText: team.ownerEmail }).getByRole("alert").getByText(/owner/i).waitFor();
    await members.getByText(team.ownerEmail).waitFor();
    await inConsole.checkConsole(page, "members");
    await inConsole.checkPhone(page, "members");

    // A seat is assigned to the new member by e-mail: invited, four of five free.
    await page.getByText(say("ui.team.seats.available", { available: 5, total: 5 })).waitFor();
    await page.getByLabel(say("ui.team.seats.email")).fill(devEmail);
    await page.getByRole("button", { name: say("ui.team.seats.assign") }).click();
    await seatOf(page, say, devEmail).getByText(say("ui.team.seats.status", { status: "pending" })).waitFor();
    await page.getByText(say("ui.team.seats.available", { available: 4, total: 5 })).waitFor();
    await inConsole.checkConsole(page, "customer");
    await inConsole.checkPhone(page, "customer");

    // The subscription's seats: six, charged now; eleven is more than the price allows.
    await page.goto(`/${team.slug}/subscriptions/${team.subscriptionId}`);
    await page.getByRole("button", { name: say("seller.seatChange.open") }).click();
    const seats = page.getByRole("dialog", { name: say("seller.seatChange.open") });
    await seats.getByLabel(say("ui.team.seats.count")).fill("11");
    await seats.getByRole("button", { name: say("seller.seatChange.submit") }).click();
    await seats.getByText(say("forms.number.whole", { min: 1, max: 10 })).waitFor();
    await inConsole.checkPhone(page, "seat-change");
    await seats.getByLabel(say("ui.team.seats.count")).fill("6");
    await seats.getByRole("button", { name: say("seller.seatChange.submit") }).click();
    await seats.waitFor({ state: "detached" });
    await page.getByText(/^Jetzt 6 Plätze/).waitFor();
    await inConsole.checkConsole(page, "subscription");

    // The owner, in the portal: the team's seats, one assigned and then revoked.
    const owner = await newPerson({ viewport: { width: 1280, height: 800 } });
    const ownerId = (await membersOf(team)).find((member) => member.role === "owner")?.id ?? "";
    await owner.page.goto(await memberPortal(team, ownerId));
    await owner.page.getByRole("heading", { name: owner.say("portal.team.seats") }).waitFor();
    await owner.page.getByText(owner.say("ui.team.seats.available", { available: 5, total: 6 })).waitFor();
    const anaEmail = `ana-${stamp}@example.com`;
    await owner.page.getByLabel(owner.say("ui.team.seats.email")).fill(anaEmail);
    await owner.page.getByRole("button", { name: owner.say("ui.team.seats.assign") }).click();
    await seatOf(owner.page, owner.say, anaEmail).getByText(owner.say("ui.team.seats.status", { status: "pending" })).waitFor();
    await owner.page.getByText(owner.say("ui.team.seats.available", { available: 4, total: 6 })).waitFor();
    await inPortal.checkConsole(owner.page, "owner");
    await inPortal.checkPhone(owner.page, "owner");
    await owner.page.getByRole("button", { name: owner.say("ui.team.seats.revokeNamed", { email: anaEmail }) }).click();
    const revoke = owner.page.getByRole("dialog", { name: owner.say("ui.team.seats.revokeTitle", { email: anaEmail }) });
    await revoke.getByRole("button", { name: owner.say("ui.team.seats.revoke") }).click();
    await seatOf(owner.page, owner.say, anaEmail).waitFor({ state: "detached" });
    await owner.page.getByText(owner.say("ui.team.seats.available", { available: 5, total: 6 })).waitFor();

    // Two members hold claimed seats, each with a license key; one of them sees only their own, and nothing to manage.
    const keyHolders = await Promise.all(["eve", "finn"].map((name) => team.api<{ id: string }>(`/v1/customers/${team.customerId}/members`, { email: `${name}-${stamp}@example.com`, role: "member" })));
    for (const holder of keyHolders) await team.api("/v1/customer-seats", { subscription_id: team.subscriptionId, member_id: holder.id, immediate_claim: true });
    const eveId = keyHolders[0]?.id ?? "";
    const keys = (await team.api<{ items: { key: string; member: { id: string } | null }[] }>(`/v1/license-keys/?organization_id=${team.organizationId}`)).items;
    const eveKey = keys.find((key) => key.member?.id === eveId)?.key;
    expect(keys.filter((key) => key.member !== null)).toHaveLength(2);
    const eve = await newPerson({ viewport: { width: 390, height: 844 } });
    await eve.page.goto(await memberPortal(team, eveId));
    await eve.page.getByRole("heading", { name: eve.say("portal.benefits.title") }).waitFor();
    await eve.page.locator("code.license-key").first().waitFor();
    expect(await eve.page.locator("code.license-key").allTextContents()).toEqual([eveKey]);
    for (const managed of ["portal.team.seats", "portal.team.members", "portal.subscriptions.title", "portal.cards.title"]) {
      expect(await eve.page.getByRole("heading", { name: eve.say(managed) }).count(), managed).toBe(0);
    }
    await inPortal.checkPhone(eve.page, "member");
  });

  it("links the team's seats to its own organization: the seller offers it in the console, the team's owner consents from the portal, signed in to Tollgate, and holds a seat", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "de", viewport: { width: 1280, height: 800 } });
    const team = await teamWithSeats(page, stamp);
    await page.goto(`/${team.slug}/customers/${team.customerId}`);
    await page.getByRole("button", { name: say("seller.customer.team.offerLink") }).click();
    await page.getByText(say("linkedMembers.awaiting")).waitFor();
    await inConsole.checkConsole(page, "link-offered");

    // The team's owner has a Tollgate account and an organization of their own.
    const owner = await newPerson({ viewport: { width: 1280, height: 800 } });
    await signUp(owner.page, "Olga Owner", team.ownerEmail);
    await openShop(owner.page, "Acme Org", `acme-org-${stamp}`, []);
    const ownerId = (await membersOf(team)).find((member) => member.role === "owner")?.id ?? "";
    await owner.page.goto(await memberPortal(team, ownerId));
    await owner.page.getByRole("heading", { name: owner.say("portal.organizationLink.title") }).waitFor();
    await inPortal.checkPhone(owner.page, "link-offer");
    await owner.page.getByRole("button", { name: owner.say("portal.organizationLink.choose") }).click();

    // The consent page names the seller and the organizations the owner owns; linking seats the owner.
    await owner.page.getByRole("heading", { name: owner.say("organizationLink.title") }).waitFor();
    await owner.page.getByRole("radio", { name: "Acme Org" }).check();
    await inPortal.checkPhone(owner.page, "link-consent");
    await owner.page.getByRole("button", { name: owner.say("organizationLink.link") }).click();
    await owner.page.getByText(owner.say("organizationLink.done")).waitFor();
    const held = owner.page.getByRole("list", { name: owner.say("linkedMembers.label") }).getByRole("listitem").filter({ hasText: team.ownerEmail });
    await held.getByText(owner.say("linkedMembers.seated")).waitFor();
    await inPortal.checkConsole(owner.page, "link-done");

    // The seller sees the same.
    await page.reload();
    await page.getByRole("list", { name: say("linkedMembers.label") }).getByText(say("linkedMembers.seated")).waitFor();
    await inConsole.checkPhone(page, "link-linked");
  });
});
