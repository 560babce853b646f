import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar as polarOf202604 } from "polar-sdk-1/2026-04";
import { createPolar as polarOf202610 } from "polar-sdk-1/2026-10";
import { createPolar as polarOf202701 } from "polar-sdk-1/2027-01";
import { paidOrderOf, useShop, type Shop } from "../../../test/stacks/purchases.js";

let opened: Shop;
useShop((shop) => (opened = shop));

/** A raw `/v1` request naming `version` (or none), as a caller without an SDK sends it. */
const requestIn = (path: string, version?: string) =>
  fetch(`${opened.stack.gateway.url}${path}`, { headers: { authorization: `Bearer ${opened.shop.token}`, ...(version ? { "Polar-Version": version } : {}) } });

describe("Polar's dated API versions", () => {
  it("answers SDK 1.x pinned to 2026-04 without a license key's seat member, and pinned to 2026-10 with it", async () => {
    const { shop } = opened;
    const licence: Awaited<ReturnType<Polar["benefits"]["create"]>> = await shop.polar.benefits.create({ type: "license_keys", description: "Licence", properties: { prefix: "VER", activations: { limit: 2, enableCustomerAdmin: true } } });
    const app = await shop.polar.products.create({ name: "Versioned app", prices: [{ amountType: "fixed", priceAmount: 2_000, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: app.id, productBenefitsUpdate: { benefits: [licence.id] } });
    await paidOrderOf(opened, app.id, "versions@example.com");

    const pinnedOld = polarOf202604({ accessToken: shop.token, baseUrl: opened.stack.gateway.url });
    const pinnedCurrent = polarOf202610({ accessToken: shop.token, baseUrl: opened.stack.gateway.url });
    const [current] = (await pinnedCurrent.licenseKeys.list({ benefit_id: licence.id })).items;
    expect(current).toMatchObject({ benefit_id: licence.id, member_id: null, member: null });
    const [old] = (await pinnedOld.licenseKeys.list({ benefit_id: licence.id })).items;
    expect(old?.key).toBe(current?.key);
    expect(old).not.toHaveProperty("member_id");
    expect(await pinnedOld.licenseKeys.get(current?.id ?? "")).not.toHaveProperty("member");
    expect(await pinnedCurrent.licenseKeys.get(current?.id ?? "")).toMatchObject({ member_id: null, activations: [] });
    // A key validated by the buyer's software, through the portal's public route, follows the version too.
    const validated = await pinnedOld.customerPortal.licenseKeys.validate({ key: current?.key ?? "", organization_id: shop.organizationId });
    expect(validated).toMatchObject({ status: "granted" });
    expect(validated).not.toHaveProperty("member_id");
    expect(validated).not.toHaveProperty("order");
    // From 2027-01 on, a validation tells the purchase the key came with: here a one-time order, paid.
    const pinnedNewest = polarOf202701({ accessToken: shop.token, baseUrl: opened.stack.gateway.url });
    const [order] = (await pinnedNewest.orders.list({ product_id: app.id })).items;
    const withPurchase = await pinnedNewest.customerPortal.licenseKeys.validate({ key: current?.key ?? "", organization_id: shop.organizationId });
    expect(withPurchase).toMatchObject({ subscription_id: null, subscription: null, order_id: order?.id, order: { id: order?.id, status: "paid", paid: true } });
    const activated = await pinnedNewest.licenseKeys.activate({ key: current?.key ?? "", organization_id: shop.organizationId, label: "Laptop" });
    expect(activated.license_key).toMatchObject({ order_id: order?.id, subscription: null });
  });

  it("names the version of every answer, gives the newest to a caller naming none, and refuses one it does not answer in as Polar does", async () => {
    const newest = await requestIn("/v1/products/");
    expect(newest.status).toBe(200);
    expect(newest.headers.get("polar-version")).toBe("2027-01");
    expect((await requestIn("/v1/products/", "2026-04")).headers.get("polar-version")).toBe("2026-04");

    for (const unknown of ["2025-01", "2026-4", "latest"]) {
      const refused = await requestIn("/v1/products/", unknown);
      expect(refused.status, unknown).toBe(404);
      expect(await refused.json()).toEqual({ detail: "Not Found" });
    }
    // Refused before anything else looks at the request: no token needed to learn the version is unknown.
    expect((await fetch(`${opened.stack.gateway.url}/v1/products/`, { headers: { "Polar-Version": "2030-01" } })).status).toBe(404);
  });

  it("describes each version's shapes in /v1/openapi.json", async () => {
    const fieldsOf = async (version?: string) => {
      const document = (await (await requestIn("/v1/openapi.json", version)).json()) as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } };
      return document.components.schemas.LicenseKeyRead;
    };
    const old = await fieldsOf("2026-04");
    expect(Object.keys(old?.properties ?? {})).not.toContain("member_id");
    expect(old?.required).not.toContain("member");
    expect(Object.keys((await fieldsOf("2026-10"))?.properties ?? {})).toEqual(expect.arrayContaining(["member_id", "member"]));
    expect(await fieldsOf()).toEqual(await fieldsOf("2027-01"));
  });
});
