import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { newestLinksTo, readMailbox } from "../../../test/stacks/dev-mailbox.js";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { startAuthStack, viaGateway, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";

let smtp: SmtpCatcher;
/** Verification required, deletion confirmed by mail, mail over SMTP to a local catcher. */
let strict: AuthStack;
/** better-auth's defaults: no verification required, immediate deletion; mail in the development mailbox. */
let open: AuthStack;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  [strict, open] = await Promise.all([
    startAuthStack({ SMTP_URL: smtp.url, REQUIRE_EMAIL_VERIFICATION: "true", DELETE_USER_EMAIL_CONFIRMATION: "true" }),
    startAuthStack(),
  ]);
});

afterAll(async () => {
  await Promise.all([strict?.stop(), open?.stop()]);
  await smtp?.close();
});

/** A redirect's target, not followed. */
async function redirectOf(browser: Pick<Browser, "fetch"> | null, url: string): Promise<string | null> {
  const response = await (browser?.fetch ?? fetch)(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return response.headers.get("location");
}

/** Signed up, verified through the mailed link, and signed in, on the strict stack. */
async function verifiedUser(email: string): Promise<Browser & { id: string }> {
  const browser = strict.browser();
  const signUp = await browser.client.signUp.email({ name: email, email, password });
  await redirectOf(null, viaGateway(strict, linkTo(await smtp.next(email), "/api/auth/verify-email")));
  await browser.client.signIn.email({ email, password });
  return { ...browser, id: signUp.data?.user.id ?? "" };
}

/** Signed up and signed in (unverified) on the open stack. */
async function openUser(email: string): Promise<Browser & { id: string }> {
  const browser = open.browser();
  const { data } = await browser.client.signUp.email({ name: email, email, password });
  return { ...browser, id: data?.user.id ?? "" };
}

const tokenIn = (link: string) => new URL(link).searchParams.get("token") ?? "";

const eventsAbout = async (stack: AuthStack, type: string, userId: string) =>
  (await publishedEvents(stack.auth.context.bus)).filter((event) => event.type === type && event.data.id === userId).map((event) => event.data);

describe("e-mail verification", () => {
  it("signs nobody in before the address is verified, and the mailed link verifies it", async () => {
    const { client, jar } = strict.browser();
    const signUp = await client.signUp.email({ name: "Vera", email: "vera@example.com", password, callbackURL: "/welcome" });
    expect(signUp.data).toMatchObject({ token: null, user: { email: "vera@example.com", emailVerified: false } });
    expect(await jar.getCookies(strict.gateway.url)).toEqual([]);

    const mail = await smtp.next("vera@example.com");
    expect(mail.subject).toBe("Verify your e-mail address");
    const link = linkTo(mail, "/api/auth/verify-email");
    expect(link.startsWith("http://localhost:3000/api/auth/verify-email?token=")).toBe(true);
    const claims = jwt.decode(tokenIn(link)) as { exp: number; iat: number; email: string; userId: string };
    expect(claims).toMatchObject({ email: "vera@example.com", userId: signUp.data?.user.id });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/welcome");

    // Each refused sign-in sends a fresh link.
    const refused = await client.signIn.email({ email: "vera@example.com", password });
    expect(refused.error).toMatchObject({ status: 403, code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    await smtp.next("vera@example.com");

    expect(await redirectOf(null, viaGateway(strict, link))).toBe("/welcome");
    const signIn = await client.signIn.email({ email: "vera@example.com", password });
    expect(signIn.data?.user.emailVerified).toBe(true);
  });

  it("refuses a username sign-in too until the address is verified, mailing a fresh link", async () => {
    const { client } = strict.browser();
    await client.signUp.email({ name: "Una", email: "una@example.com", password, username: "una_named" });
    await smtp.next("una@example.com");
    const refused = await client.signIn.username({ username: "una_named", password, callbackURL: "/home" });
    expect(refused.error).toMatchObject({ status: 403, code: "EMAIL_NOT_VERIFIED" });
    const link = linkTo(await smtp.next("una@example.com"), "/api/auth/verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/home");
    await redirectOf(null, viaGateway(strict, link));
    expect((await client.signIn.username({ username: "una_named", password })).data?.user.emailVerified).toBe(true);
  });

  it("answers better-auth's JSON without a callback, and a followed link again does no harm", async () => {
    await openUser("json.verify@example.com");
    await open.browser().client.sendVerificationEmail({ email: "json.verify@example.com" });
    const token = tokenIn((await newestLinksTo(open, "json.verify@example.com"))[0] ?? "");
    const { client } = open.browser();
    expect((await client.verifyEmail({ query: { token } })).data).toEqual({ status: true, user: null });
    expect((await client.verifyEmail({ query: { token } })).data).toEqual({ status: true, user: null });
    const session = await client.signIn.email({ email: "json.verify@example.com", password });
    expect(session.data?.user.emailVerified).toBe(true);
  });

  it("refuses a forged or expired token, with the code on the callback when there is one", async () => {
    const { client } = strict.browser();
    expect((await client.verifyEmail({ query: { token: "not-a-token" } })).error).toMatchObject({ status: 401, code: "INVALID_TOKEN" });
    const secret = strict.auth.context.config.AUTH_SECRET;
    const expired = jwt.sign({ email: "late@example.com", userId: "u1", exp: Math.floor(Date.now() / 1000) - 10 }, secret);
    expect((await client.verifyEmail({ query: { token: expired } })).error).toMatchObject({ status: 401, code: "TOKEN_EXPIRED", message: "Token expired" });
    const verify = (callbackURL: string) => `${strict.gateway.url}/api/auth/verify-email?token=${expired}&callbackURL=${encodeURIComponent(callbackURL)}`;
    expect(await redirectOf(null, verify("/done"))).toBe("/done?error=TOKEN_EXPIRED");
    // Added after the query the callback has, before its fragment, as better-auth's appendQueryParams does.
    expect(await redirectOf(null, verify("/done?step=2#top"))).toBe("/done?step=2&error=TOKEN_EXPIRED#top");
    expect(await redirectOf(null, verify("http://localhost:3000/done"))).toBe("http://localhost:3000/done?error=TOKEN_EXPIRED");
    const forged = jwt.sign({ email: "late@example.com", userId: "u1" }, "another secret of enough length........");
    expect((await client.verifyEmail({ query: { token: forged } })).error).toMatchObject({ code: "INVALID_TOKEN" });
  });

  it("refuses callbacks to other sites", async () => {
    const { client } = strict.browser();
    const verify = await fetch(`${strict.gateway.url}/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent("https://evil.example/")}`, { redirect: "manual" });
    expect(verify.status).toBe(403);
    expect(await verify.json()).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const resend = await client.sendVerificationEmail({ email: "vera@example.com", callbackURL: "https://evil.example/" });
    expect(resend.error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
  });

  it("resends on request without telling whether the address has an account, at the same speed", async () => {
    await strict.browser().client.signUp.email({ name: "Resend", email: "resend@example.com", password });
    await smtp.next("resend@example.com");
    await verifiedUser("already.verified@example.com");
    const { client } = strict.browser();
    expect((await client.sendVerificationEmail({ email: "resend@example.com" })).data).toEqual({ status: true });
    await smtp.next("resend@example.com");
    for (const email of ["nobody@example.com", "already.verified@example.com"]) {
      const started = Date.now();
      expect((await client.sendVerificationEmail({ email })).data).toEqual({ status: true });
      expect(Date.now() - started).toBeGreaterThanOrEqual(490);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received("nobody@example.com")).toEqual([]);
    expect(smtp.received("already.verified@example.com")).toHaveLength(1);
  });

  it("resends to a signed-in user only for their own, unverified address", async () => {
    const user = await openUser("signed.in@example.com");
    expect((await user.client.sendVerificationEmail({ email: "someone.else@example.com" })).error).toMatchObject({ status: 400, code: "EMAIL_MISMATCH" });
    expect((await user.client.sendVerificationEmail({ email: "Signed.In@example.com", callbackURL: "/verified" })).data).toEqual({ status: true });
    const [link = ""] = await newestLinksTo(open, "signed.in@example.com");
    expect(await redirectOf(null, viaGateway(open, link))).toBe("/verified");
    const again = await user.client.sendVerificationEmail({ email: "signed.in@example.com" });
    expect(again.error).toMatchObject({ status: 400, code: "EMAIL_ALREADY_VERIFIED", message: "Email is already verified" });
  });

  it("hides an existing address behind the same sign-up answer when verification is required", async () => {
    await verifiedUser("exists@example.com");
    const again = await strict.browser().client.signUp.email({ name: "Impostor", email: "exists@example.com", password });
    expect(again.error).toBeNull();
    expect(again.data).toMatchObject({ token: null, user: { email: "exists@example.com", name: "Impostor", emailVerified: false } });
  });

  it("sends nothing on sign-up when verification is not required, and signs the user in", async () => {
    const { client } = open.browser();
    const signUp = await client.signUp.email({ name: "Easy", email: "easy@example.com", password });
    expect(signUp.data?.token).toBeTruthy();
    expect((await readMailbox(open)).filter((mail) => mail.to === "easy@example.com")).toEqual([]);
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
    expect(mail.subject).toBe("Reset your password");
    const link = viaGateway(strict, linkTo(mail, "/api/auth/reset-password/"));
    // Resolved against the site as better-auth does, so the app's page gets an absolute address.
    const opened = await redirectOf(null, link);
    const token = new URL(opened ?? "").searchParams.get("token") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(opened).toBe(`http://localhost:3000/reset?token=${token}`);

    expect((await client.resetPassword({ newPassword: "short", token })).error).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect((await client.resetPassword({ newPassword: "a whole new password", token })).data).toEqual({ status: true });
    await expect.poll(async () => (await laptop.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    expect((await client.resetPassword({ newPassword: "yet another password", token })).error).toMatchObject({ status: 400, code: "INVALID_TOKEN", message: "Invalid token" });

    expect((await client.signIn.email({ email: "reset@example.com", password })).error?.status).toBe(401);
    expect((await client.signIn.email({ email: "reset@example.com", password: "a whole new password" })).data).toBeTruthy();
    expect(await redirectOf(null, link)).toBe("http://localhost:3000/reset?error=INVALID_TOKEN");

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received("ghost@example.com")).toEqual([]);
  });

  it("keeps only a digest of the token, and refuses it after an hour", async () => {
    const { id } = await verifiedUser("expiring.reset@example.com");
    const { client } = strict.browser();
    await client.requestPasswordReset({ email: "expiring.reset@example.com", redirectTo: "/reset" });
    const link = viaGateway(strict, linkTo(await smtp.next("expiring.reset@example.com"), "/api/auth/reset-password/"));
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const db = strict.auth.context.db;
    const stored = await db("verifications").where({ value: id }).select<{ identifier: string; expires_at: Date }[]>();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((stored[0]?.expires_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(3590_000);
    expect((stored[0]?.expires_at.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(3600_000);

    await db("verifications").where({ value: id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect(await redirectOf(null, link)).toBe("http://localhost:3000/reset?error=INVALID_TOKEN");
    expect((await client.resetPassword({ newPassword: "a whole new password", token })).error).toMatchObject({ status: 400, code: "INVALID_TOKEN" });
  });

  it("needs a callback on the link: without one the link ends on the error page, as in better-auth", async () => {
    await verifiedUser("no.redirect@example.com");
    await strict.browser().client.requestPasswordReset({ email: "no.redirect@example.com" });
    const link = viaGateway(strict, linkTo(await smtp.next("no.redirect@example.com"), "/api/auth/reset-password/"));
    expect(new URL(link).search).toBe("?callbackURL=");
    expect(await redirectOf(null, link)).toBe("http://localhost:3000/api/auth/error?error=INVALID_TOKEN");
    const bare = await fetch(link.replace(/\?.*$/, ""), { redirect: "manual" });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("answers the older forget-password path the same way", async () => {
    await verifiedUser("forgot@example.com");
    const response = await fetch(`${strict.gateway.url}/api/auth/forget-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "forgot@example.com", redirectTo: "/reset" }),
    });
    expect(await response.json()).toEqual({ status: true, message: "If this email exists in our system, check your email for the reset link" });
    expect(linkTo(await smtp.next("forgot@example.com"), "/api/auth/reset-password/")).toBeTruthy();
  });

  it("refuses redirects to other sites", async () => {
    const { client } = strict.browser();
    const asked = await client.requestPasswordReset({ email: "reset@example.com", redirectTo: "https://evil.example/reset" });
    expect(asked.error).toMatchObject({ status: 403, code: "INVALID_REDIRECT_URL", message: "Invalid redirectURL" });
    const opened = await fetch(`${strict.gateway.url}/api/auth/reset-password/abc?callbackURL=${encodeURIComponent("https://evil.example/")}`, { redirect: "manual" });
    expect(opened.status).toBe(403);
    expect(await opened.json()).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
  });
});

describe("changing the e-mail address", () => {
  it("keeps a verified address until the new one is confirmed from its own mailbox", async () => {
    const user = await verifiedUser("move.from@example.com");
    const stranger = await verifiedUser("stranger@example.com");
    expect((await user.client.changeEmail({ newEmail: "Move.To@example.com", callbackURL: "/settings" })).data).toEqual({ status: true });
    expect((await user.client.getSession()).data?.user).toMatchObject({ email: "move.from@example.com", emailVerified: true });

    const mail = await smtp.next("move.to@example.com");
    expect(mail.subject).toBe("Confirm your new e-mail address");
    const link = viaGateway(strict, linkTo(mail, "/api/auth/verify-email"));
    expect(jwt.decode(tokenIn(link))).toMatchObject({
      email: "move.from@example.com",
      updateTo: "move.to@example.com",
      requestType: "change-email-verification",
      userId: user.id,
    });

    // Someone else's browser cannot complete it.
    expect(await redirectOf(stranger, link)).toBe("/settings?error=INVALID_USER");
    expect(await redirectOf(user, link)).toBe("/settings");
    await expect.poll(async () => (await user.client.getSession()).data?.user, { timeout: 5_000 }).toMatchObject({ email: "move.to@example.com", emailVerified: true });
    expect(await eventsAbout(strict, "user.updated", user.id)).toContainEqual(expect.objectContaining({ email: "move.to@example.com", email_verified: true }));
    // The address it was asked from is gone, so the link is spent.
    expect(await redirectOf(user, link)).toBe("/settings?error=INVALID_TOKEN");

    expect((await strict.browser().client.signIn.email({ email: "move.from@example.com", password })).error?.status).toBe(401);
    expect((await strict.browser().client.signIn.email({ email: "move.to@example.com", password })).data?.user.id).toBe(user.id);
  });

  it("does not complete a change to an address someone took meanwhile", async () => {
    const user = await verifiedUser("slow.mover@example.com");
    await user.client.changeEmail({ newEmail: "contested@example.com" });
    const link = viaGateway(strict, linkTo(await smtp.next("contested@example.com"), "/api/auth/verify-email"));
    await verifiedUser("contested@example.com");
    expect((await user.client.verifyEmail({ query: { token: tokenIn(link) } })).error).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    expect((await user.client.getSession()).data?.user.email).toBe("slow.mover@example.com");
  });

  it("changes an unverified address at once, and mails the new one a verification", async () => {
    const user = await openUser("loose@example.com");
    expect((await user.client.changeEmail({ newEmail: "tight@example.com", callbackURL: "/after" })).data).toEqual({ status: true });
    await expect.poll(async () => (await user.client.getSession()).data?.user, { timeout: 5_000 }).toMatchObject({ email: "tight@example.com", emailVerified: false });
    expect(await eventsAbout(open, "user.updated", user.id)).toContainEqual(expect.objectContaining({ email: "tight@example.com", email_verified: false }));

    const mailbox = await readMailbox(open);
    expect(mailbox.filter((mail) => mail.to === "loose@example.com")).toEqual([]);
    const [link = ""] = await newestLinksTo(open, "tight@example.com");
    expect(await redirectOf(null, viaGateway(open, link))).toBe("/after");
    await expect.poll(async () => (await user.client.getSession()).data?.user.emailVerified, { timeout: 5_000 }).toBe(true);
  });

  it("does not reveal that the new address belongs to someone else", async () => {
    await verifiedUser("owner@example.com");
    const other = await verifiedUser("other@example.com");
    expect((await other.client.changeEmail({ newEmail: "owner@example.com" })).data).toEqual({ status: true });
    expect((await other.client.getSession()).data?.user.email).toBe("other@example.com");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received("owner@example.com")).toHaveLength(1);
  });

  it("needs a session, a different address and a trusted callback", async () => {
    expect((await open.browser().client.changeEmail({ newEmail: "anyone@example.com" })).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    const user = await openUser("same@example.com");
    expect((await user.client.changeEmail({ newEmail: "SAME@example.com" })).error).toMatchObject({ status: 400, message: "Email is the same" });
    const foreign = await user.client.changeEmail({ newEmail: "elsewhere@example.com", callbackURL: "https://evil.example/" });
    expect(foreign.error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
    expect((await user.client.getSession()).data?.user.email).toBe("same@example.com");
  });
});

describe("deleting the account", () => {
  it("is confirmed by a mailed link that deletes the user and signs out every device", async () => {
    const user = await verifiedUser("leaving@example.com");
    const phone = strict.browser();
    await phone.client.signIn.email({ email: "leaving@example.com", password });
    expect((await user.client.deleteUser({ callbackURL: "/goodbye" })).data).toEqual({ success: true, message: "Verification email sent" });
    expect((await user.client.getSession()).data?.user.email).toBe("leaving@example.com");
    const mail = await smtp.next("leaving@example.com");
    expect(mail.subject).toBe("Confirm deleting your account");
    const link = viaGateway(strict, linkTo(mail, "/api/auth/delete-user/callback"));
    expect(tokenIn(link)).toMatch(/^[A-Za-z0-9]{32}$/);

    // The link only works in the owner's browser.
    const signedOut = await fetch(link, { redirect: "manual" });
    expect(signedOut.status).toBe(404);
    expect(await signedOut.json()).toEqual({ code: "FAILED_TO_GET_USER_INFO", message: "Failed to get user info" });
    const stranger = await verifiedUser("not.leaving@example.com");
    const wrongUser = await stranger.fetch(link, { redirect: "manual" });
    expect(wrongUser.status).toBe(404);
    expect(await wrongUser.json()).toMatchObject({ code: "INVALID_TOKEN" });
    expect((await stranger.client.getSession()).data?.user.email).toBe("not.leaving@example.com");

    await user.client.deleteUser({ callbackURL: "/goodbye" });
    const fresh = viaGateway(strict, linkTo(await smtp.next("leaving@example.com"), "/api/auth/delete-user/callback"));
    expect(await redirectOf(user, fresh)).toBe("/goodbye");
    expect((await user.client.getSession()).data).toBeNull();
    await expect.poll(async () => (await phone.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    expect(await eventsAbout(strict, "user.deleted", user.id)).toEqual([{ id: user.id }]);
    expect((await strict.browser().client.signIn.email({ email: "leaving@example.com", password })).error?.status).toBe(401);
  });

  it("accepts the mailed token in the request body too, but not once it has expired", async () => {
    const user = await verifiedUser("token.body@example.com");
    await user.client.deleteUser({});
    const token = tokenIn(linkTo(await smtp.next("token.body@example.com"), "/api/auth/delete-user/callback"));
    const db = strict.auth.context.db;
    const stored = await db("verifications").where({ value: user.id }).first<{ expires_at: Date }>();
    expect((stored?.expires_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(24 * 3600_000 - 10_000);
    await db("verifications").where({ value: user.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await user.client.deleteUser({ token })).error).toMatchObject({ status: 404, code: "INVALID_TOKEN" });

    await user.client.deleteUser({});
    const fresh = tokenIn(linkTo(await smtp.next("token.body@example.com"), "/api/auth/delete-user/callback"));
    expect((await user.client.deleteUser({ token: fresh })).data).toEqual({ success: true, message: "User deleted" });
    expect((await user.client.getSession()).data).toBeNull();
  });

  it("checks the password when one is given, and the callback", async () => {
    const user = await verifiedUser("careful@example.com");
    expect((await user.client.deleteUser({ password: "not my password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    expect((await user.client.deleteUser({ callbackURL: "https://evil.example/" })).error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
    expect((await strict.browser().client.deleteUser({})).error).toMatchObject({ status: 401 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received("careful@example.com")).toHaveLength(1);
  });

  it("without mailed confirmation, needs a fresh session or the password", async () => {
    const quick = await openUser("quick@example.com");
    expect((await quick.client.deleteUser({})).data).toEqual({ success: true, message: "User deleted" });
    expect((await quick.client.getSession()).data).toBeNull();

    const stale = await openUser("stale@example.com");
    const session = (await stale.client.getSession()).data?.session;
    await open.auth.context.db("sessions").where({ id: session?.id }).update({ created_at: new Date(Date.now() - 2 * 24 * 3600_000) });
    const expired = { status: 400, code: "SESSION_EXPIRED", message: "Session expired. Re-authenticate to perform this action." };
    expect((await stale.client.deleteUser({})).error).toMatchObject(expired);
    expect((await stale.client.deleteUser({ password: "" })).error).toMatchObject(expired);
    expect((await stale.client.deleteUser({ password })).data).toEqual({ success: true, message: "User deleted" });
    expect((await open.browser().client.signIn.email({ email: "stale@example.com", password })).error?.status).toBe(401);
  });
});
