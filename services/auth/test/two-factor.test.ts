import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { URI, type TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, request } from "@tollgate/kit";
import { resolveSession } from "@tollgate/proto";
import { startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { startAuthStack, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";
const STEP_MS = 30_000;

let smtp: SmtpCatcher;
let stack: AuthStack;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  stack = await startAuthStack({ SMTP_URL: smtp.url });
});

afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

/**
 * The authenticator app's code `steps` time steps from now. A code is checked against the server's
 * clock a moment later: near the end of a step, wait for the next one so both see the same step.
 */
async function codeOf(totp: TOTP, steps = 0): Promise<string> {
  if (STEP_MS - (Date.now() % STEP_MS) < 2_000) await sleep(STEP_MS - (Date.now() % STEP_MS) + 50);
  return totp.generate({ timestamp: Date.now() + steps * STEP_MS });
}

async function signedUp(email: string, locale?: string): Promise<Browser> {
  const browser = stack.browser();
  const { error } = await browser.client.signUp.email({ name: email.split("@")[0] ?? email, email, password, locale });
  expect(error).toBeNull();
  return browser;
}

/** Sets up an authenticator app for the signed-in user: enable's answer, with its URI and backup codes. */
async function enableApp(browser: Browser): Promise<{ totpURI: string; backupCodes: string[] }> {
  const enabled = await browser.client.twoFactor.enable({ password });
  expect(enabled.error).toBeNull();
  if (enabled.data?.method !== "totp") throw new Error(`enable answered ${JSON.stringify(enabled.data)}`);
  return enabled.data;
}

/**
 * A user with an authenticator app set up and confirmed with the code of the step before now, so that
 * now's code and the next step's are both still unused. Signed out afterwards.
 */
async function withAuthenticator(email: string, locale?: string) {
  const browser = await signedUp(email, locale);
  const enabled = await enableApp(browser);
  const totp = URI.parse(enabled.totpURI) as TOTP;
  const confirmed = await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp, -1) });
  expect(confirmed.error).toBeNull();
  await browser.client.signOut();
  return { totp, backupCodes: enabled.backupCodes };
}

/** A password sign-in in a new browser (or `browser`) that must stop at the second factor. */
async function pendingSignIn(email: string, browser: Browser = stack.browser()): Promise<Browser> {
  const signIn = await browser.client.signIn.email({ email, password });
  expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
  return browser;
}

describe("two-factor authentication with better-auth's twoFactorClient", () => {
  it("sets up an authenticator app, on only once its first code is verified", async () => {
    const browser = await signedUp("setup@two-factor.example");
    const enabled = await enableApp(browser);
    expect(enabled.totpURI).toMatch(/^otpauth:\/\/totp\/Tollgate:setup%40two-factor\.example\?secret=[A-Z2-7]{32}&issuer=Tollgate&digits=6&period=30$/);
    expect(enabled.backupCodes).toHaveLength(10);
    for (const code of enabled.backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    expect((await browser.client.getSession()).data?.user.twoFactorEnabled).toBe(false);

    const totp = URI.parse(enabled.totpURI) as TOTP;
    expect(totp.algorithm).toBe("SHA1");
    const wrong = await browser.client.twoFactor.verifyTotp({ code: "000000" === (await codeOf(totp)) ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_CODE", message: "Invalid code" });
    const confirmed = await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp) });
    expect(confirmed.data?.user).toMatchObject({ email: "setup@two-factor.example", twoFactorEnabled: true });
    // The gateway had the session cached with the flag off: the announcement made it forget that.
    expect((await browser.client.getSession()).data?.user.twoFactorEnabled).toBe(true);

    const again = await browser.client.twoFactor.enable({ password });
    expect(again.error).toMatchObject({ status: 400, code: "TOTP_ALREADY_ENABLED" });
    const uri = await browser.client.twoFactor.getTotpUri({ password });
    expect(uri.data?.totpURI).toBe(enabled.totpURI);
    expect((await browser.client.twoFactor.getTotpUri({ password: "not the password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
  });

  it("refuses to set up two-factor without the password", async () => {
    const browser = await signedUp("no-password@two-factor.example");
    const refused = await browser.client.twoFactor.enable({ password: "not the password" });
    expect(refused.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD", message: "Invalid password" });
    const user = (await browser.client.getSession()).data?.user;
    expect(user?.twoFactorEnabled).toBe(false);
    expect(await stack.auth.context.db("two_factors").where({ user_id: user?.id }).first()).toBeUndefined();
  });

  it("holds a password sign-in back until the app's code, then signs in", async () => {
    const { totp } = await withAuthenticator("sign-in@two-factor.example");
    const browser = await pendingSignIn("sign-in@two-factor.example");
    expect((await browser.client.getSession()).data).toBeNull();
    const cookies = (await browser.jar.getCookies(stack.gateway.url)).map((cookie) => cookie.key);
    expect(cookies).toEqual(["better-auth.two_factor"]);

    const verified = await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp) });
    expect(verified.error).toBeNull();
    expect(verified.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(verified.data?.user).toMatchObject({ email: "sign-in@two-factor.example", twoFactorEnabled: true });
    const session = await browser.client.getSession();
    expect(session.data?.session.token).toBe(verified.data?.token);
    // The gateway learns the flag with the session, for the rule that an organization requires two-factor.
    const gateway = await connectBus({ url: stack.environment.natsUrl, prefix: stack.environment.natsPrefix, name: "two-factor-test" });
    const resolved = await request(gateway, resolveSession, { token_hash: createHash("sha256").update(verified.data?.token ?? "").digest("hex") });
    await gateway.nc.drain();
    expect(resolved.session?.two_factor_enabled).toBe(true);
    // The pending sign-in is used up with its cookie.
    expect((await browser.jar.getCookies(stack.gateway.url)).map((cookie) => cookie.key)).not.toContain("better-auth.two_factor");
  });

  it("holds username sign-ins back too", async () => {
    const browser = stack.browser();
    await browser.client.signUp.email({ name: "Hopper", email: "hopper@two-factor.example", username: "grace_hopper", password });
    const totp = URI.parse((await enableApp(browser)).totpURI) as TOTP;
    await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp) });
    const other = stack.browser();
    const signIn = await other.client.signIn.username({ username: "grace_hopper", password });
    expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect((await other.client.getSession()).data).toBeNull();
  });

  it("does not take the same code twice", async () => {
    const { totp } = await withAuthenticator("replay@two-factor.example");
    const code = await codeOf(totp);
    expect((await (await pendingSignIn("replay@two-factor.example")).client.twoFactor.verifyTotp({ code })).error).toBeNull();
    const replayed = await (await pendingSignIn("replay@two-factor.example")).client.twoFactor.verifyTotp({ code });
    expect(replayed.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
  });

  it("ends a pending sign-in after 5 wrong codes, even if the right one follows", async () => {
    const { totp } = await withAuthenticator("guesser@two-factor.example");
    const browser = await pendingSignIn("guesser@two-factor.example");
    const right = await codeOf(totp);
    const wrong = right === "123456" ? "654321" : "123456";
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await browser.client.twoFactor.verifyTotp({ code: wrong })).error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    }
    const sixth = await browser.client.twoFactor.verifyTotp({ code: right });
    expect(sixth.error).toMatchObject({ status: 400, code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", message: "Too many attempts. Please request a new code." });
    const after = await browser.client.twoFactor.verifyTotp({ code: right });
    expect(after.error).toMatchObject({ status: 401, code: "INVALID_TWO_FACTOR_COOKIE", message: "Invalid two factor cookie" });
    expect((await browser.client.getSession()).data).toBeNull();
  });

  it("refuses a second factor without a pending sign-in", async () => {
    const stranger = stack.browser();
    const refused = await stranger.client.twoFactor.verifyTotp({ code: "123456" });
    expect(refused.error).toMatchObject({ status: 401, code: "INVALID_TWO_FACTOR_COOKIE" });
  });

  it("takes a backup code once", async () => {
    const { backupCodes } = await withAuthenticator("backup@two-factor.example");
    const [first = "", second = ""] = backupCodes;
    const browser = await pendingSignIn("backup@two-factor.example");
    const used = await browser.client.twoFactor.verifyBackupCode({ code: first });
    expect(used.data?.user.email).toBe("backup@two-factor.example");
    expect((await browser.client.getSession()).data?.user.email).toBe("backup@two-factor.example");

    const other = await pendingSignIn("backup@two-factor.example");
    const reused = await other.client.twoFactor.verifyBackupCode({ code: first });
    expect(reused.error).toMatchObject({ status: 401, code: "INVALID_BACKUP_CODE", message: "Invalid backup code" });
    expect((await other.client.twoFactor.verifyBackupCode({ code: second })).error).toBeNull();
    expect((await other.client.getSession()).data?.user.email).toBe("backup@two-factor.example");
  });

  it("new backup codes replace the old ones", async () => {
    const { totp, backupCodes } = await withAuthenticator("regenerate@two-factor.example");
    const browser = await pendingSignIn("regenerate@two-factor.example");
    await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp) });
    expect((await browser.client.twoFactor.generateBackupCodes({ password: "not the password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const renewed = await browser.client.twoFactor.generateBackupCodes({ password });
    expect(renewed.data?.status).toBe(true);
    expect(renewed.data?.backupCodes).toHaveLength(10);
    expect(renewed.data?.backupCodes).not.toContain(backupCodes[0]);

    const old = await (await pendingSignIn("regenerate@two-factor.example")).client.twoFactor.verifyBackupCode({ code: backupCodes[0] ?? "" });
    expect(old.error).toMatchObject({ status: 401, code: "INVALID_BACKUP_CODE" });
    const fresh = await (await pendingSignIn("regenerate@two-factor.example")).client.twoFactor.verifyBackupCode({ code: renewed.data?.backupCodes[0] ?? "" });
    expect(fresh.error).toBeNull();
  });

  it("lets a trusted browser skip the second factor, and only that browser", async () => {
    const { totp } = await withAuthenticator("trusted@two-factor.example");
    const browser = await pendingSignIn("trusted@two-factor.example");
    await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp), trustDevice: true });
    const trust = (await browser.jar.getCookies(stack.gateway.url)).find((cookie) => cookie.key === "better-auth.trust_device");
    expect(trust).toMatchObject({ httpOnly: true, maxAge: 30 * 24 * 3600 });
    await browser.client.signOut();

    const again = await browser.client.signIn.email({ email: "trusted@two-factor.example", password });
    expect(again.data).toMatchObject({ redirect: false, user: { email: "trusted@two-factor.example", twoFactorEnabled: true } });
    expect((await browser.client.getSession()).data?.user.email).toBe("trusted@two-factor.example");

    await pendingSignIn("trusted@two-factor.example");
    // The cookie names the user it was given to: another user signing in on this browser still gives a second factor.
    await withAuthenticator("other-user@two-factor.example");
    await browser.client.signOut();
    await pendingSignIn("other-user@two-factor.example", browser);
  });

  it("e-mails a code in the user's language and signs in with it", async () => {
    await withAuthenticator("mailed@two-factor.example", "de");
    const browser = await pendingSignIn("mailed@two-factor.example");
    expect((await browser.client.twoFactor.sendOtp()).data).toEqual({ status: true });
    const mail = await smtp.next("mailed@two-factor.example");
    expect(mail.subject).toBe("Ihr Anmeldecode");
    const code = (mail.text ?? "").match(/^\d{6}$/m)?.[0] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    const wrong = await browser.client.twoFactor.verifyOtp({ code: code === "000000" ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    const verified = await browser.client.twoFactor.verifyOtp({ code });
    expect(verified.data?.user.email).toBe("mailed@two-factor.example");
    expect((await browser.client.getSession()).data?.user.email).toBe("mailed@two-factor.example");
  });

  it("keeps the remember-me choice of the password sign-in", async () => {
    const { totp } = await withAuthenticator("forgetful@two-factor.example");
    const browser = stack.browser();
    await browser.client.signIn.email({ email: "forgetful@two-factor.example", password, rememberMe: false });
    await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp) });
    const cookies = await browser.jar.getCookies(stack.gateway.url);
    expect(cookies.find((cookie) => cookie.key === "better-auth.session_token")).toMatchObject({ maxAge: null });
    expect(cookies.map((cookie) => cookie.key)).toContain("better-auth.dont_remember");
  });

  it("turns two-factor off with the password", async () => {
    const { totp } = await withAuthenticator("disable@two-factor.example");
    const browser = await pendingSignIn("disable@two-factor.example");
    await browser.client.twoFactor.verifyTotp({ code: await codeOf(totp), trustDevice: true });
    expect((await browser.client.twoFactor.disable({ password: "not the password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    expect((await browser.client.twoFactor.disable({ password })).data).toEqual({ status: true });
    expect((await browser.client.getSession()).data?.user.twoFactorEnabled).toBe(false);
    expect((await browser.jar.getCookies(stack.gateway.url)).map((cookie) => cookie.key)).not.toContain("better-auth.trust_device");

    const signIn = await stack.browser().client.signIn.email({ email: "disable@two-factor.example", password });
    expect(signIn.data).toMatchObject({ redirect: false, user: { twoFactorEnabled: false } });
  });

  it("keeps the secret and the backup codes sealed in the database", async () => {
    const browser = await signedUp("sealed@two-factor.example");
    const enabled = await enableApp(browser);
    const secret = (URI.parse(enabled.totpURI) as TOTP).secret.base32;
    const userId = (await browser.client.getSession()).data?.user.id;
    const row = await stack.auth.context.db("two_factors").where({ user_id: userId }).first<Record<string, unknown>>();
    const stored = JSON.stringify(row);
    expect(row).toBeTruthy();
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret).toString("base64"));
    for (const code of enabled.backupCodes) expect(stored).not.toContain(code);
  });
});
