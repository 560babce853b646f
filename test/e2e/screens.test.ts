import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createDatabase } from "@tollgate/kit";
import { ARTIFACTS, chooseCountry, fillCheckout, grantAdmin, mailedLink, newPerson, openShop, organizationIdOf, screenshotFailure, signUp, site, startBrowsing, stopBrowsing, type Person, type ShopApi } from "./browser.js";
import { bypassingCatalogs, layoutBreaks, untranslated, visibleTexts } from "./text-checks.js";

/**
 * Every screen of the app, visited three times: in the pseudo-locale (accented, 40 % longer) on a
 * desktop and a phone, to find text that bypasses the catalogs and layouts that break, and at phone
 * width in German, whose screenshots (web/test-artifacts/phone-de-*.png) are for people to look at.
 */

interface World {
  admin: Person;
  adminEmail: string;
  invitee: Person;
  slug: string;
  /** An organization the invitee is a plain member of. */
  memberSlug: string;
  invitationId: string;
  inviteeId: string;
  api: ShopApi;
  productId: string;
  paidSecret: string;
  customerId: string;
}
let world: World;

/** Who looks at a screen: nobody signed in, the admin who owns the organization, or the person invited to it. */
type Viewer = "anonymous" | "admin" | "invitee";

interface Screen {
  name: string;
  viewer: Viewer;
  /** The address, made when the screen is visited (some need a fresh checkout or portal link). */
  path: () => string | Promise<string>;
  /** What to do once the page has loaded, to show a state of it (refusals, dialogs). */
  act?: (page: Page) => Promise<void>;
}

/** An open checkout of the seller's product, at its hosted page. */
const freshCheckout = async () => `/checkout/${(await world.api<{ client_secret: string }>("/v1/checkouts/", { products: [world.productId] })).client_secret}`;

/** A new customer portal link for the reader, on this site rather than the stack's PUBLIC_URL. */
async function freshPortal(): Promise<string> {
  const link = new URL((await world.api<{ customer_portal_url: string }>("/v1/customer-sessions/", { customer_id: world.customerId })).customer_portal_url);
  return `${link.pathname}${link.search}`;
}

/** Sends the page's main form as it stands: the last on the page (the checkout's discount code comes before its payment form). */
const send = (page: Page) => page.locator("form button[type=submit]").last().click();

/** Pays on the hosted checkout with `card`, which the page refuses (in an alert, or next to a field). */
async function payWithCard(page: Page, card: string): Promise<void> {
  await page.locator("input[type=email]").fill("refused@example.com");
  await chooseCountry(page, "GB");
  await page.locator("input[autocomplete=cc-number]").fill(card);
  await page.locator("input[autocomplete=cc-exp]").fill("12/40");
  await page.locator("input[autocomplete=cc-csc]").fill("123");
  await send(page);
  await page.locator("[role=alert], .field-error").first().waitFor();
}

/** Opens the page's first (or last) dialog, as its button would. */
const openDialog = (which: "first" | "last") => async (page: Page) => {
  await page.locator('[aria-haspopup="dialog"]')[which]().click();
  await page.getByRole("dialog").waitFor();
};

const SCREENS: Screen[] = [
  { name: "sign-in", viewer: "anonymous", path: () => "/sign-in" },
  { name: "sign-in-empty", viewer: "anonymous", path: () => "/sign-in", act: send },
  {
    name: "sign-in-refused",
    viewer: "anonymous",
    path: () => "/sign-in",
    act: async (page) => {
      await page.locator("input[autocomplete~=username]").fill("nobody@example.com");
      await page.locator("input[type=password]").fill("not the password");
      await send(page);
      await page.getByRole("alert").waitFor();
    },
  },
  { name: "sign-up", viewer: "anonymous", path: () => "/sign-up" },
  { name: "sign-up-empty", viewer: "anonymous", path: () => "/sign-up", act: send },
  {
    name: "sign-up-refused",
    viewer: "anonymous",
    path: () => "/sign-up",
    act: async (page) => {
      await page.locator("input[autocomplete=name]").fill("Ada Again");
      await page.locator("input[type=email]").fill(world.adminEmail);
      for (const field of await page.locator("input[type=password]").all()) await field.fill("correct horse battery staple");
      await send(page);
      await page.getByRole("alert").waitFor();
    },
  },
  { name: "forgot-password", viewer: "anonymous", path: () => "/forgot-password" },
  { name: "reset-password", viewer: "anonymous", path: () => "/reset-password?token=made-up" },
  { name: "reset-password-expired", viewer: "anonymous", path: () => "/reset-password?error=INVALID_TOKEN" },
  { name: "verified", viewer: "anonymous", path: () => "/verified" },
  { name: "verified-expired", viewer: "anonymous", path: () => "/verified?error=TOKEN_EXPIRED" },
  { name: "auth-error", viewer: "anonymous", path: () => "/auth-error?error=state_mismatch" },
  { name: "start", viewer: "anonymous", path: () => "/" },
  { name: "not-found", viewer: "anonymous", path: () => "/no/such/page" },
  { name: "checkout", viewer: "anonymous", path: freshCheckout },
  { name: "checkout-declined", viewer: "anonymous", path: freshCheckout, act: (page) => payWithCard(page, "4000 0000 0000 0002") },
  // The sandbox refuses a card that is not one of its test cards, next to the card's field.
  { name: "checkout-not-a-test-card", viewer: "anonymous", path: freshCheckout, act: (page) => payWithCard(page, "4111 1111 1111 1111") },
  { name: "checkout-empty", viewer: "anonymous", path: freshCheckout, act: send },
  { name: "checkout-paid", viewer: "anonymous", path: () => `/checkout/${world.paidSecret}/confirmation` },
  { name: "portal", viewer: "anonymous", path: freshPortal },
  {
    name: "portal-cancel",
    viewer: "anonymous",
    path: freshPortal,
    act: openDialog("first"),
  },
  { name: "portal-expired", viewer: "anonymous", path: () => `/${world.slug}/portal?customer_session_token=polar_cst_expired` },
  { name: "portal-without-link", viewer: "anonymous", path: () => `/${world.slug}/portal` },
  { name: "portal-no-seller", viewer: "anonymous", path: () => "/no-such-seller/portal" },
  { name: "home", viewer: "admin", path: () => "/" },
  { name: "account", viewer: "admin", path: () => "/account" },
  { name: "account-delete", viewer: "admin", path: () => "/account", act: openDialog("last") },
  { name: "organization-new", viewer: "admin", path: () => "/organizations/new" },
  { name: "organization", viewer: "admin", path: () => `/organizations/${world.slug}` },
  { name: "organization-delete", viewer: "admin", path: () => `/organizations/${world.slug}`, act: openDialog("last") },
  { name: "organization-not-found", viewer: "admin", path: () => "/organizations/no-such-organization" },
  { name: "admin-users", viewer: "admin", path: () => "/admin/users" },
  { name: "admin-create-user", viewer: "admin", path: () => "/admin/users", act: openDialog("first") },
  { name: "admin-user", viewer: "admin", path: () => `/admin/users/${world.inviteeId}` },
  { name: "purchases", viewer: "admin", path: () => "/purchases" },
  { name: "mailbox", viewer: "admin", path: () => "/dev/mailbox" },
  { name: "organization-as-member", viewer: "invitee", path: () => `/organizations/${world.memberSlug}` },
  { name: "seller-products", viewer: "admin", path: () => `/${world.slug}/products` },
  {
    name: "seller-products-none-match",
    viewer: "admin",
    path: () => `/${world.slug}/products`,
    act: async (page) => {
      // On a phone the filters are folded behind their button.
      const filters = page.locator(".filters-toggle");
      if (await filters.isVisible()) await filters.click();
      await page.locator("input[type=search]").fill("no such product");
      await page.locator(".empty").waitFor();
    },
  },
  { name: "seller-new-product-empty", viewer: "admin", path: () => `/${world.slug}/products/new`, act: send },
  { name: "seller-products-as-member", viewer: "invitee", path: () => `/${world.memberSlug}/products` },
  { name: "seller-set-aside-work", viewer: "admin", path: () => `/${world.slug}/set-aside-work` },
  { name: "seller-set-aside-work-none", viewer: "invitee", path: () => `/${world.memberSlug}/set-aside-work` },
  {
    name: "verification-sent",
    viewer: "admin",
    path: () => "/",
    act: async (page) => {
      // Once the link is sent, the banner says so in place of its button.
      await page.locator(".banner button").click();
      await page.locator(".banner button").waitFor({ state: "detached" });
    },
  },
  { name: "invitation", viewer: "invitee", path: () => `/accept-invitation/${world.invitationId}` },
];


beforeAll(async () => {
  const tollgate = await startBrowsing();
  const admin = await newPerson();
  const stamp = Date.now();
  await signUp(admin.page, "Ada Admin", `ada-${stamp}@example.com`);
  expect(await grantAdmin(`ada-${stamp}@example.com`)).toBe(0);
  const slug = `lighthouse-${stamp}`;
  const { api } = await openShop(admin.page, "Lighthouse Books", slug, ["products:write", "checkouts:write", "customer_sessions:write"]);
  const product = await api<{ id: string }>("/v1/products/", { name: "Field guide", prices: [{ amount_type: "fixed", price_amount: 1_900, price_currency: "usd" }] });
  const magazine = await api<{ id: string }>("/v1/products/", { name: "Tide tables", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 400, price_currency: "usd" }] });
  // A reader buys both, so the portal shows an order and a subscription.
  const buyer = await newPerson();
  const paid: { id: string; client_secret: string }[] = [];
  for (const bought of [magazine, product]) {
    const checkout = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [bought.id] });
    await buyer.page.goto(`/checkout/${checkout.client_secret}`);
    await fillCheckout(buyer.page, buyer.say, { email: `reader-${stamp}@example.com`, country: "DE", card: "4242 4242 4242 4242" });
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
    paid.push(checkout);
  }
  const { customer_id: customerId, organization_id: organizationId } = await api<{ customer_id: string; organization_id: string }>(`/v1/checkouts/${paid[0]?.id}`);
  await setAsideForScreens(tollgate.databaseUrl, organizationId, customerId);

  const invitee = await newPerson();
  const inviteeEmail = `grace-${stamp}@example.com`;
  await signUp(invitee.page, "Grace Invitee", inviteeEmail);
  // Only a verified address may answer an invitation to it.
  await invitee.page.getByRole("button", { name: invitee.say("shell.verification.send") }).click();
  await invitee.page.getByText(invitee.say("shell.verification.sent", { email: inviteeEmail })).waitFor();
  await invitee.page.goto(await mailedLink(inviteeEmail, "/api/auth/verify-email"));
  const invited = await admin.page.request.post("/api/auth/organization/invite-member", { headers: { origin: site }, data: { email: inviteeEmail, role: "member", organizationId: await organizationIdOf(admin.page, slug) } });
  // And is a member of another of Ada's organizations, to see it as a member does.
  const memberSlug = `harbour-${stamp}`;
  const harbour = await admin.page.request.post("/api/auth/organization/create", { headers: { origin: site }, data: { name: "Harbour Maps", slug: memberSlug } });
  const toHarbour = await admin.page.request.post("/api/auth/organization/invite-member", { headers: { origin: site }, data: { email: inviteeEmail, role: "member", organizationId: ((await harbour.json()) as { id: string }).id } });
  const accepted = await invitee.page.request.post("/api/auth/organization/accept-invitation", { headers: { origin: site }, data: { invitationId: ((await toHarbour.json()) as { id: string }).id } });
  expect(accepted.status()).toBe(200);
  const inviteeSession = (await (await invitee.page.request.get("/api/auth/get-session")).json()) as { user: { id: string } };
  world = { admin, adminEmail: `ada-${stamp}@example.com`, invitee, slug, memberSlug, invitationId: ((await invited.json()) as { id: string }).id, inviteeId: inviteeSession.user.id, api, productId: product.id, paidSecret: paid[1]?.client_secret ?? "", customerId };
}, 300_000);

afterAll(stopBrowsing);

/**
 * A background item of the seller's as it stands once set aside, for the console's banner and its
 * Needs-attention screen to show (the workers' own tests make real ones: test/security/workers-isolation.test.ts).
 */
async function setAsideForScreens(databaseUrl: string, organizationId: string, customerId: string): Promise<void> {
  const billing = createDatabase({ url: databaseUrl, schema: "billing", poolMax: 1 });
  try {
    await billing("set_aside_work").insert({ worker: "customer_state", item: customerId, organization_id: organizationId, reason: "value out of range: overflow", failures: 5, set_aside_at: new Date() });
  } finally {
    await billing.destroy();
  }
}

/**
 * Opens `screen` on `page`, its viewer's tab, and waits until nothing on it is still loading. What an
 * earlier screen left in the tab's storage (a portal session) is cleared first, as a new visitor's would be.
 */
async function visit(screen: Screen, page: Page, locale: string): Promise<void> {
  if (page.url().startsWith(site)) await page.evaluate("localStorage.clear(); sessionStorage.clear()");
  const address = await screen.path();
  await page.goto(`${address}${address.includes("?") ? "&" : "?"}locale=${locale}`);
  await page.locator("h1").first().waitFor();
  await page.locator(".loading").first().waitFor({ state: "detached" });
  await screen.act?.(page);
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * Visits every screen in `locale` at `viewport`; returns what `wrongTexts` finds in each screen's
 * texts and every layout break, keeping a screenshot of each when `screenshots` is given. Each viewer
 * browses in one tab of their own, so the app's files are fetched once rather than for every screen.
 */
async function sweep(locale: string, viewport: typeof PHONE, wrongTexts: (texts: string[]) => string[], screenshots?: string): Promise<string[]> {
  const tabs = new Map<Viewer, Page>();
  const tabOf = async (viewer: Viewer): Promise<Page> => {
    const open = tabs.get(viewer) ?? (await newPerson({ locale, viewport, signedInAs: viewer === "anonymous" ? undefined : world[viewer] })).page;
    tabs.set(viewer, open);
    return open;
  };
  const found: string[] = [];
  try {
    for (const screen of SCREENS) {
      const page = await tabOf(screen.viewer);
      await visit(screen, page, locale);
      if (screenshots) await page.screenshot({ path: path.join(ARTIFACTS, `${screenshots}-${screen.name}.png`), fullPage: true });
      found.push(...wrongTexts(await visibleTexts(page)).map((text) => `${screen.name}: text "${text}"`));
      found.push(...(await layoutBreaks(page)).map((broken) => `${screen.name}: ${broken}`));
    }
  } finally {
    for (const page of tabs.values()) await page.context().close();
  }
  return found;
}

/** Text on a pseudo-locale page that may have no pseudo accents, because no catalog made it. */
const NOT_FROM_CATALOGS = [
  /^[\d\s.,:;/()%$€+\-–—~[\]·…#▾▼▲×]*$/u, // numbers, amounts, the padding's tail, glyphs
  /^\S+@\S+\.\S+$/, // e-mail addresses
  /^(Tollgate|Operator|Ada Admin|Grace Invitee|Lighthouse Books|Harbour Maps|Field guide|Tide tables|(lighthouse|harbour)-\d+)( ▾)?$/, // the brand, and what people typed (a menu's ▾ after it)
  /^\p{L}+ \d{1,2}, \d{4}( at \d{1,2}:\d{2}\s[AP]M)?$/u, // dates, which Intl writes (in English for the pseudo-locale)
  /^(Русский|Українська|English|Español|Deutsch|Polski|Français|Türkçe|Pseudo \(en-XA\))$/, // each language by its own name
  /^value out of range: overflow$/, // a set-aside item's reason, as Postgres gave it
];

describe("every screen, in the pseudo-locale and at phone width", () => {
  it("the pseudo-locale on a desktop shows no text that bypasses the catalogs, and no layout breaks", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    expect(await sweep("en-XA", DESKTOP, (texts) => bypassingCatalogs(texts, NOT_FROM_CATALOGS))).toEqual([]);
  });

  it("the pseudo-locale on a phone: no layout breaks with words 40 % longer, nothing bypassing the catalogs in what only a phone shows", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    expect(await sweep("en-XA", PHONE, (texts) => bypassingCatalogs(texts, NOT_FROM_CATALOGS))).toEqual([]);
  });

  // German, whose words run longest of the eight, at phone width: English left in what only a phone
  // shows (the menu), and screenshots for people to look at.
  it("de at phone width: nothing untranslated, nothing cut off, a screenshot of each screen", { timeout: 300_000 }, async () => {
    onTestFailed(screenshotFailure);
    expect(await sweep("de", PHONE, (texts) => untranslated(texts, "de"), "phone-de")).toEqual([]);
  });
});
