import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { checkScreen, newPerson, screenshotFailure, signUp, site, startBrowsing, stopBrowsing } from "./browser.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

/** get-session as a script calls it: nothing but the key. */
const getSessionWith = (key: string) => fetch(`${site}/api/auth/get-session`, { headers: { "x-api-key": key } });

describe("API keys, in a real browser against the whole stack", () => {
  it("makes a key on the account page, copies it, uses it, and revokes it so that it fails", { timeout: 240_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const email = `keys-${stamp}@example.com`;
    const { page, context, say } = await newPerson({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site });
    await signUp(page, "Key Keeper", email);

    await page.goto("/account");
    const card = page.locator("section.card", { has: page.getByRole("heading", { name: say("account.apiKeys.title") }) });
    await card.getByText(say("apiKeys.none")).waitFor();
    await card.getByLabel(say("apiKeys.new.name")).fill("deploy script");
    await card.getByLabel(say("apiKeys.new.lifetime")).selectOption("30");
    await card.getByRole("button", { name: say("apiKeys.new.create") }).click();
    await card.getByText(say("apiKeys.created.title")).waitFor();
    await checkScreen(page, "api-keys-created");
    const shown = (await card.locator("code.license-key").textContent()) ?? "";
    await card.getByRole("button", { name: say("apiKeys.created.copy") }).click();
    const copied = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(copied).toBe(shown);

    const used = await getSessionWith(copied);
    expect(used.status).toBe(200);
    expect(await used.json()).toMatchObject({ user: { email } });

    // Put away, the key is never shown again: the list has its name and first characters only.
    await card.getByRole("button", { name: say("apiKeys.created.done") }).click();
    await card.getByText("deploy script", { exact: true }).waitFor();
    await card.getByText(`${copied.slice(0, 6)}…`).waitFor();
    await expect.poll(() => card.getByText(copied).count()).toBe(0);
    await checkScreen(page, "api-keys-listed");

    await card.getByRole("button", { name: say("apiKeys.revokeNamed", { name: "deploy script" }) }).click();
    await page.getByRole("dialog").getByRole("button", { name: say("apiKeys.revoke") }).click();
    await card.getByText(say("apiKeys.none")).waitFor();
    const refused = await getSessionWith(copied);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "INVALID_API_KEY" });

    // The same card on a phone, and the organization's keys in the console's Developers group.
    const phone = await newPerson({ viewport: { width: 390, height: 844 }, signedInAs: { page, context, say } });
    await phone.page.goto("/account");
    await phone.page.getByRole("heading", { name: say("account.apiKeys.title") }).waitFor();
    await checkScreen(phone.page, "api-keys-phone");

    const slug = `keys-${stamp}`;
    await page.request.post("/api/auth/organization/create", { headers: { origin: site }, data: { name: "Key Shop", slug } });
    await page.goto(`/${slug}/api-keys`);
    await page.getByRole("heading", { name: say("seller.apiKeys.title"), level: 1 }).waitFor();
    await page.getByLabel(say("apiKeys.new.name")).fill("warehouse");
    await page.getByRole("button", { name: say("apiKeys.new.create") }).click();
    const organizationKey = (await page.locator("code.license-key").textContent()) ?? "";
    await page.getByRole("button", { name: say("apiKeys.created.done") }).click();
    await page.getByText("warehouse", { exact: true }).waitFor();
    await checkScreen(page, "api-keys-console");
    const organization = await fetch(`${site}/api/auth/organization/get-full-organization`, { headers: { "x-api-key": organizationKey } });
    expect(await organization.json()).toMatchObject({ slug });
    await phone.page.goto(`/${slug}/api-keys`);
    await phone.page.getByText("warehouse", { exact: true }).waitFor();
    await checkScreen(phone.page, "api-keys-console-phone");
  });
});
