import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL, type Browser } from "../../../test/stacks/auth.js";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

/** A new person, signed up and signed in. */
async function signedIn(name: string): Promise<Browser> {
  const browser = stack.browser();
  const signUp = await browser.client.signUp.email({ name, email: `${name.toLowerCase()}-${Date.now()}@example.com`, password: "correct horse battery staple" });
  if (!signUp.data) throw new Error(`sign-up failed: ${JSON.stringify(signUp.error)}`);
  return browser;
}

/**
 * A POST to Polar's API with the browser's session cookie, as the console sends it: SDK 1.x only
 * sends a bearer token, and a person signs in with a cookie.
 */
const postAsSignedIn = (browser: Browser, path: string, body: unknown) =>
  browser.fetch(`${stack.gateway.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: PUBLIC_URL }, body: JSON.stringify(body) });

describe("creating an organization through Polar's API", () => {
  it("makes the signed-in user its owner in the organization service, with the settings given, readable at once through the SDK", async () => {
    const founder = await signedIn("Founder");
    const slug = `atelier-${Date.now()}`;
    const created = await postAsSignedIn(founder, "/v1/organizations/", {
      name: "Atelier",
      slug: slug.toUpperCase(),
      email: "hello@atelier.example",
      website: "https://atelier.example",
      socials: [{ platform: "github", url: "https://github.com/atelier" }],
      default_presentment_currency: "EUR",
      subscription_settings: { allow_multiple_subscriptions: true, allow_customer_updates: true, proration_behavior: "invoice", benefit_revocation_grace_period: 3, prevent_trial_abuse: true },
      customer_email_settings: { order_confirmation: false },
      feature_settings: { issue_funding_enabled: true },
    });
    expect(created.status).toBe(201);
    const organization = (await created.json()) as { id: string; slug: string; modified_at: string | null };
    expect(organization).toMatchObject({ slug, modified_at: null });

    // The organization service owns it, with the founder as owner; their session's active organization is left alone.
    const listed = await founder.client.organization.list();
    expect(listed.data?.map((entry) => entry.slug)).toEqual([slug]);
    const full = await founder.client.organization.getFullOrganization({ query: { organizationId: organization.id } });
    expect(full.data?.members.map((member) => member.role)).toEqual(["owner"]);
    expect((await founder.client.getSession()).data?.session.activeOrganizationId ?? null).toBeNull();

    // Billing answers for it at once: the owner makes a token without waiting on the organization service's events.
    const tokenAnswer = await postAsSignedIn(founder, "/v1/organization-access-tokens/", { organization_id: organization.id, comment: "ci", scopes: ["organizations:read"] });
    expect(tokenAnswer.status).toBe(201);
    const polar = createPolar({ accessToken: ((await tokenAnswer.json()) as { token: string }).token, baseUrl: stack.gateway.url });
    expect(await polar.organizations.get(organization.id)).toMatchObject({
      id: organization.id,
      name: "Atelier",
      slug,
      email: "hello@atelier.example",
      website: "https://atelier.example",
      socials: [{ platform: "github", url: "https://github.com/atelier" }],
      default_presentment_currency: "eur",
      proration_behavior: "invoice",
      subscription_settings: { allow_multiple_subscriptions: true, benefit_revocation_grace_period: 3, prevent_trial_abuse: true },
      customer_email_settings: { order_confirmation: false, subscription_cycled: true },
      feature_settings: { issue_funding_enabled: true, usage_based_billing_enabled: true },
    });
  });

  it("refuses a slug another organization holds, in Polar's validation shape", async () => {
    const latecomer = await signedIn("Latecomer");
    const shopSlug = (await shop.polar.organizations.get({ id: shop.organizationId })).slug;
    const taken = await postAsSignedIn(latecomer, "/v1/organizations/", { name: "Copycat", slug: shopSlug });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toEqual({ detail: [expect.objectContaining({ loc: ["body", "slug"], msg: "An organization with this slug already exists.", type: "value_error" })] });
    const unslugged = await postAsSignedIn(latecomer, "/v1/organizations/", { name: "Spaces", slug: "two words" });
    expect(unslugged.status).toBe(422);
    expect((await latecomer.client.organization.list()).data).toEqual([]);
  });

  it("is refused to an organization access token, as Polar refuses a credential of the wrong kind", async () => {
    const polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    await expect(polar.organizations.create({ name: "Spin-off", slug: `spin-off-${Date.now()}` })).rejects.toMatchObject({ statusCode: 401 });
    const anonymous = await fetch(`${stack.gateway.url}/v1/organizations/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Nobody", slug: `nobody-${Date.now()}` }) });
    expect(anonymous.status).toBe(401);
  });
});
