import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { PUBLIC_URL } from "../../services/auth/test/stack.js";
import { useShop } from "../../services/billing/test/purchases.js";
import type { Seller } from "../../services/billing/test/stack.js";
import { startDispatcherStack, type DispatcherStack } from "../../services/webhook-dispatcher/test/stack.js";

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

/** A raw JSON request through the gateway, as an attacker sends it; `headers` add to the JSON content type. */
async function send(path: string, init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; browser?: typeof fetch } = {}) {
  const response = await (init.browser ?? fetch)(`${stack.gateway.url}${path}`, {
    method: init.method ?? (init.body === undefined && init.rawBody === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", origin: PUBLIC_URL, ...init.headers },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type") ?? "", text };
}

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
      expect(JSON.parse(answer.text)).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("NUL") });
    }
    expect((await member.client.getSession()).data?.user.name).toBe("Nul Tester");
  });

  it("on /v1, in queries, paths and bodies, as Polar's 422 naming the place", async () => {
    const product = await shop.polar.products.create({ name: "Plain", prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }] });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    const q = encodeURIComponent(`x${NUL}y`);
    const attempts: [Promise<Awaited<ReturnType<typeof send>>>, (string | number)[]][] = [
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
