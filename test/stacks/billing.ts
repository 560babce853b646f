import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Polar } from "@polar-sh/sdk";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import { startTestService } from "@tollgate/kit/testing";
import { organizationService } from "../../services/organization/src/service.js";
import { PUBLIC_URL, startAuthStack, type AuthStack, type Browser, type Upstreams } from "./auth.js";
import type { BillingEnv } from "../../services/billing/src/config.js";
import type { OrganizationEnv } from "../../services/organization/src/config.js";
import { billingService, type BillingApp } from "../../services/billing/src/service.js";

const password = "correct horse battery staple";

export interface BillingStack extends AuthStack {
  billing: RunningService<ServiceConfig<BillingEnv>, BillingApp>;
  organization: RunningService<ServiceConfig<OrganizationEnv>>;
  /** A new seller: an owner signed up with an organization, and an access token for it. */
  seller(options?: { scopes?: string[]; slug?: string }): Promise<Seller>;
  /** The SDK, unchanged, pointed at the gateway. */
  sdk(accessToken: string): Polar;
}

export interface Seller {
  owner: Browser & { id: string; email: string };
  organizationId: string;
  token: string;
  polar: Polar;
}

/** Every scope a seller's test token gets unless a test asks for fewer. */
export const ALL_SCOPES = [
  "organizations:read",
  "organizations:write",
  "organization_access_tokens:read",
  "organization_access_tokens:write",
  "products:read",
  "products:write",
  "custom_fields:read",
  "custom_fields:write",
  "discounts:read",
  "discounts:write",
  "benefits:read",
  "benefits:write",
  "customers:read",
  "customers:write",
  "members:read",
  "members:write",
  "files:read",
  "files:write",
  "webhooks:read",
  "webhooks:write",
  "checkouts:read",
  "checkouts:write",
  "orders:read",
  "orders:write",
  "subscriptions:read",
  "subscriptions:write",
  "refunds:read",
  "refunds:write",
  "payments:read",
  "disputes:read",
  "disputes:write",
  "license_keys:read",
  "license_keys:write",
  "customer_sessions:write",
  "checkout_links:read",
  "checkout_links:write",
  "metrics:read",
  "metrics:write",
  "meters:read",
  "meters:write",
  "events:read",
  "events:write",
  "customer_meters:read",
];

let sellers = 0;

/**
 * Auth, organization and billing behind a real gateway, with better-auth's client for the people and
 * Polar's SDK for the API. `more` adds further services (the webhook dispatcher); `authEnv` configures
 * the auth service; `each` adds settings to each of the four processes by its name (its own NATS user).
 */
export async function startBillingStack(
  env: Record<string, string> = {},
  more: Omit<Upstreams, "organization" | "billing"> = {},
  authEnv: Record<string, string> = {},
  each: (process: "auth" | "organization" | "billing" | "gateway") => Record<string, string> = () => ({}),
): Promise<BillingStack> {
  let billing: RunningService<ServiceConfig<BillingEnv>, BillingApp> | undefined;
  let organization: RunningService<ServiceConfig<OrganizationEnv>> | undefined;
  const stack = await startAuthStack({ ...authEnv, ...each("auth") }, each("gateway"), {
    ...more,
    organization: async (environment) => (organization = await startTestService(organizationService, environment, each("organization"))),
    billing: async (environment) =>
      (billing = await startTestService(billingService, environment, { PUBLIC_URL, FILES_DIR: mkdtempSync(path.join(tmpdir(), "tollgate-files-")), FILE_URL_SECRET: randomBytes(32).toString("base64url"), ...env, ...each("billing") })),
  });
  if (!billing || !organization) throw new Error("billing or organization did not start");
  const sdk = (accessToken: string) => new Polar({ accessToken, serverURL: stack.gateway.url });
  return {
    ...stack,
    billing,
    organization,
    sdk,
    async seller({ scopes = ALL_SCOPES, slug } = {}) {
      sellers += 1;
      const email = `seller${sellers}-${Date.now()}@example.com`;
      const browser = stack.browser();
      const signUp = await browser.client.signUp.email({ name: `Seller ${sellers}`, email, password });
      if (!signUp.data) throw new Error(`sign-up failed: ${JSON.stringify(signUp.error)}`);
      const created = await browser.client.organization.create({ name: `Shop ${sellers}`, slug: slug ?? `shop-${sellers}-${Date.now()}` });
      if (!created.data) throw new Error(`organization failed: ${JSON.stringify(created.error)}`);
      const organizationId = created.data.id;
      // Billing learns of the organization and its owner from the organization service's events.
      const headers = { "content-type": "application/json", origin: PUBLIC_URL };
      let token: string | null = null;
      for (let attempt = 0; attempt < 50 && !token; attempt++) {
        const response = await browser.fetch(`${stack.gateway.url}/v1/organization-access-tokens/`, {
          method: "POST",
          headers,
          body: JSON.stringify({ organization_id: organizationId, comment: "tests", scopes }),
        });
        if (response.status === 201) token = ((await response.json()) as { token: string }).token;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!token) throw new Error("billing never learned of the new organization");
      return { owner: { ...browser, id: signUp.data.user.id, email }, organizationId, token, polar: sdk(token) };
    },
  };
}

/** A meter of the seller's that counts every event, for prices and benefits that need one. */
export const countingMeter = (seller: Seller, name: string) => seller.polar.meters.create({ name, filter: { conjunction: "and", clauses: [] }, aggregation: { func: "count" } });
