import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthStack, type AuthStack, type Browser } from "./stack.js";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "./smtp-catcher.js";

const password = "correct horse battery staple";

let smtp: SmtpCatcher;
/** Verification required, mail over SMTP to a local catcher. */
let strict: AuthStack;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  strict = await startAuthStack({ SMTP_URL: smtp.url, REQUIRE_EMAIL_VERIFICATION: "true", DELETE_USER_EMAIL_CONFIRMATION: "true" });
});

afterAll(async () => {
  await strict?.stop();
  await smtp?.close();
});

/** Links in mail point at the public address; the test's gateway listens elsewhere. */
const viaGateway = (stack: AuthStack, link: string) => {
  const url = new URL(link);
  return `${stack.gateway.url}${url.pathname}${url.search}`;
};

async function verifiedUser(email: string): Promise<Browser> {
  const browser = strict.browser();
  await browser.client.signUp.email({ name: email, email, password });
  const mail = await smtp.next(email);
  await fetch(viaGateway(strict, linkTo(mail, "/api/auth/verify-email")), { redirect: "manual" });
  await browser.client.signIn.email({ email, password });
  return browser;
}

describe("e-mail verification", () => {
  it("signs nobody in before the address is verified, and the mailed link verifies it", async () => {
    const { client, jar } = strict.browser();
    const signUp = await client.signUp.email({ name: "Vera", email: "vera@example.com", password, callbackURL: "/welcome" });
    expect(signUp.data).toMatchObject({ token: null, user: { email: "vera@example.com", emailVerified: false } });
    expect(await jar.getCookies(strict.gateway.url)).toEqual([]);

    const mail = await smtp.next("vera@example.com");
    expect(mail.subject).toBe("Verify your e-mail address");
    expect(mail.html).toContain("Verify e-mail address");
    const link = linkTo(mail, "/api/auth/verify-email");
    expect(link.startsWith("http://localhost:3000/api/auth/verify-email?token=")).toBe(true);
    const claims = jwt.decode(new URL(link).searchParams.get("token") ?? "") as { exp: number; iat: number; email: string };
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.email).toBe("vera@example.com");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/welcome");

    // Each refused sign-in sends a fresh link.
    const refused = await client.signIn.email({ email: "vera@example.com", password });
    expect(refused.error).toMatchObject({ status: 403, code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    await smtp.next("vera@example.com");

    const followed = await fetch(viaGateway(strict, link), { redirect: "manual" });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/welcome");
    const signIn = await client.signIn.email({ email: "vera@example.com", password });
    expect(signIn.data?.user.emailVerified).toBe(true);
  });

  it("refuses a forged or expired token, with the code on the callback when there is one", async () => {
    const { client } = strict.browser();
    expect((await client.verifyEmail({ query: { token: "not-a-token" } })).error).toMatchObject({ status: 401, code: "INVALID_TOKEN" });
    const secret = strict.auth.context.config.AUTH_SECRET;
    const expired = jwt.sign({ email: "late@example.com", userId: "u1", exp: Math.floor(Date.now() / 1000) - 10 }, secret);
    expect((await client.verifyEmail({ query: { token: expired } })).error).toMatchObject({ status: 401, code: "TOKEN_EXPIRED" });
    const redirected = await fetch(`${strict.gateway.url}/api/auth/verify-email?token=${expired}&callbackURL=%2Fdone`, { redirect: "manual" });
    expect(redirected.headers.get("location")).toBe("/done?error=TOKEN_EXPIRED");
    const forged = jwt.sign({ email: "late@example.com", userId: "u1" }, "another secret of enough length........");
    expect((await client.verifyEmail({ query: { token: forged } })).error).toMatchObject({ code: "INVALID_TOKEN" });
  });

  it("resends on request without telling whether the address has an account", async () => {
    await strict.browser().client.signUp.email({ name: "Resend", email: "resend@example.com", password });
    await smtp.next("resend@example.com");
    const { client } = strict.browser();
    expect((await client.sendVerificationEmail({ email: "resend@example.com" })).data).toEqual({ status: true });
    await smtp.next("resend@example.com");
    expect((await client.sendVerificationEmail({ email: "nobody@example.com" })).data).toEqual({ status: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.some((mail) => mail.text?.includes("nobody@example.com") || (mail.to && JSON.stringify(mail.to).includes("nobody@")))).toBe(false);
  });

  it("hides an existing address behind the same sign-up answer when verification is required", async () => {
    await verifiedUser("exists@example.com");
    const again = await strict.browser().client.signUp.email({ name: "Impostor", email: "exists@example.com", password });
    expect(again.error).toBeNull();
    expect(again.data).toMatchObject({ token: null, user: { email: "exists@example.com", name: "Impostor", emailVerified: false } });
  });
});

describe("password reset", () => {
  it("mails a single-use link that sets a new password and signs out every session", async () => {
    const laptop = await verifiedUser("reset@example.com");
    const { client } = strict.browser();
    const asked = await client.requestPasswordReset({ email: "reset@example.com", redirectTo: "/reset" });
    const unknown = await client.requestPasswordReset({ email: "ghost@example.com", redirectTo: "/reset" });
    expect(asked.data).toEqual(unknown.data);
    expect(asked.data).toEqual({ status: true, message: "If this email exists in our system, check your email for the reset link" });

    const mail = await smtp.next("reset@example.com");
    const opened = await fetch(viaGateway(strict, linkTo(mail, "/api/auth/reset-password/")), { redirect: "manual" });
    expect(opened.status).toBe(302);
    const token = new URL(opened.headers.get("location") ?? "", "http://x").searchParams.get("token");
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(opened.headers.get("location")).toBe(`/reset?token=${token}`);

    expect((await client.resetPassword({ newPassword: "short", token: token ?? "" })).error).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect((await client.resetPassword({ newPassword: "a whole new password", token: token ?? "" })).data).toEqual({ status: true });
    expect((await laptop.client.getSession()).data).toBeNull();
    expect((await client.resetPassword({ newPassword: "yet another password", token: token ?? "" })).error).toMatchObject({ status: 400, code: "INVALID_TOKEN" });

    expect((await client.signIn.email({ email: "reset@example.com", password })).error?.status).toBe(401);
    expect((await client.signIn.email({ email: "reset@example.com", password: "a whole new password" })).data).toBeTruthy();

    const used = await fetch(viaGateway(strict, linkTo(mail, "/api/auth/reset-password/")), { redirect: "manual" });
    expect(used.headers.get("location")).toBe("/reset?error=INVALID_TOKEN");
  });

  it("answers the older forget-password path the same way", async () => {
    await verifiedUser("forgot@example.com");
    const response = await fetch(`${strict.gateway.url}/api/auth/forget-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "forgot@example.com", redirectTo: "/reset" }),
    });
    expect(await response.json()).toMatchObject({ status: true });
    expect(linkTo(await smtp.next("forgot@example.com"), "/api/auth/reset-password/")).toBeTruthy();
  });

  it("refuses a redirect to another site", async () => {
    const { client } = strict.browser();
    const asked = await client.requestPasswordReset({ email: "reset@example.com", redirectTo: "https://evil.example/reset" });
    expect(asked.error).toMatchObject({ status: 403, code: "INVALID_REDIRECT_URL" });
  });
});

describe("changing the e-mail address", () => {
  it("sets the new address, clears its verification and mails the new address", async () => {
    const user = await verifiedUser("old.address@example.com");
    expect((await user.client.changeEmail({ newEmail: "New.Address@example.com" })).data).toEqual({ status: true });
    const { data } = await user.client.getSession();
    expect(data?.user).toMatchObject({ email: "new.address@example.com", emailVerified: false });
    const mail = await smtp.next("new.address@example.com");
    await fetch(viaGateway(strict, linkTo(mail, "/api/auth/verify-email")), { redirect: "manual" });
    // Verified from a link, not by this browser: it shows once user.updated reaches the gateway's cache.
    await expect.poll(async () => (await user.client.getSession()).data?.user.emailVerified, { timeout: 5_000 }).toBe(true);
  });

  it("does not reveal that the new address belongs to someone else", async () => {
    await verifiedUser("owner@example.com");
    const other = await verifiedUser("other@example.com");
    expect((await other.client.changeEmail({ newEmail: "owner@example.com" })).data).toEqual({ status: true });
    expect((await other.client.getSession()).data?.user.email).toBe("other@example.com");
  });
});

describe("deleting the account", () => {
  it("is confirmed by a mailed link that deletes the user and signs them out", async () => {
    const user = await verifiedUser("leaving@example.com");
    expect((await user.client.deleteUser({ callbackURL: "/goodbye" })).data).toEqual({ success: true, message: "Verification email sent" });
    const link = linkTo(await smtp.next("leaving@example.com"), "/api/auth/delete-user/callback");
    expect(new URL(link).searchParams.get("token")).toMatch(/^[A-Za-z0-9]{32}$/);

    // The link only works in the owner's browser.
    const stranger = await fetch(viaGateway(strict, link), { redirect: "manual" });
    expect(stranger.status).toBe(404);
    const followed = await user.fetch(viaGateway(strict, link), { redirect: "manual" });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/goodbye");
    expect((await user.client.getSession()).data).toBeNull();
    expect((await strict.browser().client.signIn.email({ email: "leaving@example.com", password })).error?.status).toBe(401);
  });

  it("checks the password when one is given", async () => {
    const user = await verifiedUser("careful@example.com");
    expect((await user.client.deleteUser({ password: "not my password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
  });
});

describe("without SMTP: the development mailbox", () => {
  let open: AuthStack;
  beforeAll(async () => {
    open = await startAuthStack();
  });
  afterAll(async () => {
    await open?.stop();
  });

  it("keeps the mail and its links where developers can read them", async () => {
    const { client } = open.browser();
    await client.signUp.email({ name: "Dev", email: "dev@example.com", password });
    await client.requestPasswordReset({ email: "dev@example.com", redirectTo: "/reset" });
    const mailbox = (await (await fetch(`${open.gateway.url}/api/auth/dev/mailbox`)).json()) as { to: string; subject: string; links: string[] }[];
    expect(mailbox[0]).toMatchObject({ to: "dev@example.com", subject: "Reset your password" });
    expect(mailbox[0]?.links[0]).toMatch(/^http:\/\/localhost:3000\/api\/auth\/reset-password\/[A-Za-z0-9]{24}\?callbackURL=%2Freset$/);
  });

  it("deletes an account with a fresh session and no password, and refuses a stale one", async () => {
    const user = open.browser();
    await user.client.signUp.email({ name: "Quick", email: "quick@example.com", password });
    const stale = open.browser();
    await stale.client.signUp.email({ name: "Stale", email: "stale@example.com", password });
    const session = (await stale.client.getSession()).data?.session;
    await open.auth.context.db("sessions").where({ id: session?.id }).update({ created_at: new Date(Date.now() - 2 * 24 * 3600_000) });
    expect((await stale.client.deleteUser({})).error).toMatchObject({ status: 400, code: "SESSION_EXPIRED" });
    expect((await user.client.deleteUser({})).data).toEqual({ success: true, message: "User deleted" });
    expect((await user.client.getSession()).data).toBeNull();
  });
});

describe("mail that cannot be delivered yet", () => {
  it("stays queued through a restart and goes out once the mail server answers", async () => {
    const down = await startSmtpCatcher();
    const port = new URL(down.url).port;
    await down.close();
    const stack = await startAuthStack({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      await stack.browser().client.signUp.email({ name: "Patient", email: "patient@example.com", password });
      await stack.browser().client.requestPasswordReset({ email: "patient@example.com", redirectTo: "/r" });
      const db = stack.auth.context.db;
      await expect.poll(async () => (await db("mails").first<{ attempts: number } | undefined>())?.attempts, { timeout: 5_000 }).toBe(1);
      // A crash before delivery loses nothing: the queue is a table.
      await stack.auth.stop();
      const up = await startSmtpCatcher(Number(port));
      try {
        const restarted = await startAuthStack({ SMTP_URL: `smtp://127.0.0.1:${port}`, DATABASE_URL: stack.environment.databaseUrl });
        const mail = await up.next("patient@example.com", 15_000);
        expect(mail.subject).toBe("Reset your password");
        await restarted.stop();
      } finally {
        await up.close();
      }
    } finally {
      await stack.gateway.stop();
      stack.echo.server.close();
    }
  });
});
