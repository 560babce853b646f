import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pool } from "pg";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import { Polar } from "@polar-sh/sdk";
import { checkout, polar, portal, webhooks } from "@polar-sh/better-auth";
import type { WebhookOrderPaidPayload } from "@polar-sh/sdk/models/components/webhookorderpaidpayload.js";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";
import { cardToken, useShop } from "../../../test/stacks/purchases.js";
import type { Seller } from "../../../test/stacks/billing.js";

let stack: DispatcherStack;
let shop: Seller;

// With the webhook dispatcher, which delivers to the plugin's webhooks endpoint.
useShop((opened) => ({ stack, shop } = opened), () => startDispatcherStack());

/** A seller's own small app: better-auth with Polar's plugin, unchanged, pointed at Tollgate with the seller's token. */
let app: { url: string; server: Server; pool: Pool };
let productId: string;
/** What the plugin's onOrderPaid was called with, already verified and parsed by Polar's SDK. */
const paidOrders: WebhookOrderPaidPayload[] = [];

beforeAll(async () => {
  const product = await shop.polar.products.create({ name: "Pro", prices: [{ amountType: "fixed", priceAmount: 2_500, priceCurrency: "usd" }] });
  productId = product.id;
  const schema = `seller_app_${randomBytes(4).toString("hex")}`;
  const setup = new Pool({ connectionString: stack.environment.databaseUrl });
  await setup.query(`create schema ${schema}`);
  await setup.end();
  const pool = new Pool({ connectionString: stack.environment.databaseUrl, options: `-c search_path=${schema}` });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint = await shop.polar.webhooks.createWebhookEndpoint({ url: `${url}/api/auth/polar/webhooks`, format: "raw", events: ["order.paid"] });
  const auth = betterAuth({
    baseURL: url,
    secret: randomBytes(32).toString("hex"),
    database: pool,
    emailAndPassword: { enabled: true },
    plugins: [
      polar({
        client: new Polar({ accessToken: shop.token, serverURL: stack.gateway.url }),
        createCustomerOnSignUp: true,
        use: [
          checkout({ products: [{ productId, slug: "pro" }], successUrl: "/welcome?checkout_id={CHECKOUT_ID}" }),
          portal(),
          webhooks({
            secret: endpoint.secret,
            onOrderPaid: (payload) => {
              paidOrders.push(payload);
              return Promise.resolve();
            },
          }),
        ],
      }),
    ],
  });
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  server.on("request", toNodeHandler(auth));
  app = { url, server, pool };
});

afterAll(async () => {
  await new Promise((resolve) => app?.server.close(resolve));
  await app?.pool.end();
});

/** A request to the seller's app as its browser makes it, with the session cookie once signed in. */
async function appCall(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
  const response = await fetch(`${app.url}/api/auth${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", origin: app.url, ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") };
}

describe("@polar-sh/better-auth 1.8, unchanged, against Tollgate", () => {
  it("makes the customer on sign-up, opens a Tollgate checkout, hears of the order by webhook, and opens the customer portal", async () => {
    const signUp = await appCall("/sign-up/email", { body: { email: "app-user@example.com", password: "correct horse battery staple", name: "App User" } });
    expect(signUp.status).toBe(200);
    const userId = (signUp.json.user as { id: string }).id;
    const customer = await shop.polar.customers.getExternal({ externalId: userId });
    expect(customer).toMatchObject({ email: "app-user@example.com", name: "App User", externalId: userId });

    const started = await appCall("/checkout", { body: { slug: "pro", redirect: false }, cookie: signUp.cookie });
    expect(started.status).toBe(200);
    const checkoutUrl = String(started.json.url);
    expect(checkoutUrl.startsWith(`${PUBLIC_URL}/checkout/polar_c_`)).toBe(true);
    const opened = await new Polar({ serverURL: stack.gateway.url }).checkouts.clientGet({ clientSecret: checkoutUrl.slice(`${PUBLIC_URL}/checkout/`.length) });
    expect(opened).toMatchObject({ productId, amount: 2_500, status: "open" });
    const [seen] = (await shop.polar.checkouts.list({ productId })).result.items;
    expect(seen?.externalCustomerId).toBe(userId);
    expect(seen?.successUrl).toBe(`${app.url}/welcome?checkout_id=${seen?.id}`);

    // The buyer pays on the page; Tollgate's webhook reaches the plugin, which verifies and parses it with Polar's SDK.
    await new Polar({ serverURL: stack.gateway.url }).checkouts.clientConfirm({
      clientSecret: checkoutUrl.slice(`${PUBLIC_URL}/checkout/`.length),
      checkoutConfirmStripe: { customerBillingAddress: { country: "US", state: "CA", postalCode: "94107" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
    });
    await expect.poll(() => paidOrders.length, { timeout: 15_000 }).toBe(1);
    expect(paidOrders[0]?.data).toMatchObject({ checkoutId: seen?.id, status: "paid", totalAmount: 2_500, customer: { externalId: userId } });

    const portalOpened = await appCall("/customer/portal", { method: "GET", cookie: signUp.cookie });
    expect(portalOpened.status).toBe(200);
    const portalUrl = new URL(String(portalOpened.json.url));
    const token = portalUrl.searchParams.get("customer_session_token") ?? "";
    expect(token).toMatch(/^polar_cst_/);
    expect(await new Polar({ serverURL: stack.gateway.url }).customerPortal.customers.get({ customerSession: token })).toMatchObject({ id: customer.id });
  });
});
