import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnvironment, type Seen, type TestEnvironment } from "@tollgate/kit/testing";
import { ConfigError, generateIdentityKeys } from "@tollgate/kit";
import { loadGatewayConfig } from "../src/config.js";
import type { RunningGateway } from "../src/gateway.js";
import { startEchoGateway, startEchoUpstreams, type EchoUpstreams } from "./echo-gateway.js";

const SITE = "http://localhost:3000";

let environment: TestEnvironment;
let upstreams: EchoUpstreams;
let gateway: RunningGateway;
const extraGateways: RunningGateway[] = [];

beforeAll(async () => {
  environment = await createTestEnvironment();
  upstreams = await startEchoUpstreams(environment);
  gateway = await startEchoGateway(environment, upstreams);
});

afterAll(async () => {
  for (const running of [gateway, ...extraGateways]) await running?.stop();
  for (const server of upstreams?.servers ?? []) server.close();
});

async function anotherGateway(env: Record<string, string>): Promise<RunningGateway> {
  const running = await startEchoGateway(environment, upstreams, env);
  extraGateways.push(running);
  return running;
}

/** A form post sent raw, as a browser would: fetch() rewrites Sec-Fetch-* and refuses to set Host. */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end("email=a%40example.com&password=x");
  });
}

/**
 * A JSON post as the site's own pages send it, naming their origin as better-auth's client does:
 * fetch() sends Fetch Metadata, after which sign-in and sign-up insist on an Origin.
 */
const post = (base: RunningGateway, path: string, headers: Record<string, string> = {}, body = "{}") =>
  fetch(`${base.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: SITE, ...headers }, body });

describe("rate limits", () => {
  it("allows 3 sign-ins per 10 s per address and path, then answers 429 as better-auth does", async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++) statuses.push((await post(gateway, "/api/auth/sign-in/email")).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await post(gateway, "/api/auth/sign-in/email");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: "Too many requests. Please try again later." });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(refused.headers.get("x-retry-after")).toBe(String(retryAfter));
    // Another path has its own counter.
    expect((await post(gateway, "/api/auth/sign-in/username")).status).toBe(200);
  });

  it("counts a path however its case or slashes are written, as the services route it the same", async () => {
    const spellings = ["/api/auth/sign-in/social", "/api/auth/SIGN-IN/social", "/api/auth//sign-in//social/"];
    for (const path of spellings) expect((await post(gateway, path)).status).toBe(200);
    expect((await post(gateway, "/api/auth/Sign-In/Social")).status).toBe(429);
  });

  it("allows verification and reset mails 3 times a minute", async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect((await post(gateway, "/api/auth/request-password-reset")).status).toBe(200);
    const refused = await post(gateway, "/api/auth/request-password-reset");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(10);
  });

  it("allows other auth paths 100 requests per 10 s", async () => {
    const statuses = await Promise.all(Array.from({ length: 100 }, () => fetch(`${gateway.url}/api/auth/get-session`).then((r) => r.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await fetch(`${gateway.url}/api/auth/get-session`)).status).toBe(429);
  });

  it("gives Polar's API a per-client budget and answers in its error shape", async () => {
    const statuses = await Promise.all(Array.from({ length: 300 }, (_, index) => fetch(`${gateway.url}/v1/products/${index}`).then((r) => r.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await fetch(`${gateway.url}/v1/customers/`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "TooManyRequests", detail: "Too many requests. Please try again later." });
    expect(refused.headers.get("retry-after")).toBeTruthy();
  });

  it("allows the customer's software 30 license-key checks a minute per address and call, without a token", async () => {
    const check = (call: string) => post(gateway, `/v1/customer-portal/license-keys/${call}`);
    for (let attempt = 0; attempt < 30; attempt++) expect((await check("validate")).status).toBe(200);
    const refused = await check("Validate/");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "TooManyRequests", detail: "Too many requests. Please try again later." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await check("activate")).status).toBe(200);
  });

  it("allows 3 portal sign-in codes to be mailed and 10 tried a minute per address, as guessing a code must stay slow", async () => {
    const signIn = (call: string) => post(gateway, `/v1/customer-portal/customer-session/${call}`);
    for (let attempt = 0; attempt < 3; attempt++) expect((await signIn("request")).status).toBe(200);
    expect((await signIn("request")).status).toBe(429);
    for (let attempt = 0; attempt < 10; attempt++) expect((await signIn("authenticate")).status).toBe(200);
    const refused = await signIn("authenticate");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "TooManyRequests", detail: "Too many requests. Please try again later." });
  });

  it("counts across every gateway replica sharing Redis", async () => {
    const replica = await anotherGateway({});
    const path = "/api/auth/sign-up/email";
    expect((await post(gateway, path)).status).toBe(200);
    expect((await post(replica, path)).status).toBe(200);
    expect((await post(gateway, path)).status).toBe(200);
    expect((await post(replica, path)).status).toBe(429);
  });

  it("can be turned off", async () => {
    const unlimited = await anotherGateway({ RATE_LIMIT_ENABLED: "false", REDIS_PREFIX: `${environment.redisPrefix}unlimited:` });
    for (let attempt = 0; attempt < 6; attempt++) expect((await post(unlimited, "/api/auth/change-password")).status).toBe(200);
  });
});

describe("client addresses", () => {
  let behindProxy: RunningGateway;
  beforeAll(async () => {
    behindProxy = await anotherGateway({ TRUSTED_PROXIES: "127.0.0.1/8", REDIS_PREFIX: `${environment.redisPrefix}proxied:` });
  });
  const seenBy = async (target: RunningGateway, headers: Record<string, string>) =>
    ((await (await fetch(`${target.url}/api/auth/organization/whoami`, { headers })).json()) as Seen).headers;

  it("ignores X-Forwarded-* from a peer that is not a trusted proxy", async () => {
    const seen = await seenBy(gateway, { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" });
    expect(seen).toMatchObject({ "x-forwarded-for": "127.0.0.1", "x-forwarded-proto": "http", "x-forwarded-host": new URL(gateway.url).host });
    // Nor does a made-up address get a fresh rate-limit counter.
    for (let attempt = 0; attempt < 3; attempt++) await post(gateway, "/api/auth/change-email", { "x-forwarded-for": `198.51.100.${attempt}` });
    expect((await post(gateway, "/api/auth/change-email", { "x-forwarded-for": "198.51.100.77" })).status).toBe(429);
  });

  it("forwards an HTTP/1.0 request that names no host, without the X-Forwarded-Host it claimed", async () => {
    const { port } = new URL(gateway.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write("GET /api/auth/organization/whoami HTTP/1.0\r\nx-forwarded-host: evil.example\r\n\r\n");
      });
      let received = "";
      socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const seen = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Seen;
    expect(seen.headers["x-forwarded-host"]).toBeUndefined();
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("believes a trusted proxy up to the first hop it cannot vouch for, and forwards that chain", async () => {
    const seen = await seenBy(behindProxy, { "x-forwarded-for": "198.51.100.1, 203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" });
    // 198.51.100.1 is only what 203.0.113.9, which nobody vouches for, claimed.
    expect(seen).toMatchObject({ "x-forwarded-for": "203.0.113.9, 127.0.0.1", "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" });
  });

  it("limits each client behind a trusted proxy separately", async () => {
    for (let attempt = 0; attempt < 3; attempt++) await post(behindProxy, "/api/auth/sign-in/email", { "x-forwarded-for": "203.0.113.10" });
    expect((await post(behindProxy, "/api/auth/sign-in/email", { "x-forwarded-for": "203.0.113.10" })).status).toBe(429);
    expect((await post(behindProxy, "/api/auth/sign-in/email", { "x-forwarded-for": "203.0.113.11" })).status).toBe(200);
  });

  it("counts an IPv6 client's /64 as one client, and an IPv4 address mapped into IPv6 as itself", async () => {
    const attempt = (address: string) => post(behindProxy, "/api/auth/change-password", { "x-forwarded-for": address }).then((r) => r.status);
    expect([await attempt("2001:db8::1"), await attempt("2001:db8::2"), await attempt("2001:db8:0:0:ffff::3")]).toEqual([200, 200, 200]);
    expect(await attempt("2001:db8:0:0:1::4")).toBe(429);
    expect(await attempt("2001:db8:0:1::1")).toBe(200);

    expect([await attempt("203.0.113.20"), await attempt("::ffff:203.0.113.20"), await attempt("203.0.113.20")]).toEqual([200, 200, 200]);
    expect(await attempt("::ffff:cb00:7114")).toBe(429);
  });

  it("stops at start on a proxy or origin that is not one", () => {
    const configWith = (env: Record<string, string>) => () => loadGatewayConfig({ IDENTITY_SIGNING_KEY: generateIdentityKeys().signingKey, AUTH_SECRET: "a".repeat(43), ...env });
    expect(configWith({ TRUSTED_PROXIES: "10.0.0.0/8, lb.internal" })).toThrow(/TRUSTED_PROXIES: expected a comma-separated list of IP addresses or CIDR ranges/);
    expect(configWith({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(ConfigError);
    expect(configWith({ TRUSTED_ORIGINS: "https://app.example.com, app.example.com" })).toThrow(/TRUSTED_ORIGINS: expected a comma-separated list of http:\/\/ or https:\/\/ origins/);
    expect(configWith({ TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8", TRUSTED_ORIGINS: "https://app.example.com" })).not.toThrow();
  });
});

describe("origins", () => {
  let open: RunningGateway;
  beforeAll(async () => {
    // Rate limits off, so what these tests see is the origin check alone.
    open = await anotherGateway({ RATE_LIMIT_ENABLED: "false", TRUSTED_ORIGINS: "https://app.example.com", BODY_LIMIT: "1kb" });
  });
  const withCookie = { cookie: "theme=dark" };

  it("lets cookie-carrying changes through only from a trusted origin", async () => {
    expect((await post(open, "/api/auth/update-user", { ...withCookie, origin: SITE })).status).toBe(200);
    expect((await post(open, "/api/auth/update-user", { ...withCookie, origin: "https://app.example.com" })).status).toBe(200);
    expect((await post(open, "/api/auth/update-user", { ...withCookie, referer: `${SITE}/settings` })).status).toBe(200);
    // An empty Origin says nothing, so the Referer is what counts.
    expect((await rawPost(`${open.url}/api/auth/update-user`, { ...withCookie, origin: "", referer: `${SITE}/settings` })).status).toBe(200);

    const foreign = await post(open, "/api/auth/update-user", { ...withCookie, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    const missing = await rawPost(`${open.url}/api/auth/update-user`, withCookie);
    expect(missing.status).toBe(403);
    expect(JSON.parse(missing.body)).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    const polar = await post(open, "/v1/products/", { ...withCookie, origin: "https://evil.example" });
    expect(polar.status).toBe(403);
    expect(await polar.json()).toEqual({ error: "NotPermitted", detail: "Invalid origin" });
  });

  it("does not check requests without cookies or that change nothing", async () => {
    expect((await rawPost(`${open.url}/api/auth/update-user`, {})).status).toBe(200);
    expect((await fetch(`${open.url}/api/auth/organization/list`, { headers: { ...withCookie, origin: "https://evil.example" } })).status).toBe(200);
  });

  it("blocks a cross-site navigation to sign-in and a sign-up posted from a foreign origin", async () => {
    // fetch() rewrites Sec-Fetch-Mode, so this one goes out as a browser's form navigation would, raw.
    const navigation = await rawPost(`${open.url}/api/auth/sign-in/email`, { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" });
    expect(navigation.status).toBe(403);
    expect(JSON.parse(navigation.body)).toMatchObject({ code: "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED" });
    const foreign = await post(open, "/api/auth/sign-up/email", { origin: "https://evil.example" });
    expect(await foreign.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    const shouted = await rawPost(`${open.url}/api/auth/SIGN-IN/email`, { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" });
    expect(JSON.parse(shouted.body)).toMatchObject({ code: "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED" });
  });

  it("asks a browser's sign-in for its origin even without a cookie, as better-auth does", async () => {
    // A browser says so in Fetch Metadata; then it must also say where from.
    const unnamed = await rawPost(`${open.url}/api/auth/sign-in/email`, { "sec-fetch-site": "same-site", "sec-fetch-mode": "cors" });
    expect(unnamed.status).toBe(403);
    expect(JSON.parse(unnamed.body)).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    const named = await rawPost(`${open.url}/api/auth/sign-in/email`, { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", origin: SITE });
    expect(named.status).toBe(200);
    // A caller that is no browser (node:http here; fetch() sends Sec-Fetch-Mode) is not asked.
    expect((await rawPost(`${open.url}/api/auth/sign-in/email`, {})).status).toBe(200);
  });

  it("takes a hidden same-origin Origin (null) to be the site it was sent to", async () => {
    const sentTo = (host: string, site: string) =>
      rawPost(`${open.url}/api/auth/update-user`, { ...withCookie, origin: "null", "sec-fetch-site": site, host });
    expect((await sentTo("localhost:3000", "same-origin")).status).toBe(200);
    expect(JSON.parse((await sentTo("evil.example", "same-origin")).body)).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect(JSON.parse((await sentTo("localhost:3000", "cross-site")).body)).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
  });

  it("answers CORS preflights for trusted origins only, with credentials", async () => {
    const preflight = (origin: string) =>
      fetch(`${open.url}/api/auth/get-session`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const trusted = await preflight("https://app.example.com");
    expect(trusted.status).toBe(204);
    expect(trusted.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(trusted.headers.get("access-control-allow-credentials")).toBe("true");
    expect(trusted.headers.get("access-control-allow-headers")).toBe("content-type");
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("body limits", () => {
  let open: RunningGateway;
  beforeAll(async () => {
    open = await anotherGateway({ RATE_LIMIT_ENABLED: "false", BODY_LIMIT: "1kb" });
  });
  it("refuses an oversized body before proxying it, in each API's shape", async () => {
    const big = JSON.stringify({ name: "x".repeat(2_000) });
    const auth = await post(open, "/api/auth/update-user/too-big", {}, big);
    expect(auth.status).toBe(413);
    expect(await auth.json()).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "request body is larger than 1024 bytes" });
    const polar = await post(open, "/v1/products/too-big", {}, big);
    expect(polar.status).toBe(413);
    expect(await polar.json()).toEqual({ error: "PayloadTooLarge", detail: "request body is larger than 1024 bytes" });
  });
});
