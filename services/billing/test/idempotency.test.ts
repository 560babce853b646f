import { describe, expect, it } from "vitest";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

/** A raw call through the gateway, for what the SDK would not send. */
const call = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers } });

describe("Idempotency-Key", () => {
  it("answers a retried write as the first time without doing it twice, and refuses the key for another request", async () => {
    const send = (comment: string) =>
      call("/v1/organization-access-tokens/", { method: "POST", token: shop.token, headers: { "idempotency-key": "retry-1" }, body: JSON.stringify({ comment, scopes: ["products:read"] }) });
    const first = await send("idempotent");
    const again = await send("idempotent");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const listed = await shop.polar.organizationAccessTokens.list({ limit: 100 });
    expect(listed.result.items.filter((item) => item.comment === "idempotent")).toHaveLength(1);
    const reused = await send("another");
    expect(reused.status).toBe(409);
  });
});
