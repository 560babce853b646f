import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, randomId, type RemoteError, request } from "@tollgate/kit";
import { identityHeaders } from "@tollgate/kit/testing";
import { IDENTITY_HEADER, setPassword } from "@tollgate/proto";
import { startAuthStack, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

let stack: AuthStack;
const password = "correct horse battery staple";

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.stop();
});

async function signedUp(email: string, extra: { username?: string; displayUsername?: string } = {}): Promise<Browser & { userId: string }> {
  const browser = stack.browser();
  const { data, error } = await browser.client.signUp.email({ name: email.split("@")[0] ?? email, email, password, ...extra });
  if (error || !data) throw new Error(`sign-up failed: ${JSON.stringify(error)}`);
  return { ...browser, userId: data.user.id };
}

const db = () => stack.auth.context.db;

describe("usernames", () => {
  it("keeps the username lower-cased, the original as display name, and signs in with either case", async () => {
    const ada = await signedUp("ada.username@example.com", { username: "Ada_Lovelace" });
    const { data } = await ada.client.getSession();
    expect(data?.user).toMatchObject({ username: "ada_lovelace", displayUsername: "Ada_Lovelace" });
    const signIn = await stack.browser().client.signIn.username({ username: "ADA_LOVELACE", password });
    expect(signIn.data?.user.email).toBe("ada.username@example.com");
  });

  it("refuses a username taken in another case, and reports availability", async () => {
    await signedUp("first@example.com", { username: "taken.name" });
    const second = await stack.browser().client.signUp.email({ name: "S", email: "second@example.com", password, username: "Taken.Name" });
    expect(second.error).toMatchObject({ status: 400, code: "USERNAME_IS_ALREADY_TAKEN" });
    const { client } = stack.browser();
    expect((await client.isUsernameAvailable({ username: "TAKEN.name" })).data).toEqual({ available: false });
    expect((await client.isUsernameAvailable({ username: "free_name" })).data).toEqual({ available: true });
  });

  it("allows 3 to 30 letters, digits, underscores and dots", async () => {
    const { client } = stack.browser();
    expect((await client.isUsernameAvailable({ username: "ab" })).error).toMatchObject({ status: 422, code: "USERNAME_TOO_SHORT" });
    expect((await client.isUsernameAvailable({ username: "a".repeat(31) })).error).toMatchObject({ status: 422, code: "USERNAME_TOO_LONG" });
    expect((await client.isUsernameAvailable({ username: "no spaces" })).error).toMatchObject({ status: 422, code: "INVALID_USERNAME" });
    const signUp = await client.signUp.email({ name: "X", email: "bad.username@example.com", password, username: "bad-name" });
    expect(signUp.error).toMatchObject({ status: 400, code: "INVALID_USERNAME", message: "Username is invalid" });
  });

  it("gives one generic error for a wrong password and an unknown username", async () => {
    await signedUp("grace.username@example.com", { username: "grace" });
    const { client } = stack.browser();
    for (const attempt of [{ username: "grace", password: "wrong password" }, { username: "nobody", password }]) {
      expect((await client.signIn.username(attempt)).error).toMatchObject({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" });
    }
  });

  it("lets a user change their username and display name", async () => {
    const user = await signedUp("rename@example.com", { username: "before" });
    expect((await user.client.updateUser({ username: "After.Name", displayUsername: "After Name" })).data).toEqual({ status: true });
    expect((await user.client.getSession({ query: { disableCookieCache: true } })).data?.user).toMatchObject({
      username: "after.name",
      displayUsername: "After Name",
    });
  });
});

describe("updating the user", () => {
  it("updates name and image, refuses the e-mail and an empty update", async () => {
    const user = await signedUp("update@example.com");
    expect((await user.client.updateUser({ name: "New Name", image: "https://example.com/me.png" })).data).toEqual({ status: true });
    expect((await user.client.getSession()).data?.user).toMatchObject({ name: "New Name", image: "https://example.com/me.png" });
    const post = (body: unknown) =>
      user.fetch(`${stack.gateway.url}/api/auth/update-user`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify(body),
      });
    const email = await post({ email: "other@example.com" });
    expect(email.status).toBe(400);
    expect(await email.json()).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Email can not be updated" });
    // better-auth's client turns an empty update into a GET, so post it as another client would.
    const empty = await post({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: "No fields to update" });
  });
});

describe("changing the password", () => {
  it("needs the current password, and can sign out every other session", async () => {
    const laptop = await signedUp("change@example.com");
    const phone = stack.browser();
    await phone.client.signIn.email({ email: "change@example.com", password });

    const wrong = await laptop.client.changePassword({ currentPassword: "not it at all", newPassword: "a brand new password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const tooShort = await laptop.client.changePassword({ currentPassword: password, newPassword: "short" });
    expect(tooShort.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT" });

    const before = (await laptop.client.getSession()).data?.session.token;
    const changed = await laptop.client.changePassword({ currentPassword: password, newPassword: "a brand new password", revokeOtherSessions: true });
    expect(changed.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(changed.data?.token).not.toBe(before);
    expect((await laptop.client.getSession()).data?.session.token).toBe(changed.data?.token);
    expect((await phone.client.getSession()).data).toBeNull();

    expect((await stack.browser().client.signIn.email({ email: "change@example.com", password })).error?.status).toBe(401);
    expect((await stack.browser().client.signIn.email({ email: "change@example.com", password: "a brand new password" })).data?.user).toBeTruthy();
  });
});

describe("accounts", () => {
  it("lists the credential account without its password and refuses to unlink the last one", async () => {
    const user = await signedUp("accounts@example.com");
    const { data: accounts } = await user.client.listAccounts();
    expect(accounts).toEqual([
      {
        id: expect.any(String) as string,
        providerId: "credential",
        accountId: user.userId,
        userId: user.userId,
        scopes: [],
        createdAt: expect.any(Date) as Date,
        updatedAt: expect.any(Date) as Date,
      },
    ]);
    const unlink = await user.client.unlinkAccount({ accountId: accounts?.[0]?.id ?? "" });
    expect(unlink.error).toMatchObject({ status: 400, code: "FAILED_TO_UNLINK_LAST_ACCOUNT", message: "You can't unlink your last account" });
  });

  it("unlinks one account of several, and only the user's own", async () => {
    const user = await signedUp("two.accounts@example.com");
    const github = randomId(32);
    await db()("accounts").insert({ id: github, user_id: user.userId, provider_id: "github", account_id: "gh-1" });
    expect((await user.client.unlinkAccount({ accountId: "not-mine" })).error).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
    expect((await user.client.unlinkAccount({ accountId: github })).data).toEqual({ status: true });
    expect((await user.client.listAccounts()).data?.map((account) => account.providerId)).toEqual(["credential"]);
  });

  it("unlinks by provider, as clients before better-auth 1.7 ask, and asks which when the provider has several", async () => {
    const user = await signedUp("unlink.by.provider@example.com");
    await db()("accounts").insert([
      { id: randomId(32), user_id: user.userId, provider_id: "github", account_id: "gh-1" },
      { id: randomId(32), user_id: user.userId, provider_id: "github", account_id: "gh-2" },
      { id: randomId(32), user_id: user.userId, provider_id: "gitlab", account_id: "gl-1" },
    ]);
    const unlink = async (body: Record<string, string>) => {
      const response = await user.fetch(`${stack.gateway.url}/api/auth/unlink-account`, { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const providers = async () => (await user.client.listAccounts()).data?.map((account) => `${account.providerId}:${account.accountId}`).sort();

    expect(await unlink({ providerId: "gitlab" })).toEqual({ status: 200, body: { status: true } });
    expect(await unlink({ providerId: "github" })).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
    expect(await unlink({ providerId: "github", accountId: "gh-2" })).toEqual({ status: 200, body: { status: true } });
    expect(await unlink({ providerId: "google" })).toMatchObject({ status: 400, body: { code: "ACCOUNT_NOT_FOUND" } });
    expect(await unlink({})).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR", message: "[body] accountId or providerId is required" } });
    expect(await providers()).toEqual(["credential:" + user.userId, "github:gh-1"].sort());
  });

  it("says in the API's description that unlinking needs accountId or providerId, as it refuses a body with neither", async () => {
    const document = (await (await fetch(`${stack.gateway.url}/api/auth/openapi.json`)).json()) as {
      paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { anyOf?: { required?: string[] }[] } } } } } }>;
    };
    const body = document.paths["/api/auth/unlink-account"]?.post.requestBody.content["application/json"].schema;
    expect(body?.anyOf?.map((branch) => branch.required)).toEqual([["accountId"], ["providerId"]]);
  });

  it("sets a first password from the server side only, never over HTTP", async () => {
    const user = await signedUp("setpassword@example.com");
    const http = await user.fetch(`${stack.gateway.url}/api/auth/set-password`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({ newPassword: "another good password" }),
    });
    expect(http.status).toBe(404);

    // A process on the bus asks with the identity the gateway signed for the user's own request.
    const bus = await connectBus({ url: stack.environment.natsUrl, prefix: stack.environment.natsPrefix, name: "set-password-caller" });
    const session = (await user.client.getSession()).data?.session;
    const identity = identityHeaders(stack.environment, { kind: "user", user_id: user.userId, session_id: session?.id ?? "" })[IDENTITY_HEADER] ?? "";
    await expect(request(bus, setPassword, { identity, new_password: "another good password" })).rejects.toMatchObject({
      code: "PASSWORD_ALREADY_SET",
    } satisfies Partial<RemoteError>);
    await db()("accounts").where({ user_id: user.userId }).update({ password: null });
    expect(await request(bus, setPassword, { identity, new_password: "another good password" })).toEqual({ status: true });
    await bus.nc.close();
    expect((await stack.browser().client.signIn.email({ email: "setpassword@example.com", password: "another good password" })).data).toBeTruthy();
  });
});

describe("callback URLs", () => {
  it("redirects to a path on this site or a trusted origin", async () => {
    await signedUp("callback@example.com");
    const { client } = stack.browser();
    const signIn = await client.signIn.email({ email: "callback@example.com", password, callbackURL: "/dashboard" });
    expect(signIn.data).toMatchObject({ redirect: true, url: "/dashboard" });
    const absolute = await client.signIn.email({ email: "callback@example.com", password, callbackURL: "http://localhost:3000/settings" });
    expect(absolute.data).toMatchObject({ redirect: true, url: "http://localhost:3000/settings" });
  });

  it.each(["https://evil.example/phish", "//evil.example", "/..//evil.example", "/%2e%2e//evil.example", "/%252e%252e//evil.example", "/\\evil.example", "javascript:alert(1)"])(
    "refuses %s as untrusted",
    async (callbackURL) => {
      const { client } = stack.browser();
      const signIn = await client.signIn.email({ email: "callback@example.com", password, callbackURL });
      expect(signIn.error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    },
  );
});

describe("session lifetime", () => {
  const sessionOf = async (browser: Browser) => (await browser.client.getSession({ query: { disableRefresh: true } })).data?.session;

  it("slides the expiry forward once the session is older than the update age", async () => {
    const user = await signedUp("refresh@example.com");
    const session = await sessionOf(user);
    // Two days into its seven: past the one-day update age.
    await db()("sessions").where({ id: session?.id }).update({ expires_at: new Date(Date.now() + 5 * 24 * 3600_000) });
    await stack.forgetCachedSessions();
    expect(new Date((await sessionOf(user))?.expiresAt ?? 0).getTime()).toBeLessThan(Date.now() + 6 * 24 * 3600_000);

    const response = await user.fetch(`${stack.gateway.url}/api/auth/get-session`);
    const refreshed = ((await response.json()) as { session: { expiresAt: string } }).session;
    expect(new Date(refreshed.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("better-auth.session_token=") && cookie.includes("Max-Age=604800"))).toBe(true);
  });

  it("requires a fresh session for sensitive actions", async () => {
    const user = await signedUp("stale@example.com");
    const session = await sessionOf(user);
    await db()("sessions").where({ id: session?.id }).update({ created_at: new Date(Date.now() - 2 * 24 * 3600_000) });
    expect((await user.client.listSessions()).error).toMatchObject({ status: 403, code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
  });

  it("deletes an expired session and clears its cookies", async () => {
    const user = await signedUp("expired@example.com");
    const session = await sessionOf(user);
    await db()("sessions").where({ id: session?.id }).update({ expires_at: new Date(Date.now() - 1000) });
    // The gateway would keep its cached copy for a few seconds; start from an empty cache, as after that.
    await stack.forgetCachedSessions();
    const response = await user.fetch(`${stack.gateway.url}/api/auth/get-session`);
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie().some((cookie) => /^better-auth\.session_token=; Max-Age=0/.test(cookie))).toBe(true);
    expect(await db()("sessions").where({ id: session?.id }).first()).toBeUndefined();
  });
});

describe("the ok and error pages", () => {
  it("answers ok", async () => {
    expect((await stack.browser().client.$fetch("/ok")).data).toEqual({ ok: true });
  });

  it("shows the error page with the escaped code, or Unknown", async () => {
    const page = await (await fetch(`${stack.gateway.url}/api/auth/error?error=%3Cscript%3Ealert(1)%3C/script%3E`)).text();
    expect(page).toContain("<h1>");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>alert(1)</script>");
    expect(page).toMatch(/<a href="\/">Return to Application<\/a>/);
    expect(await (await fetch(`${stack.gateway.url}/api/auth/error`)).text()).toContain("<code>Unknown</code>");
  });
});
