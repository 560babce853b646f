import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { generateIdentityKeys } from "@tollgate/kit";
import { identityHeaders } from "@tollgate/kit/testing";
import { IDENTITY_HEADER, setPassword, type IdentityClaims } from "@tollgate/proto";
import { useShop } from "../stacks/purchases.js";
import type { Seller } from "../stacks/billing.js";
import { rawRequest, type RawAnswer, type RawRequest } from "./attacker.js";
import { startDispatcherStack, type DispatcherStack } from "../stacks/dispatcher.js";

/**
 * Attacks on what every service shares — the gateway, the kit's input handling, the development
 * mailbox — run against the whole stack behind a real gateway, as an outsider would run them.
 */

let stack: DispatcherStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened), startDispatcherStack);

const password = "correct horse battery staple";
const NUL = "\u0000";

const send = (path: string, init?: RawRequest) => rawRequest(stack.gateway.url, path, init);

const seller = () => ({ authorization: `Bearer ${shop.token}` });

describe("#1 the development mailbox", () => {
  it("does not hand an anonymous visitor the password-reset link of an admin", async () => {
    const admin = stack.browser();
    await admin.client.signUp.email({ name: "Admin", email: "root.admin@example.com", password });
    await stack.auth.context.db("users").where({ email: "root.admin@example.com" }).update({ role: "admin" });
    await stack.browser().client.requestPasswordReset({ email: "root.admin@example.com", redirectTo: "/reset" });

    const anonymous = await send("/api/auth/dev/mailbox");
    expect(anonymous.status).toBe(404);
    expect(anonymous.text).not.toContain("reset-password");
  });
});

describe("#8 NUL characters are refused, with or without signing in, never answered 500", () => {
  it("on /api/auth and the organization endpoints, as better-auth's 400 VALIDATION_ERROR", async () => {
    const member = stack.browser();
    await member.client.signUp.email({ name: "Nul Tester", email: "nul.tester@example.com", password });
    const created = await member.client.organization.create({ name: "Nul Shop", slug: `nul-shop-${Date.now()}` });
    const organizationId = created.data?.id ?? "";
    const attempts = [
      send("/api/auth/sign-up/email", { body: { name: `Mallory${NUL}`, email: "mallory.nul@example.com", password } }),
      send("/api/auth/sign-in/email", { body: { email: `a${NUL}@example.com`, password } }),
      send("/api/auth/update-user", { browser: member.fetch, body: { name: `Renamed${NUL}` } }),
      send("/api/auth/organization/create", { browser: member.fetch, body: { name: `Evil${NUL}Corp`, slug: "evil-corp" } }),
      send("/api/auth/organization/invite-member", { browser: member.fetch, body: { email: `x${NUL}@example.com`, role: "member", organizationId } }),
      send("/api/auth/organization/check-slug", { browser: member.fetch, body: { slug: `s${NUL}` } }),
      send(`/api/auth/organization/get-full-organization?organizationId=${encodeURIComponent(NUL)}`, { browser: member.fetch }),
      send("/api/auth/organization/update", { browser: member.fetch, body: { organizationId, data: { metadata: { [`k${NUL}`]: "v" } } } }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status, answer.text).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ code: "VALIDATION_ERROR" });
      expect((JSON.parse(answer.text) as { message: string }).message).toContain("NUL");
    }
    expect((await member.client.getSession()).data?.user.name).toBe("Nul Tester");
  });

  it("on /v1, in queries, paths and bodies, as Polar's 422 naming the place", async () => {
    const product = await shop.polar.products.create({ name: "Plain", prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }] });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    const q = encodeURIComponent(`x${NUL}y`);
    const attempts: [Promise<RawAnswer>, (string | number)[]][] = [
      [send(`/v1/products/?query=${q}`, { headers: seller() }), ["query", "query"]],
      [send(`/v1/customers/?query=${q}`, { headers: seller() }), ["query", "query"]],
      [send(`/v1/checkouts/?query=${q}`, { headers: seller() }), ["query", "query"]],
      [send(`/v1/webhooks/deliveries?event_type=${q}`, { headers: seller() }), ["query", "event_type"]],
      [send(`/v1/products/${encodeURIComponent(NUL)}`, { headers: seller() }), ["path", "id"]],
      [send("/v1/products/", { headers: seller(), body: { name: `Evil${NUL}`, prices: [{ amount_type: "free" }] } }), ["body", "name"]],
      [send("/v1/customers/", { headers: seller(), body: { email: "nul@example.com", metadata: { note: `a${NUL}` } } }), ["body", "metadata", "note"]],
      [send("/v1/customer-portal/license-keys/validate", { body: { key: `KEY${NUL}`, organization_id: shop.organizationId } }), ["body", "key"]],
      [send(`/v1/checkouts/client/${checkout.clientSecret}`, { method: "PATCH", body: { customer_name: `Pat${NUL}` } }), ["body", "customer_name"]],
    ];
    for (const [pending, loc] of attempts) {
      const answer = await pending;
      expect(answer.status, answer.text).toBe(422);
      expect(JSON.parse(answer.text)).toEqual({ detail: [expect.objectContaining({ loc, type: "string_nul_character" })] });
    }
    expect((await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).customerName).toBeNull();
  });
});

describe("#8 numbers past what Postgres or a date holds, on /api/auth", () => {
  it("are refused or read as better-auth reads them, never answered 500", async () => {
    const boss = stack.browser();
    await boss.client.signUp.email({ name: "Numbers Admin", email: "numbers.admin@example.com", password });
    await stack.auth.context.db("users").where({ email: "numbers.admin@example.com" }).update({ role: "admin" });
    const target = await stack.browser().client.signUp.email({ name: "Banned Long", email: "banned.long@example.com", password });
    const member = stack.browser();
    await member.client.signUp.email({ name: "Counter", email: "numbers.member@example.com", password });
    const organization = await member.client.organization.create({ name: "Numbers", slug: `numbers-${Date.now()}` });
    const answers = await Promise.all([
      send("/api/auth/admin/ban-user", { browser: boss.fetch, body: { userId: target.data?.user.id, banExpiresIn: 1e300 } }),
      send("/api/auth/admin/list-users?limit=99999999999999999999&offset=99999999999999999999", { browser: boss.fetch }),
      send("/api/auth/sign-in/social", { body: { provider: "google", idToken: { token: "x.y.z", expiresAt: 1e300 } } }),
      send(`/api/auth/organization/list-members?organizationId=${organization.data?.id ?? ""}&limit=99999999999999999999`, { browser: member.fetch }),
      send(`/api/auth/organization/get-full-organization?organizationId=${organization.data?.id ?? ""}&membersLimit=99999999999999999999`, { browser: member.fetch }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeLessThan(500);
    }
    expect(answers[0]?.status, answers[0]?.text).toBe(400);
  });
});

describe("#9 a body nested 20,000 deep", () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

  it("is refused in the API's own JSON shape, with no stack trace, file path or echo of the input", async () => {
    const answers = await Promise.all([
      send("/v1/products/", { headers: seller(), rawBody: `{"name":${deep(20_000)}}` }),
      send("/api/auth/sign-up/email", { rawBody: `{"name":${deep(20_000)},"email":"deep@example.com","password":"${password}"}` }),
      send("/v1/webhooks/endpoints", { headers: seller(), rawBody: deep(20_000) }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(answer.type).toMatch(/^application\/json/);
      expect(answer.text).not.toMatch(/<html|<pre>|\s+at\s|node_modules|\/services\//i);
      expect(answer.text.length).toBeLessThan(500);
    }
    expect(JSON.parse(answers[0]?.text ?? "")).toEqual({ detail: [{ loc: ["body"], msg: "JSON nested more than 64 levels deep", type: "json_invalid" }] });
  });

  it("a value below the limit that fails its schema is named, not echoed back", async () => {
    const answer = await send("/v1/products/", { headers: seller(), rawBody: `{"name":${deep(50)},"prices":[{"amount_type":"free"}]}` });
    expect(answer.status).toBe(422);
    const [issue] = (JSON.parse(answer.text) as { detail: { loc: string[]; input?: unknown }[] }).detail;
    expect(issue?.loc).toEqual(["body", "name"]);
    expect(issue).not.toHaveProperty("input");
  });
});

describe("#11 an Authorization header exempts from the cross-site check only where it authenticates", () => {
  it("a cookie-carrying change to /api/auth from another site is refused even with a bearer header", async () => {
    const victim = stack.browser();
    await victim.client.signUp.email({ name: "Victim", email: "csrf.victim@example.com", password });
    const forged = await send("/api/auth/update-user", {
      browser: victim.fetch,
      headers: { origin: "https://evil.example", authorization: "Bearer anything" },
      body: { name: "Pwned" },
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text)).toMatchObject({ code: "INVALID_ORIGIN" });
    expect((await victim.client.getSession()).data?.user.name).toBe("Victim");
  });

  it("a bearer token on /v1 is still the caller's own act, whatever cookies ride along", async () => {
    const own = await send("/v1/products/", {
      browser: shop.owner.fetch,
      headers: { origin: "https://tooling.example", ...seller() },
      body: { name: "From a script", prices: [{ amount_type: "free" }] },
    });
    expect(own.status, own.text).toBe(201);
  });
});

describe("#15 the bus", () => {
  it("sets nobody's password for a process that merely reaches NATS", async () => {
    const victim = stack.browser();
    const signedUp = await victim.client.signUp.email({ name: "Bus Victim", email: "bus.victim@example.com", password });
    const userId = signedUp.data?.user.id ?? "";
    const sessionId = (await victim.client.getSession()).data?.session.id ?? "";
    await stack.auth.context.db("accounts").where({ user_id: userId }).update({ password: null });
    // Raw requests on the subject, as any NATS client could send them.
    const { bus } = stack.billing.context;
    const ask = async (payload: unknown) => (await bus.nc.request(bus.names.requestSubject(setPassword.name), JSON.stringify(payload))).json<{ ok: boolean; error?: { code: string } }>();
    const forged = identityHeaders({ identityKeys: generateIdentityKeys() }, { kind: "user", user_id: userId, session_id: sessionId })[IDENTITY_HEADER] ?? "";
    expect(await ask({ user_id: userId, new_password: "attacker's password" })).toMatchObject({ ok: false, error: { code: "BAD_REQUEST" } });
    for (const identity of ["not a token", forged]) {
      expect(await ask({ identity, new_password: "attacker's password" })).toMatchObject({ ok: false, error: { code: "UNAUTHORIZED" } });
    }
    expect((await stack.browser().client.signIn.email({ email: "bus.victim@example.com", password: "attacker's password" })).error?.status).toBe(401);
  });
});

describe("#16 trust between services", () => {
  it("an identity a service signs (or anyone but the gateway) opens nothing", async () => {
    const claims: IdentityClaims = { kind: "organization_token", token_id: "oat_forged", organization_id: shop.organizationId, scopes: ["products:read"] };
    const target = `${stack.billing.url}/v1/products/`;
    const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const payload = { ...claims, iss: "tollgate-gateway", aud: "tollgate-services", iat: now, exp: now + 60 };
    // HS256 keyed with what every service holds (the public key), as a service that once held the shared secret would sign.
    const unsigned = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url(payload)}`;
    const withPublicKey = `${unsigned}.${createHmac("sha256", stack.environment.identityKeys.verifyKey).update(unsigned).digest("base64url")}`;
    const none = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.`;
    const otherKey = identityHeaders({ identityKeys: generateIdentityKeys() }, claims)[IDENTITY_HEADER] ?? "";
    for (const token of [withPublicKey, none, otherKey]) {
      const answer = await fetch(target, { headers: { [IDENTITY_HEADER]: token } });
      expect(answer.status, token.slice(0, 20)).toBe(401);
    }
    // The gateway's own signature opens it, so the refusals above are the keys', not the request's.
    expect((await fetch(target, { headers: identityHeaders(stack.environment, claims) })).status).toBe(200);
  });

  it("a service takes the client's address from the gateway's signed word, never from X-Forwarded-For", async () => {
    const direct = `${stack.auth.url}/api/auth/sign-up/email`;
    const answer = await fetch(direct, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6", ...identityHeaders(stack.environment, { kind: "anonymous" }, "203.0.113.7") },
      body: JSON.stringify({ name: "Addressed", email: "addressed@example.com", password }),
    });
    expect(answer.status).toBe(200);
    const recorded = await stack.auth.context.db("sessions").join("users", "users.id", "sessions.user_id").where("users.email", "addressed@example.com").pluck<string[]>("sessions.ip_address");
    expect(recorded).toEqual(["203.0.113.7"]);
  });
});
