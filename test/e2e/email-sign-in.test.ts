import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { checkScreen, mailedLink, mailedText, newPerson, password, screenshotFailure, signIn, signUp, startBrowsing, stopBrowsing } from "./browser.js";

/** Signing in without the password: a code or a link e-mailed to the address typed on the sign-in page. */

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe("signing in by e-mail", () => {
  it("signs in with the code from the mail, after saying a wrong one is wrong", async () => {
    onTestFailed(screenshotFailure);
    const email = `code-${Date.now()}@example.com`;
    const owner = await newPerson({ viewport: DESKTOP });
    await signUp(owner.page, "Cora Code", email);
    await owner.context.close();

    const { page, say, context } = await newPerson({ viewport: DESKTOP });
    await page.goto("/sign-in");
    await page.getByLabel(say("auth.signIn.identifier")).fill(email);
    await checkScreen(page, "email-sign-in-1280");
    await page.getByRole("button", { name: say("auth.emailSignIn.sendCode") }).click();
    await page.getByText(say("auth.emailSignIn.codeSent", { email })).waitFor();
    const code = /^\d{6}$/m.exec(await mailedText(email, "Your sign-in code"))?.[0] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    const field = page.getByLabel(say("auth.field.oneTimeCode"));
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code");
    await field.fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
    await page.getByRole("button", { name: say("auth.emailSignIn.signIn") }).click();
    await page.getByText(say("api.error.INVALID_OTP")).waitFor();
    await checkScreen(page, "email-sign-in-code-1280");

    await field.fill(code);
    await page.getByRole("button", { name: say("auth.emailSignIn.signIn") }).click();
    await page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();
    await context.close();
  });

  it("signs in on a phone through the mailed link", async () => {
    onTestFailed(screenshotFailure);
    const email = `link-${Date.now()}@example.com`;
    const owner = await newPerson({ viewport: PHONE });
    await signUp(owner.page, "Lina Link", email);
    await owner.context.close();

    const { page, say, context } = await newPerson({ viewport: PHONE });
    await page.goto("/sign-in");
    await page.getByLabel(say("auth.signIn.identifier")).fill(email);
    await page.getByRole("button", { name: say("auth.emailSignIn.sendLink") }).click();
    await page.getByText(say("auth.emailSignIn.linkSent", { email })).waitFor();
    await checkScreen(page, "email-sign-in-link-390");
    await page.getByRole("button", { name: say("auth.emailSignIn.sendCode") }).click();
    await page.getByText(say("auth.emailSignIn.codeSent", { email })).waitFor();
    await checkScreen(page, "email-sign-in-code-390");

    await page.goto(await mailedLink(email, "/api/auth/magic-link/verify"));
    await page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();
    await context.close();
  });

  it("resets a forgotten password with an e-mailed code", async () => {
    onTestFailed(screenshotFailure);
    const email = `reset-code-${Date.now()}@example.com`;
    const owner = await newPerson({ viewport: PHONE });
    await signUp(owner.page, "Rita Reset", email);
    await owner.context.close();

    const { page, say, context } = await newPerson({ viewport: PHONE });
    await page.goto("/forgot-password");
    await page.getByLabel(say("auth.field.email"), { exact: true }).fill(email);
    await page.getByRole("button", { name: say("auth.forgotPassword.sendCode") }).click();
    await page.getByText(say("auth.resetByCode.sent", { email })).waitFor();
    const code = /^\d{6}$/m.exec(await mailedText(email, "Your code to reset your password"))?.[0] ?? "";
    await page.getByLabel(say("auth.field.oneTimeCode")).fill(code);
    await page.getByLabel(say("auth.resetPassword.newPassword")).fill(`new ${password}`);
    await page.getByLabel(say("auth.field.repeatPassword")).fill(`new ${password}`);
    await checkScreen(page, "reset-by-code-390");
    await page.getByRole("button", { name: say("auth.resetPassword.submit") }).click();
    await page.getByText(say("auth.resetPassword.done")).waitFor();

    // The old password no longer opens the account.
    await signIn(page, email);
    await page.getByText(say("api.error.INVALID_EMAIL_OR_PASSWORD")).waitFor();
    await context.close();
  });
});
