import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { checkScreen, password, screenshotFailure, signIn, signUp, newPerson, startBrowsing, stopBrowsing, type Say } from "./browser.js";

/**
 * Two-factor authentication as a person meets it: turned on in the account screen with an authenticator
 * app (the key read off the page, as typed into the app), then asked for at the next sign-in.
 */

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const STEP_MS = 30_000;

/** The app's code `steps` time steps from now; near the end of a step, the next one is waited for, so the server sees the same step. */
async function codeOf(totp: TOTP, steps = 0): Promise<string> {
  if (STEP_MS - (Date.now() % STEP_MS) < 3_000) await sleep(STEP_MS - (Date.now() % STEP_MS) + 50);
  return totp.generate({ timestamp: Date.now() + steps * STEP_MS });
}

/** The screen kept at both widths, as a desktop and a phone show it. */
async function bothWidths(page: Page, name: string): Promise<void> {
  await checkScreen(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await checkScreen(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

async function signOut(page: Page, say: Say): Promise<void> {
  await page.getByRole("button", { name: say("shell.userMenu.label", { name: "Tess Factor" }) }).click();
  await page.getByRole("menuitem", { name: say("shell.userMenu.signOut") }).click();
  await page.waitForURL(/\/sign-in/);
  await expect.poll(async (): Promise<unknown> => (await page.request.get("/api/auth/get-session")).json()).toBeNull();
}

describe("two-factor authentication in the web app", () => {
  it("is set up on the account screen and asked for at the next sign-in", async () => {
    onTestFailed(screenshotFailure);
    const { page, say } = await newPerson({ viewport: DESKTOP });
    const email = `two-factor-${Date.now()}@example.com`;
    await signUp(page, "Tess Factor", email);

    await page.goto("/account");
    await page.getByRole("button", { name: say("account.twoFactor.turnOn") }).click();
    await page.getByLabel(say("account.security.password")).fill(password);
    await page.getByRole("button", { name: say("account.twoFactor.continue") }).click();
    const key = await page.getByLabel(say("account.twoFactor.setup.secretLabel")).textContent();
    const totp = new TOTP({ secret: Secret.fromBase32((key ?? "").replaceAll(" ", "")) });
    await expect.poll(() => page.getByRole("img", { name: say("account.twoFactor.setup.qrLabel") }).isVisible()).toBe(true);
    await bothWidths(page, "two-factor-setup");

    // The previous step's code confirms the app, so that the sign-in below has a code not yet used.
    await page.getByLabel(say("account.twoFactor.setup.enterCode")).fill(await codeOf(totp, -1));
    await page.getByRole("button", { name: say("account.twoFactor.setup.confirm") }).click();
    const codes = page.getByRole("list", { name: say("account.twoFactor.backupCodes.title") }).getByRole("listitem");
    await expect.poll(() => codes.count()).toBe(10);
    await page.getByText(say("account.twoFactor.turnedOn")).waitFor();
    await bothWidths(page, "two-factor-backup-codes");
    await page.getByRole("button", { name: say("account.twoFactor.backupCodes.done") }).click();
    await page.getByText(say("account.twoFactor.on")).waitFor();

    await signOut(page, say);
    await signIn(page, email);
    const code = page.getByLabel(say("auth.twoFactor.code"));
    await code.waitFor();
    expect(await code.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await code.getAttribute("inputmode")).toBe("numeric");
    await page.getByRole("button", { name: say("auth.twoFactor.useBackupCode") }).waitFor();
    await page.getByRole("button", { name: say("auth.twoFactor.emailMeCode") }).waitFor();
    await bothWidths(page, "two-factor-sign-in");

    await code.fill(await codeOf(totp));
    await page.getByLabel(say("auth.twoFactor.trustDevice")).check();
    await page.getByRole("button", { name: say("auth.twoFactor.verify") }).click();
    await page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();
  }, 180_000);
});
