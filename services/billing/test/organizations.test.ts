import { describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

/** A raw call through the gateway, for what the SDK would not send. */
const call = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers } });

describe("sellers", () => {
  it("are created from the organization service's organizations and updated through the SDK", async () => {
    const updated = await shop.polar.organizations.update({
      id: shop.organizationId,
      organizationUpdate: {
        email: "billing@shop.example",
        website: "https://shop.example",
        socials: [{ platform: "github", url: "https://github.com/shop" }],
        subscriptionSettings: { allowMultipleSubscriptions: true, allowCustomerUpdates: false, prorationBehavior: "invoice", benefitRevocationGracePeriod: 0, preventTrialAbuse: false },
        details: { about: "We sell things", productDescription: "Things", intendedUse: "Selling", switching: false },
      },
    });
    expect(updated).toMatchObject({
      email: "billing@shop.example",
      website: "https://shop.example",
      socials: [{ platform: "github", url: "https://github.com/shop" }],
      prorationBehavior: "invoice",
      allowCustomerUpdates: false,
      subscriptionSettings: { allowMultipleSubscriptions: true, prorationBehavior: "invoice" },
    });
    expect(updated.detailsSubmittedAt).toBeInstanceOf(Date);
    const announced = async () => (await publishedEvents(stack.billing.context.bus)).filter((event) => event.type === "billing.organization.updated").at(-1)?.data;
    await expect.poll(announced).toMatchObject({ organization_id: shop.organizationId, payload: { id: shop.organizationId, email: "billing@shop.example" } });

    const listed = await shop.polar.organizations.list({});
    expect(listed.result.items.map((organization) => organization.id)).toEqual([shop.organizationId]);
    // A renamed organization is renamed here too.
    await shop.owner.client.organization.update({ organizationId: shop.organizationId, data: { name: "Renamed Shop" } });
    await expect.poll(async () => (await shop.polar.organizations.get({ id: shop.organizationId })).name).toBe("Renamed Shop");
  });
});

describe("seller settings", () => {
  it("keep the settings an organization shows, dropping others a client sends rather than storing what cannot be shown back", async () => {
    const update = await call(`/v1/organizations/${shop.organizationId}`, {
      method: "PATCH",
      token: shop.token,
      body: JSON.stringify({
        feature_settings: { issue_funding_enabled: true, flag_of_a_newer_sdk: true },
        customer_email_settings: { order_confirmation: false, no_such_email: true },
        customer_portal_settings: { usage: { show: false }, unknown_section: { on: true } },
      }),
    });
    expect(update.status).toBe(200);
    const shown = (await update.json()) as Record<string, Record<string, unknown>>;
    expect(shown.feature_settings).toMatchObject({ issue_funding_enabled: true });
    expect(shown.feature_settings).not.toHaveProperty("flag_of_a_newer_sdk");
    expect(shown.customer_email_settings).toMatchObject({ order_confirmation: false });
    expect(shown.customer_email_settings).not.toHaveProperty("no_such_email");
    expect(shown.customer_portal_settings).toMatchObject({ usage: { show: false } });
    expect(shown.customer_portal_settings).not.toHaveProperty("unknown_section");
    // What is stored still reads as an organization.
    expect((await call(`/v1/organizations/${shop.organizationId}`, { token: shop.token })).status).toBe(200);
  });
});
