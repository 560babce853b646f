import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthStack, type AuthStack, PUBLIC_URL } from "./stack.js";

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

  it("refuses a signed-in change sent from a foreign site", async () => {
    const browser = stack.browser();
    await browser.client.signUp.email({ name: "Csrf", email: "csrf@example.com", password });
    const cookie = await browser.jar.getCookieString(stack.gateway.url);
    const forged = await post("/update-user", JSON.stringify({ name: "Hacked" }), { cookie, origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect((await browser.client.getSession()).data?.user.name).toBe("Csrf");
  });

  it("answers bad input with a clear 4xx, never a 500", async () => {
    const cases: [string, string, number, Record<string, string>][] = [
      ["/sign-up/email", "{not json", 400, { code: "BAD_REQUEST", message: "Invalid JSON in request body" }],
      ["/sign-up/email", '{"name":"x","email":"p@example.com","password":"longenough1","__proto__":{"role":"admin"}}', 400, { message: "Potential prototype pollution attempt detected" }],
      ["/sign-up/email", JSON.stringify({ name: 1, email: "not-an-email", password: "" }), 400, { code: "VALIDATION_ERROR" }],
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
