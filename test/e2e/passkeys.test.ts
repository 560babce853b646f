import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { checkScreen, newPerson, screenshotFailure, signUp, startBrowsing, stopBrowsing, type Person, type Say } from "./browser.js";

/**
 * Passkeys in a real Chromium, whose DevTools protocol stands in a virtual platform authenticator (a
 * fingerprint reader that always says yes): added and renamed on the account screen, used to sign in
 * by the button and by the browser's autofill, deleted, and then refused with words that say why.
 */

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function signOut(page: Page, say: Say, name: string): Promise<void> {
  await page.getByRole("button", { name: say("shell.userMenu.label", { name }) }).click();
  await page.getByRole("menuitem", { name: say("shell.userMenu.signOut") }).click();
  await page.getByRole("heading", { name: say("auth.signIn.title") }).waitFor();
}

/** The account screen's Passkeys card. */
const passkeysCard = (page: Page, say: Say) => page.locator("section.card", { has: page.getByRole("heading", { name: say("account.passkeys.title"), exact: true }) });

/** Both widths of a screen, checked and kept as screenshots. */
async function checkAtBothWidths(page: Page, name: string): Promise<void> {
  await checkScreen(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await checkScreen(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

/** A browser profile with a virtual platform authenticator, as a laptop with a fingerprint reader. */
async function withAuthenticator(person: Person) {
  const devtools = await person.context.newCDPSession(person.page);
  await devtools.send("WebAuthn.enable");
  const { authenticatorId } = await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { devtools, authenticatorId };
}

describe("passkeys", () => {
  it("are added and renamed, sign in through autofill and by the button, and once deleted are refused", { timeout: 180_000 }, async () => {
    onTestFailed(screenshotFailure);
    const laptop = await newPerson({ viewport: DESKTOP });
    const { page, say } = laptop;
    const { devtools, authenticatorId } = await withAuthenticator(laptop);
    const name = "Pia Passkey";
    await signUp(page, name, `passkey-${Date.now()}@example.com`);

    await page.goto("/account");
    const card = passkeysCard(page, say);
    await card.getByText(say("account.passkeys.none")).waitFor();
    await card.getByLabel(say("account.passkeys.name")).fill("Work laptop");
    await card.getByRole("button", { name: say("account.passkeys.add") }).click();
    await card.getByText(say("account.passkeys.added")).waitFor();
    await card.getByText("Work laptop", { exact: true }).waitFor();
    // The authenticator made a discoverable passkey for this site, kept on this device.
    const { credentials } = await devtools.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials.map((credential) => ({ rpId: credential.rpId, resident: credential.isResidentCredential }))).toEqual([{ rpId: "localhost", resident: true }]);
    await card.getByText(say("account.passkeys.oneDevice"), { exact: false }).waitFor();

    await card.getByRole("button", { name: say("account.passkeys.rename") }).click();
    const renaming = card.locator("li");
    await renaming.getByLabel(say("account.passkeys.name")).fill("Travel laptop");
    await renaming.getByRole("button", { name: say("account.passkeys.save") }).click();
    await card.getByText(say("account.passkeys.renamed")).waitFor();
    await card.getByText("Travel laptop", { exact: true }).waitFor();
    await checkAtBothWidths(page, "passkeys-card");

    // Autofill: signed out, the sign-in page waits for a passkey the browser offers, and this
    // browser's authenticator (which needs no touch) answers at once: no click, no e-mail, no password.
    await signOut(page, say, name);
    await page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();

    // The button, on a second browser that offers no passkeys in autofill, with a copy of the passkey.
    const desktop = await newPerson({ viewport: DESKTOP });
    await desktop.context.addInitScript("PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false)");
    const copy = await withAuthenticator(desktop);
    const [held] = (await devtools.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
    if (!held) throw new Error("the laptop holds no passkey");
    await copy.devtools.send("WebAuthn.addCredential", { authenticatorId: copy.authenticatorId, credential: held });
    await desktop.page.goto("/sign-in");
    const identifier = desktop.page.getByLabel(say("auth.signIn.identifier"), { exact: true });
    expect(await identifier.getAttribute("autocomplete")).toBe("username webauthn");
    await checkAtBothWidths(desktop.page, "passkeys-sign-in");
    await desktop.page.getByRole("button", { name: say("auth.passkey.signIn") }).click();
    await desktop.page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();

    // Deleted (after a confirmation) on the laptop, the copy the desktop still holds opens nothing.
    await page.goto("/account");
    await card.getByRole("button", { name: say("account.passkeys.delete") }).click();
    await page.getByRole("dialog").getByRole("button", { name: say("account.passkeys.delete") }).click();
    await card.getByText(say("account.passkeys.deleted")).waitFor();
    await card.getByText(say("account.passkeys.none")).waitFor();
    await signOut(desktop.page, say, name);
    await desktop.page.getByRole("button", { name: say("auth.passkey.signIn") }).click();
    await desktop.page.getByText(say("api.error.PASSKEY_NOT_FOUND")).waitFor();
    expect(await desktop.page.getByRole("heading", { name: say("auth.signIn.title") }).isVisible()).toBe(true);
  });
});
