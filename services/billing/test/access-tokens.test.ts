import { describe, expect, it } from "vitest";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

/** A raw call through the gateway, for what the SDK would not send. */
const call = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers } });

describe("organization access tokens", () => {
  it("are made by a signed-in owner, shown once, and work with Polar's SDK", async () => {
    expect(shop.token).toMatch(/^polar_oat_[A-Za-z0-9]{43}$/);
    const organization = await shop.polar.organizations.get({ id: shop.organizationId });
    expect(organization).toMatchObject({ id: shop.organizationId, status: "active", featureSettings: { issueFundingEnabled: false } });
    const listed = await shop.polar.organizationAccessTokens.list({});
    expect(listed.result.items).toHaveLength(1);
    expect(listed.result.items[0]).toMatchObject({ comment: "tests", organizationId: shop.organizationId, expiresAt: null });
    expect(JSON.stringify(listed.result)).not.toContain(shop.token);
    // Used just now, by the calls above.
    expect(listed.result.items[0]?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("are kept only as digests", async () => {
    const rows = await stack.billing.context.db("access_tokens").select("token_hash");
    expect(rows.every((row: { token_hash: string }) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(shop.token);
  });

  it("can be made by a token with the scope, expire, be renamed, narrowed and deleted", async () => {
    const { organizationAccessToken, token } = await shop.polar.organizationAccessTokens.create({
      comment: "short-lived",
      expiresIn: "PT2S",
      scopes: ["products:read", "organizations:read"],
    });
    expect(organizationAccessToken.organizationId).toBe(shop.organizationId);
    expect(organizationAccessToken.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    const shortLived = stack.sdk(token);
    expect((await shortLived.organizations.get({ id: shop.organizationId })).id).toBe(shop.organizationId);

    const renamed = await shop.polar.organizationAccessTokens.update({ id: organizationAccessToken.id, organizationAccessTokenUpdate: { comment: "narrowed", scopes: ["products:read"] } });
    expect(renamed).toMatchObject({ comment: "narrowed", scopes: ["products:read"] });
    // The narrowing counts at once: the gateway's cached copy went with the event.
    await expect.poll(async () => (await call(`/v1/organizations/${shop.organizationId}`, { token })).status).toBe(403);

    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await call(`/v1/organizations/${shop.organizationId}`, { token });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain("Bearer");
    expect(await expired.json()).toEqual({ error: "Unauthorized", detail: "The access token provided is expired, revoked, malformed, or invalid for other reasons." });

    await shop.polar.organizationAccessTokens.delete({ id: organizationAccessToken.id });
    const listed = await shop.polar.organizationAccessTokens.list({});
    expect(listed.result.items.map((item) => item.id)).not.toContain(organizationAccessToken.id);
  });

  it("answers 401 with a challenge for no or a made-up token, and 403 for a missing scope", async () => {
    const anonymous = await call(`/v1/organizations/${shop.organizationId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="tollgate"');
    expect(await anonymous.json()).toMatchObject({ error: "Unauthorized" });
    expect((await call(`/v1/organizations/${shop.organizationId}`, { token: "polar_oat_madeup" })).status).toBe(401);

    const { token } = await shop.polar.organizationAccessTokens.create({ comment: "products only", scopes: ["products:read"] });
    const refused = await call(`/v1/organizations/${shop.organizationId}`, { token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "NotPermitted", detail: "Missing required scope: have=products:read requires=organizations:read" });
  });

  it("never reach another organization, which looks like it does not exist", async () => {
    const other = await stack.seller();
    await expect(shop.polar.organizations.get({ id: other.organizationId })).rejects.toMatchObject({ error: "ResourceNotFound" });
    const tokens = await call(`/v1/organization-access-tokens/?organization_id=${other.organizationId}`, { token: shop.token });
    expect(((await tokens.json()) as { items: unknown[] }).items).toEqual([]);
    const created = await call("/v1/organization-access-tokens/", { method: "POST", token: shop.token, body: JSON.stringify({ organization_id: other.organizationId, comment: "x", scopes: ["products:read"] }) });
    expect(created.status).toBe(404);
  });

  it("are managed by the console with the session, by owners and admins only", async () => {
    const viaConsole = await shop.owner.fetch(`${stack.gateway.url}/v1/organization-access-tokens/`, { headers: { origin: PUBLIC_URL } });
    expect(viaConsole.status).toBe(200);
    const stranger = stack.browser();
    await stranger.client.signUp.email({ name: "Stranger", email: `stranger-${Date.now()}@example.com`, password: "correct horse battery staple" });
    const refused = await stranger.fetch(`${stack.gateway.url}/v1/organization-access-tokens/`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: PUBLIC_URL },
      body: JSON.stringify({ organization_id: shop.organizationId, comment: "x", scopes: ["products:read"] }),
    });
    expect(refused.status).toBe(404);
  });

  it("refuses bad bodies in Polar's 422 shape", async () => {
    const response = await call("/v1/organization-access-tokens/", { method: "POST", token: shop.token, body: JSON.stringify({ comment: "", scopes: ["root:write"], expires_in: "soon" }) });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: unknown[]; type: string; input?: unknown }[] };
    expect(detail.map((issue) => issue.loc)).toEqual([
      ["body", "comment"],
      ["body", "scopes", 0],
    ]);
    expect(detail[1]?.input).toBe("root:write");
    const badDuration = await call("/v1/organization-access-tokens/", { method: "POST", token: shop.token, body: JSON.stringify({ comment: "x", scopes: ["products:read"], expires_in: "soon" }) });
    expect(await badDuration.json()).toMatchObject({ detail: [{ loc: ["body", "expires_in"], input: "soon" }] });
  });
});
