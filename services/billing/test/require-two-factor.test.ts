import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import type { Seller } from "../../../test/stacks/billing.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";
import { password } from "../../../test/stacks/people.js";
import { turnOnTwoFactor } from "../../../test/stacks/two-factor.js";

let stack: DispatcherStack;

beforeAll(async () => {
  stack = await startDispatcherStack();
});

afterAll(async () => {
  await stack?.stop();
});

const REFUSED = { error: "NotPermitted", detail: "This organization requires two-factor authentication. Enable it in your account's security settings." };

/** A seller API call through the gateway as the signed-in owner (their session cookie), as the console makes it. */
async function asOwner(seller: Seller, path: string) {
  const response = await seller.owner.fetch(`${stack.gateway.url}${path}`, { headers: { origin: PUBLIC_URL } });
  return { status: response.status, body: await response.json() };
}

describe("an organization that requires two-factor authentication, on the seller APIs", () => {
  it("refuses its members' sessions without two-factor, while its access tokens and other organizations' members go on", async () => {
    const strict = await stack.seller();
    const relaxed = await stack.seller();
    const owner = strict.owner.client;
    await turnOnTwoFactor(strict.owner, password);
    expect((await owner.organization.update({ organizationId: strict.organizationId, data: { requireTwoFactor: true } })).data).toMatchObject({ requireTwoFactor: true });
    expect((await asOwner(strict, `/v1/organizations/${strict.organizationId}`)).status).toBe(200);

    // The owner turns their own two-factor off: their session no longer meets the rule.
    expect((await owner.twoFactor.disable({ password })).error).toBeNull();

    // Billing and the webhook dispatcher hear of it from the organization's events.
    await expect.poll(async () => (await asOwner(strict, `/v1/organizations/${strict.organizationId}`)).body, { timeout: 10_000 }).toEqual(REFUSED);
    await expect.poll(async () => (await asOwner(strict, `/v1/webhooks/endpoints?organization_id=${strict.organizationId}`)).body, { timeout: 10_000 }).toEqual(REFUSED);
    for (const path of [`/v1/products/?organization_id=${strict.organizationId}`, "/v1/products/", `/v1/organizations/${strict.organizationId}`]) {
      expect(await asOwner(strict, path), path).toEqual({ status: 403, body: REFUSED });
    }

    // An access token is not a person signing in.
    expect((await strict.polar.organizations.get({ id: strict.organizationId })).id).toBe(strict.organizationId);
    expect((await strict.polar.webhooks.listWebhookEndpoints({})).result.items).toEqual([]);
    // A member of an organization that asks nothing of them is not bound by another's rule.
    expect(await asOwner(relaxed, `/v1/organizations/${relaxed.organizationId}`)).toMatchObject({ status: 200, body: { id: relaxed.organizationId } });

    // Two-factor on again (a new authenticator): the same session gets in at once.
    await turnOnTwoFactor(strict.owner, password);
    expect(await asOwner(strict, `/v1/organizations/${strict.organizationId}`)).toMatchObject({ status: 200, body: { id: strict.organizationId } });
    expect((await owner.organization.update({ organizationId: strict.organizationId, data: { requireTwoFactor: false } })).data).toMatchObject({ requireTwoFactor: false });
    expect((await owner.twoFactor.disable({ password })).error).toBeNull();
    await expect.poll(async () => (await asOwner(strict, `/v1/organizations/${strict.organizationId}`)).status, { timeout: 10_000 }).toBe(200);
  });
});
