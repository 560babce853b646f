import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Seen } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.stop();
});

const password = "correct horse battery staple";

describe("sign-up, sign-in and sessions with better-auth's client", () => {
  it("signs up, is signed in by the cookie, and signs out", async () => {
    const { client, jar } = stack.browser();
    const signUp = await client.signUp.email({ name: "Ada Lovelace", email: "Ada@Example.com", password });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com", emailVerified: false, image: null });
    expect(signUp.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);

    const cookies = await jar.getCookies(stack.gateway.url);
    expect(cookies.map((cookie) => cookie.key)).toEqual(["better-auth.session_token"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, path: "/", sameSite: "lax", maxAge: 604800 });

    const session = await client.getSession();
    expect(session.data?.user.email).toBe("ada@example.com");
    expect(session.data?.session).toMatchObject({ token: signUp.data?.token, userId: signUp.data?.user.id });

    const signOut = await client.signOut();
    expect(signOut.data).toEqual({ success: true });
    expect((await client.getSession()).data).toBeNull();
  });

  it("refuses a second account for the same address, whatever its case", async () => {
    const { client } = stack.browser();
    await client.signUp.email({ name: "Grace", email: "grace@example.com", password });
    const again = await stack.browser().client.signUp.email({ name: "Grace", email: "GRACE@example.com", password });
    expect(again.error).toMatchObject({ status: 422, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." });
  });

  it("gives one generic error for a wrong password and for an unknown address", async () => {
    await stack.browser().client.signUp.email({ name: "Alan", email: "alan@example.com", password });
    const { client } = stack.browser();
    const wrong = await client.signIn.email({ email: "alan@example.com", password: "not the password" });
    const unknown = await client.signIn.email({ email: "nobody@example.com", password });
    for (const failure of [wrong, unknown]) {
      expect(failure.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    }
  });

  it("issues a new session token on every sign-in", async () => {
    await stack.browser().client.signUp.email({ name: "Edsger", email: "edsger@example.com", password });
    const { client } = stack.browser();
    const first = await client.signIn.email({ email: "edsger@example.com", password });
    const second = await client.signIn.email({ email: "edsger@example.com", password });
    expect(first.data?.token).toBeTruthy();
    expect(second.data?.token).not.toBe(first.data?.token);
    expect(first.data).toMatchObject({ redirect: false, user: { email: "edsger@example.com" } });
  });

  it("tells apart long passwords that differ only past bcrypt's 72 bytes", async () => {
    const long = `${"p".repeat(72)}-the-real-ending`;
    await stack.browser().client.signUp.email({ name: "Long", email: "long.password@example.com", password: long });
    const { client } = stack.browser();
    const wrongEnding = await client.signIn.email({ email: "long.password@example.com", password: `${"p".repeat(72)}-another-ending` });
    expect(wrongEnding.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
    expect((await client.signIn.email({ email: "long.password@example.com", password: long })).data?.user).toBeTruthy();
  });

  it("stores only digests of session tokens and hashes of passwords", async () => {
    const signUp = await stack.browser().client.signUp.email({ name: "Stored", email: "stored@example.com", password });
    const db = stack.auth.context.db;
    const session = await db("sessions").where({ user_id: signUp.data?.user.id }).first<{ token_hash: string } | undefined>();
    expect(session?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await db("sessions").select())).not.toContain(signUp.data?.token ?? "missing");
    const account = await db("accounts").where({ user_id: signUp.data?.user.id }).first<{ password: string } | undefined>();
    expect(account?.password).toMatch(/^\$2b\$04\$/);
  });

  it("enforces the password length limits", async () => {
    const { client } = stack.browser();
    const short = await client.signUp.email({ name: "S", email: "short@example.com", password: "1234567" });
    expect(short.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await client.signUp.email({ name: "L", email: "long@example.com", password: "x".repeat(129) });
    expect(long.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_LONG", message: "Password too long" });
  });

  it("makes a browser-session cookie when rememberMe is false", async () => {
    await stack.browser().client.signUp.email({ name: "Barbara", email: "barbara@example.com", password });
    const { client, jar } = stack.browser();
    await client.signIn.email({ email: "barbara@example.com", password, rememberMe: false });
    const token = (await jar.getCookies(stack.gateway.url)).find((cookie) => cookie.key === "better-auth.session_token");
    expect(token?.maxAge).toBeNull();
    expect((await client.getSession()).data?.user.email).toBe("barbara@example.com");
  });

  it("lists sessions and revokes them one, others or all", async () => {
    await stack.browser().client.signUp.email({ name: "Donald", email: "donald@example.com", password });
    const laptop = stack.browser();
    const phone = stack.browser();
    const tablet = stack.browser();
    for (const device of [laptop, phone, tablet]) await device.client.signIn.email({ email: "donald@example.com", password });

    const listed = await laptop.client.listSessions();
    expect(listed.data).toHaveLength(4);
    const own = (await laptop.client.getSession()).data?.session;
    const phoneSession = (await phone.client.getSession()).data?.session;
    const phoneEntry = listed.data?.find((session) => session.id === phoneSession?.id);
    expect(listed.data?.find((session) => session.id === own?.id)?.token).toBe(own?.token);
    expect(phoneEntry?.token).not.toBe(phoneSession?.token);

    expect((await laptop.client.revokeSession({ token: phoneEntry?.token ?? "" })).data).toEqual({ status: true });
    // Another device learns of it when session.revoked reaches the gateway's cache, moments later.
    await expect.poll(async () => (await phone.client.getSession()).data, { timeout: 5_000 }).toBeNull();

    expect((await laptop.client.revokeOtherSessions()).data).toEqual({ status: true });
    await expect.poll(async () => (await tablet.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    expect((await laptop.client.getSession()).data?.user.email).toBe("donald@example.com");

    expect((await laptop.client.revokeSessions()).data).toEqual({ status: true });
    expect((await laptop.client.getSession()).data).toBeNull();
  });

  it("answers requests that need a session with 401 when signed out", async () => {
    const { client } = stack.browser();
    const listed = await client.listSessions();
    expect(listed.error).toMatchObject({ status: 401, code: "UNAUTHORIZED", message: "Unauthorized" });
  });
});

describe("the gateway's view of sessions", () => {
  const identityAtOrganization = async (browser: ReturnType<AuthStack["browser"]>) => {
    const response = await browser.fetch(`${stack.gateway.url}/api/auth/organization/whoami`);
    return ((await response.json()) as Seen).identity;
  };

  it("forwards the signed-in user to other services and stops at once when the session is revoked", async () => {
    const browser = stack.browser();
    const signUp = await browser.client.signUp.email({ name: "Hedy", email: "hedy@example.com", password });
    const session = (await browser.client.getSession()).data?.session;
    expect(await identityAtOrganization(browser)).toEqual({ kind: "user", user_id: signUp.data?.user.id, session_id: session?.id });

    // The session is cached now; sign-out must evict it through the session.revoked event, long before its 30 s expire.
    // A copy of the cookie kept elsewhere (another tab, a stolen copy) must stop working at once.
    const copy = stack.browser();
    await copy.jar.setCookie(await browser.jar.getCookieString(stack.gateway.url), stack.gateway.url);
    expect(await identityAtOrganization(copy)).toMatchObject({ kind: "user" });
    await browser.client.signOut();
    expect(await identityAtOrganization(copy)).toEqual({ kind: "anonymous" });
  });

  it("stops trusting sessions revoked from another device once the revocation event arrives", async () => {
    const laptop = stack.browser();
    await laptop.client.signUp.email({ name: "Katherine", email: "katherine@example.com", password });
    const phone = stack.browser();
    await phone.client.signIn.email({ email: "katherine@example.com", password });
    expect(await identityAtOrganization(phone)).toMatchObject({ kind: "user" });
    await laptop.client.revokeOtherSessions();
    // Well before the 30 s the cache would otherwise keep it.
    await expect.poll(() => identityAtOrganization(phone), { timeout: 5_000, interval: 50 }).toEqual({ kind: "anonymous" });
  });

  it("clears a cookie that no longer opens a session when the client asks for the session", async () => {
    const browser = stack.browser();
    await browser.client.signUp.email({ name: "Radia", email: "radia@example.com", password });
    const token = (await browser.jar.getCookies(stack.gateway.url))[0];
    await stack.browser().client.signIn.email({ email: "radia@example.com", password });
    await browser.client.revokeSessions();
    // Put the now-dead cookie back, as a browser that missed the revocation would still send it.
    await browser.jar.setCookie(`${token?.key}=${token?.value}; Path=/`, stack.gateway.url);
    const response = await browser.fetch(`${stack.gateway.url}/api/auth/get-session`);
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie().some((header) => /^better-auth\.session_token=; Max-Age=0/.test(header))).toBe(true);
  });
});
