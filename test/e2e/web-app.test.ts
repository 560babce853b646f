import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { ARTIFACTS, checkScreen, grantAdmin, mailedLink, newPerson, fillCheckout, openMailbox, openShop, password, screenshotFailure, signIn, signUp, site, startBrowsing, stopBrowsing } from "./browser.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

describe("the web app, in a real browser against the whole stack", () => {
  it("takes people from sign-up to organizations, invitations, teams and admin", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    const ada = await newPerson();
    const { page } = ada;

    // Sign up, and verify the address from the development mailbox.
    await page.goto("/sign-up");
    await checkScreen(page, "sign-up");
    await signUp(page, "Ada Lovelace", "ada@example.com");
    await checkScreen(page, "home-empty");
    await page.getByRole("button", { name: "Send verification link" }).click();
    await page.getByText("We sent a verification link to ada@example.com").waitFor();
    const verify = await mailedLink("ada@example.com", "/api/auth/verify-email");
    await checkScreen(await openMailbox(), "dev-mailbox");
    await page.goto(verify);
    await page.getByRole("heading", { name: "Your address is verified" }).waitFor();
    await checkScreen(page, "verified");

    // Sign out, and back in; a wrong password is said in words next to the form.
    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await checkScreen(page, "sign-in");
    await page.getByLabel("E-mail or username").fill("ada@example.com");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "The e-mail address or password is wrong." }).waitFor();
    await signIn(page, "ada@example.com");
    await page.getByRole("heading", { name: "Your organizations" }).waitFor();

    // Create an organization: the address follows the name and is checked while typing.
    await page.goto("/organizations/new");
    await page.getByLabel("Name", { exact: true }).fill("Acme Rockets");
    await expect.poll(() => page.getByLabel("Address (slug)").inputValue()).toBe("acme-rockets");
    await page.getByText("That address is free.").waitFor();
    await checkScreen(page, "organization-new");
    await page.getByRole("button", { name: "Create organization" }).click();
    // A new organization opens on its console, at the steps to a first sale; its members are a page of their own.
    await page.getByRole("heading", { name: "Get started" }).waitFor();
    await page.goto("/organizations/acme-rockets");
    await page.getByRole("heading", { name: "Acme Rockets" }).waitFor();

    // Invite a second person, who accepts from the mail.
    const invitations = page.locator("section.card", { has: page.getByRole("heading", { name: "Invitations" }) });
    await invitations.getByLabel("E-mail", { exact: true }).fill("grace@example.com");
    await invitations.getByRole("button", { name: "Invite" }).click();
    await invitations.getByText("Invitation sent to grace@example.com.").waitFor();
    await checkScreen(page, "organization");

    const grace = await newPerson();
    await signUp(grace.page, "Grace Hopper", "grace@example.com");
    // Only a verified address may answer an invitation to it.
    const accept = await mailedLink("grace@example.com", "/accept-invitation/");
    await grace.page.goto(accept);
    await grace.page.getByText("Confirm your e-mail address to open this invitation.").waitFor();
    await grace.page.getByRole("button", { name: "Send verification link" }).click();
    await grace.page.getByText("We sent a verification link to grace@example.com").waitFor();
    await grace.page.goto(await mailedLink("grace@example.com", "/api/auth/verify-email"));
    await grace.page.getByRole("heading", { name: "Your address is verified" }).waitFor();
    await grace.page.goto(accept);
    await grace.page.getByRole("heading", { name: "Join Acme Rockets?" }).waitFor();
    await checkScreen(grace.page, "accept-invitation");
    await grace.page.getByRole("button", { name: "Accept and join" }).click();
    await grace.page.getByRole("heading", { name: "Acme Rockets" }).waitFor();
    // A member sees what they may not do, and why.
    await grace.page.getByText("Only owners and admins can invite people.").waitFor();

    // A team, with the new member in it.
    await page.reload();
    const teams = page.locator("section.card", { has: page.getByRole("heading", { name: "Teams" }) });
    await teams.getByLabel("New team").fill("Launch");
    await teams.getByRole("button", { name: "Create team" }).click();
    await teams.getByText("Launch", { exact: true }).waitFor();
    await teams.getByLabel("Member to add to Launch").selectOption({ label: "Grace Hopper" });
    await teams.getByRole("button", { name: "Add to Launch" }).click();
    await teams.locator("li.list-block", { hasText: "Launch" }).getByText("Added to the team.").waitFor();
    await checkScreen(page, "organization-with-team");
    // Grace, now in the team, sees who is in it.
    await grace.page.reload();
    await grace.page.getByRole("list", { name: "Members of Launch" }).getByText("Grace Hopper").waitFor();

    // The first admin is made from the command line; the role counts from the next request.
    expect(await grantAdmin("ada@example.com")).toBe(0);
    await expect.poll(async () => (await page.reload(), await page.getByRole("link", { name: "Admin" }).count()), { timeout: 10_000 }).toBe(1);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    await page.getByLabel("Search by name or e-mail").fill("grace");
    await page.getByRole("link", { name: "Grace Hopper" }).click();
    await page.getByRole("heading", { name: "Grace Hopper" }).waitFor();
    await checkScreen(page, "admin-user");

    // A ban signs Grace out at once and keeps her out.
    await page.getByLabel("Reason").fill("Testing bans");
    await page.getByRole("button", { name: "Ban user" }).click();
    await page.getByText("Grace Hopper is banned.").waitFor();
    // The revocation reaches the gateway's session cache through an event, within moments.
    await expect.poll(async () => (await grace.page.reload(), await grace.page.getByRole("heading", { name: "Sign in" }).count()), { timeout: 10_000 }).toBe(1);
    await signIn(grace.page, "grace@example.com");
    await grace.page.getByRole("alert").filter({ hasText: "banned" }).waitFor();
    await page.getByRole("button", { name: "Unban" }).click();
    await page.getByText("Grace Hopper can sign in again.").waitFor();

    // Impersonation shows whose eyes the admin sees through, and the way back.
    await page.getByRole("button", { name: "Impersonate Grace Hopper" }).click();
    await page.getByText("You are signed in as Grace Hopper").waitFor();
    await checkScreen(page, "impersonating");
    await page.getByRole("button", { name: "Stop impersonating" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    expect(await page.getByText("You are signed in as").count()).toBe(0);

    await ada.context.close();
    await grace.context.close();
  });

  it("fits a phone-width screen and keeps what was typed when the server refuses", { timeout: 60_000 }, async () => {
    const { context, page } = await newPerson({ viewport: { width: 375, height: 740 } });
    await page.goto("/sign-up");
    await page.getByLabel("Name", { exact: true }).fill("Ada Again");
    await page.getByLabel("E-mail", { exact: true }).fill("ada@example.com");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Repeat the password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").filter({ hasText: "An account with this e-mail address already exists." }).waitFor();
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Ada Again");
    // Nothing runs off the side of a phone.
    expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(375);
    await checkScreen(page, "sign-up-phone");
    await page.getByLabel("E-mail", { exact: true }).fill("not an address");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Enter an e-mail address such as ada@example.com").waitFor();
    expect(await page.getByLabel("E-mail", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await context.close();
  });

  it("keeps a signed-in person's language on every browser, chosen in the header or in account settings", { timeout: 120_000 }, async () => {
    const lena = await newPerson();
    await signUp(lena.page, "Lena", "lena@example.com");
    await lena.page.getByLabel("Language").selectOption("de");
    await lena.page.getByRole("heading", { name: "Ihre Organisationen" }).waitFor();

    // A browser that has stored nothing: the saved choice follows the user there.
    const elsewhere = await newPerson();
    await signIn(elsewhere.page, "lena@example.com");
    await elsewhere.page.getByRole("heading", { name: "Ihre Organisationen" }).waitFor();
    await elsewhere.page.goto("/account");
    const languageCard = elsewhere.page.getByRole("region", { name: "Sprache" });
    expect(await languageCard.getByLabel("Sprache").inputValue()).toBe("de");
    await checkScreen(elsewhere.page, "account-language");
    // No choice: the browser's own language (English here) decides again.
    await languageCard.getByLabel("Sprache").selectOption("");
    await languageCard.getByRole("button", { name: "Sprache speichern" }).click();
    await elsewhere.page.getByRole("heading", { name: "Your account" }).waitFor();
    await elsewhere.page.getByText("Your language is saved.").waitFor();

    await lena.context.close();
    await elsewhere.context.close();
  });

  it("shows the API reference at /docs, built from what the endpoints declare, with nothing fetched from elsewhere", { timeout: 60_000 }, async () => {
    const { page } = await newPerson();
    const elsewhere: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).origin !== new URL(site).origin) elsewhere.push(response.url());
    });
    await page.goto("/docs");
    await page.getByRole("heading", { name: /^Tollgate API \(\d{4}-\d{2}\)$/ }).waitFor();
    await page.getByRole("heading", { name: "Create a webhook endpoint" }).waitFor();
    await page.getByRole("heading", { name: "Create a checkout session" }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "api-reference.png") });
    // Each dated version of Polar's API has its reference; the page reads that version's document.
    const dated = page.waitForResponse((response) => response.url().endsWith("/v1/openapi.json?version=2026-04") && response.ok());
    await page.getByRole("navigation", { name: "API versions" }).getByRole("link", { name: "2026-04" }).click();
    await dated;
    await page.getByRole("heading", { name: "Create a checkout session" }).waitFor();
    expect(await page.title()).toBe("Tollgate API 2026-04 — reference");
    await page.getByRole("link", { name: "Tollgate accounts API" }).click();
    await page.getByRole("heading", { name: /Tollgate accounts API/ }).waitFor();
    await page.getByRole("heading", { name: "Sign up with an e-mail address and password" }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "api-reference-auth.png") });
    expect(elsewhere).toEqual([]);
  });

  it("sells a product on the hosted checkout page: a declined card is said in words, the next one pays", { timeout: 120_000 }, async () => {
    const seller = await newPerson();
    await signUp(seller.page, "Sam Seller", `sam-${Date.now()}@example.com`);
    const slug = `sams-shop-${Date.now()}`;
    const { api } = await openShop(seller.page, "Sam's Shop", slug, ["products:write", "checkouts:write", "orders:read"]);
    const product = await api<{ id: string }>("/v1/products/", { name: "Field guide", description: "Birds of the northern coast", prices: [{ amount_type: "fixed", price_amount: 1_500, price_currency: "usd" }] });
    const checkout = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [product.id] });

    const { page, say } = await newPerson();
    await page.goto(`/checkout/${checkout.client_secret}`);
    await page.getByRole("heading", { name: "Field guide from Sam's Shop" }).waitFor();
    await fillCheckout(page, say, { email: "reader@example.com", country: "gb", card: "4000 0000 0000 0002" });
    await page.getByRole("button", { name: "Pay $15.00" }).click();
    await page.getByRole("alert").filter({ hasText: "Your card was declined." }).waitFor();
    await checkScreen(page, "checkout-declined");

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $15.00" }).click();
    await page.getByRole("heading", { name: "Thank you!" }).waitFor();
    await page.getByText("Your payment of $15.00 to Sam's Shop went through.").waitFor();
    await checkScreen(page, "checkout-paid");
    const orders = await api<{ items: { status: string; total_amount: number }[] }>(`/v1/orders/?checkout_id=${checkout.id}`);
    expect(orders.items).toEqual([expect.objectContaining({ status: "paid", total_amount: 1_500 })]);

    // A buyer in the US is asked for a state and postal code; a free product needs no card.
    const sample = await api<{ id: string }>("/v1/products/", { name: "Sample chapter", prices: [{ amount_type: "free" }] });
    const free = await api<{ client_secret: string }>("/v1/checkouts/", { products: [sample.id] });
    await page.goto(`/checkout/${free.client_secret}`);
    await page.getByRole("heading", { name: "Sample chapter from Sam's Shop" }).waitFor();
    expect(await page.getByLabel("Card number").count()).toBe(0);
    await fillCheckout(page, say, { email: "us-reader@example.com", country: "US" });
    await page.getByLabel("State or province").waitFor();
    await page.getByRole("button", { name: "Get it" }).click();
    await page.getByRole("heading", { name: "Thank you!" }).waitFor();
    const paidInUs = await api<{ client_secret: string }>("/v1/checkouts/", { products: [product.id] });
    await page.goto(`/checkout/${paidInUs.client_secret}`);
    await fillCheckout(page, say, { email: "us-reader@example.com", country: "US", card: "4242 4242 4242 4242" });
    await page.getByRole("button", { name: "Pay $15.00" }).click();
    await page.getByText("Enter the state or province").waitFor();
    await page.getByLabel("State or province").fill("NY");
    await page.getByLabel("Postal code").fill("10001");
    await page.getByRole("button", { name: "Pay $15.00" }).click();
    await page.getByRole("heading", { name: "Thank you!" }).waitFor();

    // The seller rehearses time on the organization page's sandbox clock.
    await seller.page.goto(`/organizations/${slug}`);
    const clock = seller.page.getByRole("region", { name: "Sandbox test clock" });
    await clock.getByText("(real time)").waitFor();
    await clock.getByRole("button", { name: "Advance 30 days" }).click();
    await clock.getByText("Moved ahead 30 days; renewals and retries that came due have run.").waitFor();
    await clock.getByText("(30 days ahead)").waitFor();
    await checkScreen(seller.page, "organization-test-clock");
  });

  it("opens the customer portal from a seller's link: orders, licence key, cancel and resume, billing details; and a buyer's purchases", { timeout: 180_000 }, async () => {
    onTestFailed(screenshotFailure);
    const seller = await newPerson();
    await signUp(seller.page, "Frida Fjord", `frida-${Date.now()}@example.com`);
    const slug = `fjord-tools-${Date.now()}`;
    const { organizationId, api } = await openShop(seller.page, "Fjord Tools", slug, ["products:write", "checkouts:write", "benefits:write", "subscriptions:write", "customer_sessions:write", "orders:read", "license_keys:read"]);
    const licence = await api<{ id: string }>("/v1/benefits/", { type: "license_keys", description: "Licence", properties: {} });
    const editor = await api<{ id: string }>("/v1/products/", { name: "Editor", prices: [{ amount_type: "fixed", price_amount: 3_000, price_currency: "usd" }] });
    await api(`/v1/products/${editor.id}/benefits`, { benefits: [licence.id] });
    const cloud = await api<{ id: string }>("/v1/products/", { name: "Editor Cloud", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }] });

    // The buyer pays for both on the hosted checkout page.
    const buyer = await newPerson();
    const { page, say } = buyer;
    const email = "portal-buyer@example.com";
    const checkoutIds: string[] = [];
    for (const product of [editor, cloud]) {
      const checkout = await api<{ id: string; client_secret: string }>("/v1/checkouts/", { products: [product.id] });
      checkoutIds.push(checkout.id);
      await page.goto(`/checkout/${checkout.client_secret}`);
      await fillCheckout(page, say, { email, country: "DK", card: "4242 4242 4242 4242" });
      await page.getByRole("button", { name: /^Pay / }).click();
      await page.getByRole("heading", { name: "Thank you!" }).waitFor();
    }
    const { customer_id: customerId } = await api<{ customer_id: string }>(`/v1/checkouts/${checkoutIds[0]}`);
    const session = await api<{ customer_portal_url: string }>("/v1/customer-sessions/", { customer_id: customerId });
    // The link names the stack's PUBLIC_URL; the browser reaches the same stack at `site`.
    const link = new URL(session.customer_portal_url);
    expect(link.pathname).toBe(`/${slug}/portal`);

    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Your purchases from Fjord Tools" }).waitFor();
    // The token leaves the address bar at once, and the page keeps working without it.
    await expect.poll(() => new URL(page.url()).search).toBe("");
    const orders = page.getByRole("list", { name: "Your orders" }).getByRole("listitem");
    await orders.nth(1).waitFor();
    // Each paid order offers its receipt and invoice.
    expect(await orders.allInnerTexts()).toEqual([expect.stringMatching(/^Editor Cloud\s.*\$5\.00\s+Paid\s+Receipt\s+Invoice$/s), expect.stringMatching(/^Editor\s.*\$30\.00\s+Paid\s+Receipt\s+Invoice$/s)]);
    const keys = await api<{ items: { key: string }[] }>(`/v1/license-keys/?organization_id=${organizationId}`);
    expect(keys.items).toHaveLength(1);
    await page.locator("code", { hasText: keys.items[0]?.key ?? "no key" }).waitFor();

    const subscriptions = page.getByRole("list", { name: "Your subscriptions" });
    await subscriptions.getByText("$5.00 a month").waitFor();
    await subscriptions.getByText(/Renews on /).waitFor();
    await subscriptions.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel Editor Cloud?" });
    await dialog.getByText(/It stays yours until /).waitFor();
    await checkScreen(page, "customer-portal-cancel");
    await dialog.getByRole("button", { name: "Cancel subscription" }).click();
    await subscriptions.getByText(/Ends on /).waitFor();
    await subscriptions.getByText("Your subscription is canceled.", { exact: false }).waitFor();
    await subscriptions.getByRole("button", { name: "Resume subscription" }).click();
    await subscriptions.getByText(/Renews on /).waitFor();
    const [subscription] = (await api<{ items: { cancel_at_period_end: boolean }[] }>(`/v1/subscriptions/?customer_id=${customerId}`)).items;
    expect(subscription?.cancel_at_period_end).toBe(false);

    // Once the seller lets customers pause (Settings), the buyer pauses at the period's end, takes it
    // back, pauses again; a month on the seller's test clock later it is paused, and resumes at once.
    await seller.page.goto(`/${slug}/settings`);
    await seller.page.getByLabel("Customers may pause and resume their subscriptions in the customer portal").check();
    await seller.page.getByRole("button", { name: "Save subscription settings" }).click();
    await seller.page.getByText("Subscription settings saved.").waitFor();
    await page.reload();
    const pause = async () => {
      await subscriptions.getByRole("button", { name: "Pause subscription" }).click();
      await page.getByRole("dialog", { name: "Pause Editor Cloud?" }).getByRole("button", { name: "Pause subscription" }).click();
      await subscriptions.getByText(/Pauses on /).waitFor();
    };
    await pause();
    await subscriptions.getByText("Your subscription pauses at the end of this period.", { exact: false }).waitFor();
    await subscriptions.getByRole("button", { name: "Don't pause" }).click();
    await subscriptions.getByText(/Renews on /).waitFor();
    await pause();
    await api(`/v1/sandbox/clock/${organizationId}/advance`, { days: 32 });
    await page.reload();
    await subscriptions.getByText("Paused").waitFor();
    await subscriptions.getByRole("button", { name: "Resume now" }).click();
    const resuming = page.getByRole("dialog", { name: "Resume Editor Cloud now?" });
    await resuming.getByText("A new period starts today, and it is charged now.").waitFor();
    await checkScreen(page, "customer-portal-resume");
    await resuming.getByRole("button", { name: "Resume now" }).click();
    await subscriptions.getByText("Your subscription is running again: its new period has started.").waitFor();
    await subscriptions.getByText(/Renews on /).waitFor();

    await page.getByLabel("Billing name").fill("Pat's Workshop ApS");
    await page.getByLabel("Address", { exact: true }).fill("Havnegade 1");
    await page.getByLabel("Postal code").fill("8000");
    await page.getByLabel("City").fill("Aarhus");
    await page.getByLabel("Country").fill("dk");
    await page.getByRole("button", { name: "Save billing details" }).click();
    await page.getByText("Your billing details are saved.", { exact: false }).waitFor();
    await checkScreen(page, "customer-portal");
    // Back later in the same tab: the token kept from the link still opens the portal, with the details saved.
    await page.reload();
    await expect.poll(() => page.getByLabel("City").inputValue()).toBe("Aarhus");
    expect(await page.getByLabel("Country").inputValue()).toBe("DK");
    // Nothing runs off the side of a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(390);
    await checkScreen(page, "customer-portal-phone");
    await page.setViewportSize({ width: 1280, height: 720 });

    // A link that no longer opens the portal is said in words, and the buyer is asked to sign in by e-mail instead.
    await page.goto(`/${slug}/portal?customer_session_token=polar_cst_nope`);
    await page.getByText("Your session has ended. Sign in again to see your purchases.").waitFor();
    await page.getByRole("button", { name: "Send me a code" }).waitFor();
    await checkScreen(page, "customer-portal-expired");

    // The buyer, signed up and verified with the same e-mail, sees the purchases from every seller.
    await signUp(page, "Pat Buyer", email);
    await page.getByRole("button", { name: "Account menu for Pat Buyer" }).click();
    await page.getByRole("menuitem", { name: "Purchases" }).click();
    await page.getByText(`Purchases made with ${email} show here once your e-mail is verified.`).waitFor();
    await page.getByRole("button", { name: "Send verification link" }).click();
    await page.getByText(`We sent a verification link to ${email}`).waitFor();
    await page.goto(await mailedLink(email, "/api/auth/verify-email"));
    await page.getByRole("heading", { name: "Your address is verified" }).waitFor();
    // Billing hears of the verification through an event, within moments.
    const ordersShown = async () => {
      await page.goto("/purchases");
      await page.locator(".empty, .card").first().waitFor();
      return page.getByRole("list", { name: "Orders from Fjord Tools" }).getByRole("listitem").count();
    };
    // The two bought at the checkout, and the period the resume charged.
    await expect.poll(ordersShown, { timeout: 15_000 }).toBe(3);
    await page.getByRole("list", { name: "Subscriptions from Fjord Tools" }).getByText("Editor Cloud").waitFor();
    await checkScreen(page, "purchases");
    await seller.context.close();
    await buyer.context.close();
  });
});
