import { createAuthClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startAuthStack, type AuthStack, PUBLIC_URL } from "../../../test/stacks/auth.js";

let stack: AuthStack;
let unlimited: AuthStack;
const password = "correct horse battery staple";

beforeAll(async () => {
  [stack, unlimited] = await Promise.all([startAuthStack({}, { RATE_LIMIT_ENABLED: "true" }), startAuthStack()]);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), unlimited?.stop()]);
});

const post = (path: string, body: string, headers: Record<string, string> = {}, target = stack) =>
  fetch(`${target.gateway.url}/api/auth${path}`, { method: "POST", headers: { "content-type": "application/json", origin: PUBLIC_URL, ...headers }, body });

describe("protection in front of the auth service", () => {
  it("rate-limits sign-in attempts as better-auth does, and its client sees the 429", async () => {
    const { client } = stack.browser();
    await client.signUp.email({ name: "Rate", email: "rate@example.com", password });
    const attempts = [];
    for (let attempt = 0; attempt < 4; attempt++) attempts.push(await client.signIn.email({ email: "rate@example.com", password: "wrong password" }));
    expect(attempts.slice(0, 3).map((attempt) => attempt.error?.status)).toEqual([401, 401, 401]);
    expect(attempts[3]?.error).toMatchObject({ status: 429, message: "Too many requests. Please try again later." });
  });

  it("answers a signed-in get-session with the headers and limits of every other answer", async () => {
    // A stack of its own: the requests below use up this address's get-session budget.
    const limited = await startAuthStack({}, { RATE_LIMIT_ENABLED: "true" });
    onTestFinished(() => limited.stop());
    const browser = limited.browser();
    await browser.client.signUp.email({ name: "Lane", email: "lane@example.com", password });
    const cookie = await browser.jar.getCookieString(limited.gateway.url);
    const getSession = (headers: Record<string, string> = {}) => fetch(`${limited.gateway.url}/api/auth/get-session`, { headers: { cookie, ...headers } });
    // Proxied to auth: the same security headers the gateway puts on anything it serves.
    const proxied = await fetch(`${limited.gateway.url}/api/auth/ok`, { headers: { origin: PUBLIC_URL } });
    const answered = await getSession({ origin: PUBLIC_URL, "x-request-id": "lane-1" });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { user: { email: string } }).user.email).toBe("lane@example.com");
    expect(answered.headers.get("x-request-id")).toBe("lane-1");
    expect(answered.headers.get("cache-control")).toBe("no-store");
    expect(answered.headers.get("access-control-allow-origin")).toBe(PUBLIC_URL);
    expect(answered.headers.get("access-control-allow-credentials")).toBe("true");
    for (const header of ["content-security-policy", "strict-transport-security", "x-content-type-options", "x-frame-options", "referrer-policy"]) {
      expect(answered.headers.get(header), header).toBe(proxied.headers.get(header));
    }
    expect((await getSession({ origin: "https://evil.example" })).headers.get("access-control-allow-origin")).toBeNull();
    // 100 per 10 s per address and path, counted with the anonymous ones the services answer.
    const statuses = await Promise.all(Array.from({ length: 100 }, () => getSession().then((response) => response.status)));
    const refused = await getSession();
    expect(statuses.filter((status) => status === 200).length).toBeLessThan(100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({ message: "Too many requests. Please try again later." });
  });

  it("refuses a signed-in change sent from a foreign site, or from nowhere it will name", async () => {
    const browser = stack.browser();
    await browser.client.signUp.email({ name: "Csrf", email: "csrf@example.com", password });
    const cookie = await browser.jar.getCookieString(stack.gateway.url);
    const forged = await post("/update-user", JSON.stringify({ name: "Hacked" }), { cookie, origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    // The same cookies in better-auth's own client, on a page of another site.
    const elsewhere = createAuthClient({
      baseURL: `${stack.gateway.url}/api/auth`,
      fetchOptions: { customFetchImpl: browser.fetch, headers: { origin: "https://evil.example" } },
    });
    const { error } = await elsewhere.updateUser({ name: "Hacked" });
    expect(error).toMatchObject({ status: 403, code: "INVALID_ORIGIN", message: "Invalid origin" });
    const unnamed = await browser.fetch(`${stack.gateway.url}/api/auth/update-user`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Hacked" }),
    });
    expect(unnamed.status).toBe(403);
    expect(await unnamed.json()).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    expect((await browser.client.getSession()).data?.user.name).toBe("Csrf");
  });

  it("answers bad input with a clear 4xx, never a 500", async () => {
    const cases: [string, string, number, Record<string, string>][] = [
      ["/sign-up/email", "{not json", 400, { code: "BAD_REQUEST", message: "Invalid JSON in request body" }],
      ["/sign-up/email", '{"name":"x","email":"p@example.com","password":"longenough1","__proto__":{"role":"admin"}}', 400, { message: "Potential prototype pollution attempt detected" }],
      ["/sign-up/email", JSON.stringify({ name: 1, email: "not-an-email", password: "" }), 400, { code: "VALIDATION_ERROR" }],
      ["/sign-in/email", "null", 400, { code: "VALIDATION_ERROR", message: "[body] Invalid input: expected object, received null" }],
      ["/sign-in/email", JSON.stringify({}), 400, { code: "VALIDATION_ERROR", message: "[body.email] Invalid input: expected string, received undefined; [body.password] Invalid input: expected string, received undefined" }],
      ["/sign-up/email", JSON.stringify({ name: "x".repeat(2_000_000) }), 413, { code: "PAYLOAD_TOO_LARGE" }],
    ];
    for (const [path, body, status, expected] of cases) {
      const response = await post(path, body, {}, unlimited);
      expect(response.status, `${path} ${body.slice(0, 40)}`).toBe(status);
      expect(await response.json()).toMatchObject(expected);
    }
  });
});
