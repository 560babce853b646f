import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";
let cached: AuthStack;
let plain: AuthStack;

beforeAll(async () => {
  [cached, plain] = await Promise.all([startAuthStack({ SESSION_COOKIE_CACHE: "true" }, { SESSION_COOKIE_CACHE: "true" }), startAuthStack()]);
});

afterAll(async () => {
  await Promise.all([cached?.stop(), plain?.stop()]);
});

const dataCookie = (setCookies: string[]) => setCookies.find((cookie) => cookie.startsWith("better-auth.session_data="));

describe("the session_data cookie cache", () => {
  it("is off unless configured", async () => {
    const { client, jar } = plain.browser();
    await client.signUp.email({ name: "Plain", email: "plain@example.com", password });
    expect((await jar.getCookies(plain.gateway.url)).map((cookie) => cookie.key)).toEqual(["better-auth.session_token"]);
  });

  it("holds the session for 60 s, and get-session is answered from it without any lookup", async () => {
    const browser = cached.browser();
    await browser.client.signUp.email({ name: "Cached", email: "cached@example.com", password });
    const data = (await browser.jar.getCookies(cached.gateway.url)).find((cookie) => cookie.key === "better-auth.session_data");
    expect(data).toMatchObject({ httpOnly: true, maxAge: 60 });
    expect(data?.value.length).toBeLessThanOrEqual(4093);

    const session = (await browser.client.getSession()).data?.session;
    // Gone from the database and from the gateway's Redis cache: only the cookie can answer now.
    await cached.auth.context.db("sessions").where({ id: session?.id }).delete();
    await cached.forgetCachedSessions();
    expect((await browser.client.getSession()).data?.session.id).toBe(session?.id);
    expect((await browser.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
  });

  it("is ignored when tampered with or when it belongs to another session", async () => {
    const browser = cached.browser();
    await browser.client.signUp.email({ name: "Honest", email: "honest@example.com", password });
    const cookies = await browser.jar.getCookies(cached.gateway.url);
    const token = cookies.find((cookie) => cookie.key === "better-auth.session_token")?.value ?? "";
    const data = cookies.find((cookie) => cookie.key === "better-auth.session_data")?.value ?? "";
    const decoded = JSON.parse(Buffer.from(data, "base64url").toString()) as { session: { user: { name: string } } };
    decoded.session.user.name = "Admin";
    const forged = Buffer.from(JSON.stringify(decoded)).toString("base64url");
    const response = await fetch(`${cached.gateway.url}/api/auth/get-session`, {
      headers: { cookie: `better-auth.session_token=${token}; better-auth.session_data=${forged}` },
    });
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Honest");

    const other = cached.browser();
    await other.client.signUp.email({ name: "Other", email: "other.cache@example.com", password });
    const otherData = (await other.jar.getCookies(cached.gateway.url)).find((cookie) => cookie.key === "better-auth.session_data")?.value ?? "";
    const mixed = await fetch(`${cached.gateway.url}/api/auth/get-session`, {
      headers: { cookie: `better-auth.session_token=${token}; better-auth.session_data=${otherData}` },
    });
    expect(((await mixed.json()) as { user: { name: string } }).user.name).toBe("Honest");
  });

  it("is renewed when the user changes their profile, and left out when it would not fit in a cookie", async () => {
    const browser = cached.browser();
    await browser.client.signUp.email({ name: "Short", email: "short.name@example.com", password });
    const update = await browser.fetch(`${cached.gateway.url}/api/auth/update-user`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({ name: "x".repeat(4_000) }),
    });
    expect(dataCookie(update.headers.getSetCookie())).toMatch(/^better-auth\.session_data=; Max-Age=0/);
    expect((await browser.client.getSession()).data?.user.name).toHaveLength(4_000);

    await browser.client.updateUser({ name: "Short Again" });
    expect((await browser.client.getSession()).data?.user.name).toBe("Short Again");
  });
});
