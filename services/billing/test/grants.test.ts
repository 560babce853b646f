import { describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { cardToken, eventTypesAbout, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** Buys the product with a card and waits for the checkout to succeed; the customer's id. */
async function buy(productId: string, email: string): Promise<{ customerId: string; checkoutId: string }> {
  const checkout = await shop.polar.checkouts.create({ products: [productId] });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "SE" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const settled = await shop.polar.checkouts.get({ id: checkout.id });
  return { customerId: settled.customerId ?? "", checkoutId: checkout.id };
}

describe("benefits granted by purchases", () => {
  it("grant a note, a license key and (once an account is connected) Discord, and show them on the customer's state", async () => {
    const note = await shop.polar.benefits.create({ type: "custom", description: "Support", properties: { note: "Write to help@shop.example" } });
    const keys = await shop.polar.benefits.create({ type: "license_keys", description: "App licence", properties: { prefix: "TG", activations: { limit: 2, enableCustomerAdmin: true }, limitUsage: 3 } });
    const discord = await shop.polar.benefits.create({ type: "discord", description: "Community", properties: { guildToken: "guild-1", roleId: "role-1", kickMember: false } });
    const product = await shop.polar.products.create({ name: "App", prices: [{ amountType: "fixed", priceAmount: 2_900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [note.id, keys.id, discord.id] } });
    const { customerId } = await buy(product.id, "licensee@example.com");

    const grants = (await shop.polar.benefits.grants({ id: keys.id })).result.items;
    expect(grants).toHaveLength(1);
    const discordGrant = (await shop.polar.benefits.grants({ id: discord.id })).result.items[0];
    expect(discordGrant).toMatchObject({ isGranted: false, error: { type: "account_not_connected" } });
    expect(discordGrant?.error?.message).toContain("Discord");

    await expect
      .poll(async () => (await shop.polar.customers.getState({ id: customerId })).grantedBenefits.map((grant) => grant.benefitId).sort())
      .toEqual([note.id, keys.id].sort());
    const [key] = (await shop.polar.licenseKeys.list({ organizationId: shop.organizationId, benefitId: keys.id })).result.items;
    expect(key?.key).toMatch(/^TG-[0-9A-F-]{36}$/);
    expect(key).toMatchObject({ status: "granted", customerId, limitActivations: 2, limitUsage: 3, usage: 0 });
    expect(key?.displayKey).toBe(`****-${key?.key.slice(-6)}`);
    await expect.poll(() => eventTypesAbout(stack, grants[0]?.id ?? "")).toEqual(["benefit_grant.created"]);
  });

  it("let the customer's software validate, activate and deactivate a key without a token, within its limits", async () => {
    const keys = await shop.polar.benefits.create({ type: "license_keys", description: "Desktop licence", properties: { activations: { limit: 2, enableCustomerAdmin: true }, limitUsage: 2 } });
    const product = await shop.polar.products.create({ name: "Desktop", prices: [{ amountType: "fixed", priceAmount: 4_900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [keys.id] } });
    await buy(product.id, "desktop@example.com");
    const [issued] = (await shop.polar.licenseKeys.list({ organizationId: shop.organizationId, benefitId: keys.id })).result.items;
    const key = issued?.key ?? "";
    const organizationId = shop.organizationId;

    expect(await customerSide.customerPortal.licenseKeys.validate({ key, organizationId })).toMatchObject({ status: "granted", validations: 1 });
    const laptop = await customerSide.customerPortal.licenseKeys.activate({ key, organizationId, label: "Laptop", conditions: { major_version: 3 } });
    await customerSide.customerPortal.licenseKeys.activate({ key, organizationId, label: "Desktop" });
    await expect(customerSide.customerPortal.licenseKeys.activate({ key, organizationId, label: "Tablet" })).rejects.toMatchObject({ statusCode: 403 });
    expect((await customerSide.customerPortal.licenseKeys.validate({ key, organizationId, activationId: laptop.id, conditions: { major_version: 3 } })).activation?.label).toBe("Laptop");
    await expect(customerSide.customerPortal.licenseKeys.validate({ key, organizationId, activationId: laptop.id, conditions: { major_version: 4 } })).rejects.toMatchObject({ statusCode: 404 });

    await customerSide.customerPortal.licenseKeys.validate({ key, organizationId, incrementUsage: 2 });
    await expect(customerSide.customerPortal.licenseKeys.validate({ key, organizationId, incrementUsage: 1 })).rejects.toMatchObject({ statusCode: 403 });
    await customerSide.customerPortal.licenseKeys.deactivate({ key, organizationId, activationId: laptop.id });
    await customerSide.customerPortal.licenseKeys.activate({ key, organizationId, label: "Tablet" });
    await expect(customerSide.customerPortal.licenseKeys.validate({ key: "TG-NOT-A-KEY", organizationId })).rejects.toMatchObject({ statusCode: 404 });
    expect((await shop.polar.licenseKeys.get({ id: issued?.id ?? "" })).activations.map((activation) => activation.label).sort()).toEqual(["Desktop", "Tablet"]);
  });

  it("rotate a key through SDK 1.x, for the seller and in the customer's portal: the old string stops validating, activations and usage stay; a revoked key is not rotated", async () => {
    const keys = await shop.polar.benefits.create({ type: "license_keys", description: "Rotated licence", properties: { prefix: "rot", activations: { limit: 2, enableCustomerAdmin: true } } });
    const product = await shop.polar.products.create({ name: "Rotated", prices: [{ amountType: "fixed", priceAmount: 2_900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [keys.id] } });
    const { customerId } = await buy(product.id, "rotate@example.com");
    const seller = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const [issued] = (await seller.licenseKeys.list({ benefit_id: keys.id })).items;
    const organizationId = shop.organizationId;
    const original = issued?.key ?? "";
    await customerSide.customerPortal.licenseKeys.activate({ key: original, organizationId, label: "Workstation" });
    await customerSide.customerPortal.licenseKeys.validate({ key: original, organizationId, incrementUsage: 1 });

    const rotated = await seller.licenseKeys.rotate(issued?.id ?? "");
    expect(rotated).toMatchObject({ id: issued?.id, customer_id: customerId, status: "granted", usage: 1 });
    expect(rotated.key).toMatch(/^ROT-[0-9A-F-]{36}$/);
    expect(rotated.key).not.toBe(original);
    expect(rotated.display_key).toBe(`****-${rotated.key.slice(-6)}`);
    await expect(customerSide.customerPortal.licenseKeys.validate({ key: original, organizationId })).rejects.toMatchObject({ statusCode: 404 });
    expect(await customerSide.customerPortal.licenseKeys.validate({ key: rotated.key, organizationId })).toMatchObject({ status: "granted", usage: 1 });
    expect((await seller.licenseKeys.get(rotated.id)).activations.map((activation) => activation.label)).toEqual(["Workstation"]);
    // The grant that issued the key shows its new last characters.
    const grant = (await seller.benefitGrants.list({ customer_id: customerId })).items.find((candidate) => candidate.benefit_id === keys.id);
    expect(grant?.properties).toMatchObject({ license_key_id: rotated.id, display_key: rotated.display_key });

    // The customer rotates their own key in the portal, and no one else's.
    const portal = createPolar({ accessToken: (await shop.polar.customerSessions.create({ customerId })).token, baseUrl: stack.gateway.url });
    const again = await portal.customerPortal.licenseKeys.rotate(rotated.id);
    expect(again.key).not.toBe(rotated.key);
    const stranger = await buy(product.id, "stranger@example.com");
    const strangerPortal = createPolar({ accessToken: (await shop.polar.customerSessions.create({ customerId: stranger.customerId })).token, baseUrl: stack.gateway.url });
    await expect(strangerPortal.customerPortal.licenseKeys.rotate(rotated.id)).rejects.toMatchObject({ statusCode: 404 });

    await seller.licenseKeys.update(rotated.id, { status: "revoked" });
    await expect(seller.licenseKeys.rotate(rotated.id)).rejects.toMatchObject({ statusCode: 400, error: { error: "RotateNotPermitted" } });
  });

  it("revoke what an order granted when it is refunded with revoke_benefits, so its key stops validating", async () => {
    const keys = await shop.polar.benefits.create({ type: "license_keys", description: "Plugin licence", properties: {} });
    const product = await shop.polar.products.create({ name: "Plugin", prices: [{ amountType: "fixed", priceAmount: 1_500, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [keys.id] } });
    const { checkoutId } = await buy(product.id, "refunded@example.com");
    const [order] = (await shop.polar.orders.list({ checkoutId })).result.items;
    const [issued] = (await shop.polar.licenseKeys.list({ organizationId: shop.organizationId, benefitId: keys.id })).result.items;
    await shop.polar.refunds.create({ orderId: order?.id ?? "", reason: "customer_request", amount: 1_500, revokeBenefits: true });
    const [grant] = (await shop.polar.benefits.grants({ id: keys.id })).result.items;
    expect(grant).toMatchObject({ isRevoked: true, isGranted: false });
    expect((await shop.polar.licenseKeys.get({ id: issued?.id ?? "" })).status).toBe("revoked");
    await expect(customerSide.customerPortal.licenseKeys.validate({ key: issued?.key ?? "", organizationId: shop.organizationId })).rejects.toMatchObject({ statusCode: 403 });
  });

  it("follow a subscription: granted when it starts, cycled on renewal, revoked when it is revoked", async () => {
    const note = await shop.polar.benefits.create({ type: "custom", description: "Members' area", properties: { note: "Welcome" } });
    const plan = await shop.polar.products.create({ name: "Membership", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [note.id] } });
    const { customerId } = await buy(plan.id, "member@example.com");
    const [subscription] = (await shop.polar.subscriptions.list({ productId: plan.id })).result.items;
    const state = await shop.polar.customers.getState({ id: customerId });
    expect(state.activeSubscriptions.map((active) => active.id)).toEqual([subscription?.id]);
    expect(state.grantedBenefits.map((grant) => grant.benefitId)).toContain(note.id);

    const advanced = await fetch(`${stack.gateway.url}/v1/sandbox/clock/${shop.organizationId}/advance`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}` },
      body: JSON.stringify({ days: 32 }),
    });
    expect(advanced.status).toBe(200);
    const [grant] = (await shop.polar.benefits.grants({ id: note.id })).result.items;
    await expect.poll(() => eventTypesAbout(stack, grant?.id ?? "")).toEqual(["benefit_grant.created", "benefit_grant.cycled"]);
    // As Polar does, the subscription is told of before the grant it makes, so a seller's handler knows it.
    const started = (await publishedEvents(stack.billing.context.bus))
      .map((event) => `${event.type} ${(event.data as { payload?: { id?: string } }).payload?.id}`)
      .filter((told) => told === `billing.subscription.created ${subscription?.id}` || told === `billing.benefit_grant.created ${grant?.id}`);
    expect(started).toEqual([`billing.subscription.created ${subscription?.id}`, `billing.benefit_grant.created ${grant?.id}`]);

    await shop.polar.subscriptions.revoke({ id: subscription?.id ?? "" });
    const after = await shop.polar.customers.getState({ id: customerId });
    expect(after.activeSubscriptions).toEqual([]);
    expect(after.grantedBenefits.map((granted) => granted.benefitId)).not.toContain(note.id);
    await expect.poll(() => eventTypesAbout(stack, grant?.id ?? "")).toEqual(["benefit_grant.created", "benefit_grant.cycled", "benefit_grant.revoked"]);
  });
});
