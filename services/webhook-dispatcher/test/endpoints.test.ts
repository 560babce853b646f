import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Seller } from "../../../test/stacks/billing.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";

let stack: DispatcherStack;
let shop: Seller;

beforeAll(async () => {
  stack = await startDispatcherStack();
  shop = await stack.seller();
});

afterAll(async () => {
  await stack?.stop();
});

const call = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });

describe("webhook endpoints", () => {
  it("are created with a polar_whs_ secret, read, listed, changed, rotated and deleted with the SDK", async () => {
    const created = await shop.polar.webhooks.createWebhookEndpoint({ url: "https://shop.example/hooks", format: "raw", events: ["order.paid", "product.created", "order.paid"], name: "Orders" });
    expect(created).toMatchObject({ url: "https://shop.example/hooks", format: "raw", events: ["order.paid", "product.created"], enabled: true, name: "Orders", organizationId: shop.organizationId });
    expect(created.secret).toMatch(/^polar_whs_[A-Za-z0-9_-]{43}$/);
    expect(await shop.polar.webhooks.getWebhookEndpoint({ id: created.id })).toEqual(created);

    const listed = await shop.polar.webhooks.listWebhookEndpoints({});
    expect(listed.result.items.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(listed.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });

    const changed = await shop.polar.webhooks.updateWebhookEndpoint({ id: created.id, webhookEndpointUpdate: { format: "slack", events: ["customer.created"], enabled: false } });
    expect(changed).toMatchObject({ format: "slack", events: ["customer.created"], enabled: false, secret: created.secret });
    const rotated = await shop.polar.webhooks.resetWebhookEndpointSecret({ id: created.id });
    expect(rotated.secret).toMatch(/^polar_whs_/);
    expect(rotated.secret).not.toBe(created.secret);

    await shop.polar.webhooks.deleteWebhookEndpoint({ id: created.id });
    await expect(shop.polar.webhooks.getWebhookEndpoint({ id: created.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
  });

  it("keep secrets encrypted at rest and show them only to those who may manage the endpoint", async () => {
    const created = await shop.polar.webhooks.createWebhookEndpoint({ url: "https://shop.example/secret", format: "raw", events: ["order.paid"] });
    const stored = (await stack.webhooks.context.db("webhook_endpoints").where({ id: created.id }).first<{ secret: string }>("secret")) ?? { secret: "" };
    expect(JSON.stringify(stored)).not.toContain(created.secret.replace(/^polar_whs_/, ""));

    const reader = await stack.seller({ scopes: ["webhooks:read"] });
    // A token for another organization finds nothing of this one's.
    await expect(reader.polar.webhooks.getWebhookEndpoint({ id: created.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    const ownReader = await call(shop.token, "/v1/organization-access-tokens/", { method: "POST", body: JSON.stringify({ comment: "read only", scopes: ["webhooks:read"] }) });
    const { token } = (await ownReader.json()) as { token: string };
    const seen = (await (await call(token, `/v1/webhooks/endpoints/${created.id}`)).json()) as { secret: string };
    expect(seen.secret).toBe("polar_whs_hidden");
    const refused = await call(token, `/v1/webhooks/endpoints/${created.id}/secret`, { method: "PATCH" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "NotPermitted", detail: "Missing required scope: have=webhooks:read requires=webhooks:write" });
  });

  it("refuse bad bodies in Polar's 422 shape", async () => {
    const response = await call(shop.token, "/v1/webhooks/endpoints", { method: "POST", body: JSON.stringify({ url: "not a url", format: "telegram", events: ["order.shipped"] }) });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: (string | number)[] }[] };
    expect(detail.map((issue) => issue.loc)).toEqual(expect.arrayContaining([["body", "url"], ["body", "format"], ["body", "events", 0]]));
  });
});
