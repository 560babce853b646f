import { describe, expect, it } from "vitest";
import { announced, useShop } from "../../../test/stacks/purchases.js";
import { countingMeter, type BillingStack, type Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

describe("benefits", () => {
  it("are created per type with their properties, announced, listed by type and deleted", async () => {
    const custom = await shop.polar.benefits.create({ type: "custom", description: "Priority support", properties: { note: "Write to support@shop.example" } });
    expect(custom).toMatchObject({ type: "custom", selectable: true, deletable: true, isDeleted: false, properties: { note: "Write to support@shop.example" } });
    const keys = await shop.polar.benefits.create({
      type: "license_keys",
      description: "License key",
      properties: { prefix: "SHOP", expires: { ttl: 1, timeframe: "year" }, activations: { limit: 3, enableCustomerAdmin: true } },
    });
    expect(keys.properties).toEqual({ prefix: "SHOP", expires: { ttl: 1, timeframe: "year" }, activations: { limit: 3, enableCustomerAdmin: true }, limitUsage: null });
    const repository = await shop.polar.benefits.create({ type: "github_repository", description: "Source access", properties: { repositoryOwner: "shop", repositoryName: "app", permission: "pull" } });
    const discord = await shop.polar.benefits.create({ type: "discord", description: "Discord role", properties: { guildToken: "1234567890", roleId: "42", kickMember: false } });
    expect(discord.properties).toMatchObject({ guildId: "1234567890", roleId: "42" });
    const apiCalls = await countingMeter(shop, "API calls");
    await shop.polar.benefits.create({ type: "meter_credit", description: "API credits", properties: { units: 1000, rollover: false, meterId: apiCalls.id } });

    await expect.poll(() => announced(stack, "benefit.created", custom.id)).toHaveLength(1);
    const licenseOnly = await shop.polar.benefits.list({ typeFilter: "license_keys" });
    expect(licenseOnly.result.items.map((benefit) => benefit.id)).toEqual([keys.id]);

    const updated = await shop.polar.benefits.update({ id: repository.id, requestBody: { type: "github_repository", description: "Source code", properties: { repositoryOwner: "shop", repositoryName: "app", permission: "triage" } } });
    expect(updated).toMatchObject({ description: "Source code", properties: { permission: "triage" } });
    await expect.poll(() => announced(stack, "benefit.updated", repository.id)).toHaveLength(1);

    const grants = await shop.polar.benefits.grants({ id: keys.id });
    expect(grants.result).toMatchObject({ items: [], pagination: { totalCount: 0, maxPage: 0 } });

    await shop.polar.benefits.delete({ id: custom.id });
    await expect(shop.polar.benefits.get({ id: custom.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
  });

  it("refuse properties of the wrong shape, a description too short, and another type on update", async () => {
    const response = await call("/v1/benefits/", { method: "POST", body: JSON.stringify({ type: "github_repository", description: "x", properties: { repository_owner: "a", permission: "root" } }) });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: unknown[] }[] };
    expect(detail.map((issue) => issue.loc)).toEqual(
      expect.arrayContaining([
        ["body", "description"],
        ["body", "properties", "repository_name"],
        ["body", "properties", "permission"],
      ]),
    );
    const benefit = await shop.polar.benefits.create({ type: "custom", description: "Stickers", properties: {} });
    const retyped = await call(`/v1/benefits/${benefit.id}`, { method: "PATCH", body: JSON.stringify({ type: "discord", description: "Stickers" }) });
    expect(await retyped.json()).toMatchObject({ detail: [{ loc: ["body", "type"], msg: "This benefit is of type custom" }] });
  });

  it("give meter credits on the seller's own meters, unless the seller switched usage billing off", async () => {
    const seller = await stack.seller();
    const credits = (meterId: string) => ({ type: "meter_credit" as const, description: "Credits", properties: { units: 100, rollover: true, meterId } });
    const othersMeter = await countingMeter(shop, "Not theirs");
    await expect(seller.polar.benefits.create(credits(othersMeter.id))).rejects.toMatchObject({ detail: [{ loc: ["body", "properties", "meter_id"], msg: "Meter not found" }] });
    const meter = await countingMeter(seller, "Theirs");
    expect(await seller.polar.benefits.create(credits(meter.id))).toMatchObject({ type: "meter_credit", properties: { meterId: meter.id } });

    const off = await fetch(`${stack.gateway.url}/v1/organizations/${seller.organizationId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${seller.token}` },
      body: JSON.stringify({ feature_settings: { usage_based_billing_enabled: false } }),
    });
    expect(off.status).toBe(200);
    await expect(seller.polar.benefits.create(credits(meter.id))).rejects.toMatchObject({ detail: [{ loc: ["body", "type"], msg: "Usage based billing is not enabled on your organization." }] });
  });
});
