import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createDatabase } from "@tollgate/kit";
import type { RunningTollgate } from "../stacks/tollgate.js";
import { checkScreen, newPerson, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing } from "./browser.js";

/**
 * An organization's requirement of two-factor authentication in the console: the owners' switch in
 * the organization settings, and what a member without two-factor sees of an organization that requires it.
 */

let tollgate: RunningTollgate;

beforeAll(async () => {
  tollgate = await startBrowsing();
}, 240_000);
afterAll(stopBrowsing);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * Requires two-factor of the organization as its owner would, once some owner can have two-factor:
 * until the auth service tells which sessions have it, no session may turn it on through the API.
 */
async function requireTwoFactor(slug: string): Promise<void> {
  const organizations = createDatabase({ url: tollgate.databaseUrl, schema: "organization", poolMax: 1 });
  try {
    await organizations("organizations").where({ slug }).update({ require_two_factor: true });
  } finally {
    await organizations.destroy();
  }
}

describe("requiring two-factor authentication of an organization's members", () => {
  it("refuses an owner without two-factor the switch, and shows a member without it why they cannot open the console", async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const owner = await newPerson({ viewport: DESKTOP });
    const { page, say } = owner;
    await signUp(page, "Olga Owner", `owner-2fa-${stamp}@example.com`);
    const slug = `lighthouse-${stamp}`;
    await openShop(page, "Lighthouse Keepers", slug, ["products:read"]);

    await page.goto(`/${slug}/settings?tab=organization`);
    const toggle = page.getByRole("switch", { name: say("organizations.twoFactor.require") });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByText(say("organizations.twoFactor.enableYoursFirst")).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await checkScreen(page, "two-factor-switch-1280");
    await page.setViewportSize(PHONE);
    await checkScreen(page, "two-factor-switch-390");

    await requireTwoFactor(slug);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/${slug}`);
    await page.getByRole("heading", { name: say("organizations.twoFactor.requiredTitle", { name: "Lighthouse Keepers" }) }).waitFor();
    expect(await page.getByRole("link", { name: say("organizations.twoFactor.openSecurity") }).getAttribute("href")).toBe("/account#security");
    await page.getByRole("button", { name: say("organizations.twoFactor.leave") }).waitFor();
    await checkScreen(page, "two-factor-required-1280");
    await page.setViewportSize(PHONE);
    await checkScreen(page, "two-factor-required-390");

    // The only owner cannot leave: the refusal is said on the screen.
    await page.getByRole("button", { name: say("organizations.twoFactor.leave") }).click();
    await page.getByRole("alert").waitFor();
  });
});
