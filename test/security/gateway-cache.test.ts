import { createHash, randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useShop } from "../stacks/purchases.js";
import { ALL_SCOPES, type BillingStack, type Seller } from "../stacks/billing.js";
import { rawRequest, type RawRequest } from "./attacker.js";

/**
 * Attacks on the gateway's cache of who a credential belongs to, by someone who can write to its
 * Redis (a compromised process beside it, a leaked Redis password) but holds none of the gateway's
 * secrets: whatever they write there, they are nobody they were not already.
 */

let stack: BillingStack;
let victim: Seller;
let mallory: Seller;
/** Redis as the attacker reaches it: keys in full, no sealing key. */
let redis: Redis;

useShop((opened) => ({ stack, shop: victim } = opened));

beforeAll(async () => {
  mallory = await stack.seller();
  redis = new Redis(stack.environment.redisUrl);
});

afterAll(() => {
  redis?.disconnect();
});

const send = (path: string, init?: RawRequest) => rawRequest(stack.gateway.url, path, init);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const digest = (token: string) => createHash("sha256").update(token).digest("hex");
const cacheKey = (kind: "bearer" | "session", token: string) => `${stack.environment.redisPrefix}${kind}:${digest(token)}`;

/** The names of the products a token lists. */
async function productsListedWith(token: string): Promise<string[]> {
  const answer = await send("/v1/products/?limit=100", { headers: bearer(token) });
  expect(answer.status, answer.text).toBe(200);
  return (JSON.parse(answer.text) as { items: { name: string }[] }).items.map((product) => product.name);
}

describe("#3 (round 2) anything that can write to Redis mints no identity", () => {
  it("a made-up token, cached by hand as another organization's, is refused, while a real token works and is cached sealed", async () => {
    const madeUp = `polar_oat_${randomBytes(24).toString("base64url")}`;
    const forged = { kind: "organization_token", token: { id: "oat_forged", organization_id: victim.organizationId, scopes: ALL_SCOPES, expires_at: null } };
    await redis.set(cacheKey("bearer", madeUp), JSON.stringify(forged), "EX", 300);

    const refused = await send("/v1/products/", { headers: bearer(madeUp) });
    expect(refused.status, refused.text).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/invalid_token/);

    await victim.polar.products.create({ name: "Victim's plan", prices: [{ amountType: "free" }] });
    expect(await productsListedWith(victim.token)).toContain("Victim's plan");
    const sealed = await redis.get(cacheKey("bearer", victim.token));
    expect(sealed).not.toBeNull();
    // What the gateway cached opens nothing but the token it was cached for.
    await redis.set(cacheKey("bearer", madeUp), sealed ?? "", "EX", 300);
    expect((await send("/v1/products/", { headers: bearer(madeUp) })).status).toBe(401);
    expect(await productsListedWith(victim.token)).toContain("Victim's plan");
  });

  it("a seller's own token, its cached entry rewritten to name another organization, still opens only their own", async () => {
    await victim.polar.products.create({ name: "Victim's secret product", prices: [{ amountType: "free" }] });
    await productsListedWith(mallory.token);
    const sealed = (await redis.get(cacheKey("bearer", mallory.token))) ?? "";
    const [, expiresAt, mac = "", value = ""] = /^(\d+)\.([^.]+)\.(.*)$/s.exec(sealed) ?? [];
    const retargeted = value.replace(mallory.organizationId, victim.organizationId);
    const tamperedMac = `${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    // The identity changed under the gateway's MAC; the gateway's value under a changed MAC; and the bare identity.
    for (const entry of [`${expiresAt}.${mac}.${retargeted}`, `${expiresAt}.${tamperedMac}.${value}`, retargeted]) {
      await redis.set(cacheKey("bearer", mallory.token), entry, "EX", 300);
      expect(await productsListedWith(mallory.token), entry.slice(0, 60)).not.toContain("Victim's secret product");
    }
  });

  it("a signed-in user's own session, its cached entry rewritten to name another user, is still their own", async () => {
    const own = (await mallory.owner.client.getSession()).data;
    const victimSession = (await victim.owner.client.getSession()).data;
    if (!own || !victimSession) throw new Error("both are signed in");
    const forged = {
      id: victimSession.session.id,
      user_id: victim.owner.id,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      impersonated_by: null,
      refresh_at: null,
      view: { session: { ...victimSession.session, token: undefined }, user: victimSession.user },
    };
    await redis.set(cacheKey("session", own.session.token), JSON.stringify(forged), "EX", 300);
    expect((await mallory.owner.client.getSession()).data?.user.id).toBe(mallory.owner.id);
    const organizations = await send("/api/auth/organization/list", { browser: mallory.owner.fetch });
    expect((JSON.parse(organizations.text) as { id: string }[]).map((organization) => organization.id)).toEqual([mallory.organizationId]);
  });
});
