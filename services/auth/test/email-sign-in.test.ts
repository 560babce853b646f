import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { startAuthStack, viaGateway, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";

let smtp: SmtpCatcher;
/** better-auth's defaults, mail over SMTP to a local catcher. */
let stack: AuthStack;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  stack = await startAuthStack({ SMTP_URL: smtp.url });
});

afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

/** A redirect's target, not followed. */
async function redirectOf(browser: Pick<Browser, "fetch">, url: string): Promise<string | null> {
  const response = await browser.fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return response.headers.get("location");
}

/** The six-digit code a mail carries. */
function codeIn(mail: ParsedMail): string {
  const code = /^\d{6}$/m.exec(mail.text ?? "")?.[0];
  if (!code) throw new Error(`no code in: ${mail.text}`);
  return code;
}

/** A code the address would not have been sent: the mailed one's neighbour. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function signedUp(email: string, extra: { locale?: "de" } = {}): Promise<Browser> {
  const browser = stack.browser();
  await browser.client.signUp.email({ name: email, email, password, ...extra });
  return browser;
}

describe("magic link", () => {
  it("signs an existing user in once, through the mailed link to PUBLIC_URL", async () => {
    await signedUp("link@example.com");
    const browser = stack.browser();
    const asked = await browser.client.signIn.magicLink({ email: "Link@Example.com", callbackURL: "/dashboard" });
    expect(asked.data).toEqual({ status: true });

    const mail = await smtp.next("link@example.com");
    expect(mail.subject).toBe("Your sign-in link");
    const link = linkTo(mail, "/api/auth/magic-link/verify");
    expect(link.startsWith("http://localhost:3000/api/auth/magic-link/verify?token=")).toBe(true);
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/dashboard");

    expect(await redirectOf(browser, viaGateway(stack, link))).toBe("http://localhost:3000/dashboard");
    expect((await browser.client.getSession()).data?.user).toMatchObject({ email: "link@example.com", emailVerified: true });

    // Good once: a second visit, even by the same browser, is refused.
    const again = stack.browser();
    expect(await redirectOf(again, viaGateway(stack, link))).toBe("http://localhost:3000/dashboard?error=INVALID_TOKEN");
    expect((await again.client.getSession()).data).toBeNull();
  });

  it("signs a new address up, verified, and sends it to the new-user callback", async () => {
    const browser = stack.browser();
    await browser.client.signIn.magicLink({ email: "newcomer@example.com", name: "Nina", callbackURL: "/home", newUserCallbackURL: "/welcome" });
    const link = linkTo(await smtp.next("newcomer@example.com"), "/api/auth/magic-link/verify");
    expect(await redirectOf(browser, viaGateway(stack, link))).toBe("http://localhost:3000/welcome");
    expect((await browser.client.getSession()).data?.user).toMatchObject({ email: "newcomer@example.com", name: "Nina", emailVerified: true });
  });

  it("answers a link verified without a callback with the session, as JSON", async () => {
    const browser = stack.browser();
    await browser.client.signIn.magicLink({ email: "json.link@example.com" });
    const token = new URL(linkTo(await smtp.next("json.link@example.com"), "/api/auth/magic-link/verify")).searchParams.get("token") ?? "";
    const verified = await browser.client.magicLink.verify({ query: { token } });
    expect(verified.data).toMatchObject({ user: { email: "json.link@example.com" }, session: { token: verified.data?.token } });
  });

  it("refuses an expired link, sending the browser to the error callback", async () => {
    const browser = stack.browser();
    await browser.client.signIn.magicLink({ email: "late@example.com", callbackURL: "/home", errorCallbackURL: "/link-failed" });
    const link = linkTo(await smtp.next("late@example.com"), "/api/auth/magic-link/verify");
    const token = new URL(link).searchParams.get("token") ?? "";
    const stored = await stack.auth.context.db("verifications").where("identifier", "like", "magic-link:%").select<{ identifier: string; value: string }[]>();
    expect(JSON.stringify(stored)).not.toContain(token);
    await stack.auth.context.db("verifications").where("value", "like", '%"late@example.com"%').update({ expires_at: new Date(Date.now() - 1000) });

    expect(await redirectOf(browser, viaGateway(stack, link))).toBe("http://localhost:3000/link-failed?error=INVALID_TOKEN");
    expect((await browser.client.getSession()).data).toBeNull();
  });

  it("refuses callbacks off the site", async () => {
    const { client } = stack.browser();
    const asked = await client.signIn.magicLink({ email: "evil@example.com", callbackURL: "https://evil.example/" });
    expect(asked.error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
    const error = await client.signIn.magicLink({ email: "evil@example.com", errorCallbackURL: "https://evil.example/" });
    expect(error.error).toMatchObject({ status: 403, code: "INVALID_ERROR_CALLBACK_URL" });
  });
});

describe("e-mail one-time codes", () => {
  it("signs in with a mailed code, verifying the address, and the code works once", async () => {
    const laptop = stack.browser();
    await laptop.client.signUp.email({ name: "Otto", email: "otto@example.com", password });
    expect((await laptop.client.getSession()).data?.user.emailVerified).toBe(false);

    const phone = stack.browser();
    expect((await phone.client.emailOtp.sendVerificationOtp({ email: "otto@example.com", type: "sign-in" })).data).toEqual({ success: true });
    const mail = await smtp.next("otto@example.com");
    expect(mail.subject).toBe("Your sign-in code");
    const code = codeIn(mail);

    const signedIn = await phone.client.signIn.emailOtp({ email: "otto@example.com", otp: code });
    expect(signedIn.data?.user).toMatchObject({ email: "otto@example.com", emailVerified: true });
    expect((await phone.client.getSession()).data?.user.email).toBe("otto@example.com");
    // Proof of the mailbox ends what the unverified account had: its password and sessions.
    expect((await laptop.client.getSession()).data).toBeNull();
    expect((await laptop.client.signIn.email({ email: "otto@example.com", password })).error?.status).toBe(401);

    const reused = await stack.browser().client.signIn.emailOtp({ email: "otto@example.com", otp: code });
    expect(reused.error).toMatchObject({ status: 400, code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("signs a new address up with its code", async () => {
    const { client } = stack.browser();
    await client.emailOtp.sendVerificationOtp({ email: "fresh.code@example.com", type: "sign-in" });
    const signedIn = await client.signIn.emailOtp({ email: "fresh.code@example.com", otp: codeIn(await smtp.next("fresh.code@example.com")), name: "Fresh" });
    expect(signedIn.data?.user).toMatchObject({ email: "fresh.code@example.com", name: "Fresh", emailVerified: true });
  });

  it("keeps a code dead after five wrong tries, even for the right code", async () => {
    await signedUp("guess@example.com");
    const { client } = stack.browser();
    await client.emailOtp.sendVerificationOtp({ email: "guess@example.com", type: "sign-in" });
    const code = codeIn(await smtp.next("guess@example.com"));
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await client.signIn.emailOtp({ email: "guess@example.com", otp: wrong(code) })).error).toMatchObject({ status: 400, code: "INVALID_OTP" });
    }
    const right = await client.signIn.emailOtp({ email: "guess@example.com", otp: code });
    expect(right.error).toMatchObject({ status: 403, code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    expect((await client.signIn.emailOtp({ email: "guess@example.com", otp: code })).error).toMatchObject({ status: 400, code: "INVALID_OTP" });
    expect((await client.getSession()).data).toBeNull();
  });

  it("replaces a code with the next one asked for, and refuses an expired one", async () => {
    await signedUp("twice@example.com");
    const { client } = stack.browser();
    await client.emailOtp.sendVerificationOtp({ email: "twice@example.com", type: "sign-in" });
    const first = codeIn(await smtp.next("twice@example.com"));
    await client.emailOtp.sendVerificationOtp({ email: "twice@example.com", type: "sign-in" });
    const second = codeIn(await smtp.next("twice@example.com"));
    if (first !== second) expect((await client.signIn.emailOtp({ email: "twice@example.com", otp: first })).error).toMatchObject({ code: "INVALID_OTP" });

    const stored = await stack.auth.context.db("verifications").where({ identifier: "email-otp:sign-in:twice@example.com" }).select<{ value: string }[]>();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.value).not.toContain(second);
    await stack.auth.context.db("verifications").where({ identifier: "email-otp:sign-in:twice@example.com" }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await client.signIn.emailOtp({ email: "twice@example.com", otp: second })).error).toMatchObject({ status: 400, code: "OTP_EXPIRED", message: "OTP expired" });
  });

  it("verifies an address with a code, after checking it without spending it, and the browser's cached session shows it", async () => {
    // The session_data cookie cache on: the verifying browser's copy of the user is renewed with the answer.
    const cached = await startAuthStack({ SMTP_URL: smtp.url, SESSION_COOKIE_CACHE: "true" }, { SESSION_COOKIE_CACHE: "true" });
    onTestFinished(() => cached.stop());
    const browser = cached.browser();
    await browser.client.signUp.email({ name: "Vic", email: "verify.code@example.com", password });
    expect((await browser.client.getSession()).data?.user.emailVerified).toBe(false);
    await browser.client.emailOtp.sendVerificationOtp({ email: "verify.code@example.com", type: "email-verification" });
    const mail = await smtp.next("verify.code@example.com");
    expect(mail.subject).toBe("Your code to verify your e-mail address");
    const code = codeIn(mail);
    const checked = await browser.client.emailOtp.checkVerificationOtp({ email: "verify.code@example.com", type: "email-verification", otp: code });
    expect(checked.data).toEqual({ success: true });
    const verified = await browser.client.emailOtp.verifyEmail({ email: "verify.code@example.com", otp: code });
    expect(verified.data).toMatchObject({ status: true, token: null, user: { email: "verify.code@example.com", emailVerified: true } });
    expect((await browser.client.getSession()).data?.user.emailVerified).toBe(true);
  });

  it("resets the password with a code, ending every session", async () => {
    const laptop = await signedUp("reset.code@example.com");
    const phone = stack.browser();
    expect((await phone.client.emailOtp.requestPasswordReset({ email: "reset.code@example.com" })).data).toEqual({ success: true });
    const code = codeIn(await smtp.next("reset.code@example.com"));
    expect((await phone.client.emailOtp.resetPassword({ email: "reset.code@example.com", otp: code, password: "short" })).error).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    const reset = await phone.client.emailOtp.resetPassword({ email: "reset.code@example.com", otp: code, password: "a whole new password" });
    expect(reset.data).toEqual({ success: true });

    expect((await laptop.client.getSession()).data).toBeNull();
    expect((await phone.client.signIn.email({ email: "reset.code@example.com", password })).error?.status).toBe(401);
    expect((await phone.client.signIn.email({ email: "reset.code@example.com", password: "a whole new password" })).data?.user.emailVerified).toBe(true);
  });

  it("answers the same for an address without an account, and mails nothing there but a sign-in code", async () => {
    const { client } = stack.browser();
    expect((await client.emailOtp.requestPasswordReset({ email: "nobody@example.com" })).data).toEqual({ success: true });
    expect((await client.emailOtp.sendVerificationOtp({ email: "nobody@example.com", type: "email-verification" })).data).toEqual({ success: true });
    expect((await client.emailOtp.sendVerificationOtp({ email: "not an address", type: "sign-in" })).error).toMatchObject({ status: 400, code: "INVALID_EMAIL" });
    await client.emailOtp.sendVerificationOtp({ email: "nobody@example.com", type: "sign-in" });
    expect((await smtp.next("nobody@example.com")).subject).toBe("Your sign-in code");
    expect(smtp.received("nobody@example.com")).toHaveLength(1);
  });

  it("writes to the user in their language", async () => {
    await signedUp("anna@example.com", { locale: "de" });
    await stack.browser().client.emailOtp.sendVerificationOtp({ email: "anna@example.com", type: "sign-in" });
    const mail = await smtp.next("anna@example.com");
    expect(mail.subject).toBe("Ihr Anmeldecode");
    expect(mail.text).toContain("Der Code funktioniert einmal, 5 Minuten lang.");
  });
});

describe("rate limits on mailed sign-in", () => {
  it("refuses a fourth code mail within a minute", async () => {
    const limited = await startAuthStack({ SMTP_URL: smtp.url }, { RATE_LIMIT_ENABLED: "true" });
    try {
      const { client } = limited.browser();
      const asks = [];
      for (let ask = 0; ask < 4; ask++) asks.push(await client.emailOtp.sendVerificationOtp({ email: "limited@example.com", type: "sign-in" }));
      expect(asks.slice(0, 3).map((ask) => ask.data)).toEqual([{ success: true }, { success: true }, { success: true }]);
      expect(asks[3]?.error).toMatchObject({ status: 429, message: "Too many requests. Please try again later." });
    } finally {
      await limited.stop();
    }
  });
});
