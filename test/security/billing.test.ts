import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { useShop } from "../stacks/purchases.js";
import type { BillingStack, Seller } from "../stacks/billing.js";
import { followDownload, uploadedFile } from "../stacks/uploads.js";
import { rawRequest, refusedPlaces, type RawAnswer, type RawRequest } from "./attacker.js";

/**
 * Attacks on billing's own surface — user files on the site's origin, access tokens minting
 * themselves more rights, numbers Postgres cannot hold, redirects that are not web addresses — run
 * through the gateway as a seller, a buyer or nobody would send them.
 */

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

const send = (path: string, init?: RawRequest) => rawRequest(stack.gateway.url, path, init);
const asSeller = (token = shop.token) => ({ authorization: `Bearer ${token}` });

/** Uploads `bytes` as a seller's file of the given kind and type, completed. */
const upload = (service: "downloadable" | "product_media", name: string, mimeType: string, bytes: Buffer) => uploadedFile(stack, shop, service, name, mimeType, bytes);

/** The headers that keep a response from running as the site, whatever its bytes are. */
function expectInert(answer: RawAnswer) {
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  expect(answer.headers.get("content-security-policy")).toMatch(/sandbox/);
  expect(answer.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
}

describe("#2 a seller's files never run as the site", () => {
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script href="/v1/files/downloads/x"/></svg>`);

  it("refuses SVG and every other type a browser would run as product media or an avatar", async () => {
    for (const service of ["product_media", "organization_avatar"]) {
      for (const mimeType of ["image/svg+xml", "text/html", "application/xhtml+xml", "text/xml", "image/x-icon+xml"]) {
        const answer = await send("/v1/files/", {
          headers: asSeller(),
          body: { service, name: "cover", mime_type: mimeType, size: svg.length, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: svg.length - 1 }] } },
        });
        expect(answer.status, `${service} ${mimeType}: ${answer.text}`).toBe(422);
        expect(refusedPlaces(answer)).toEqual([["body", "mime_type"]]);
      }
    }
  });

  it("serves product media as inert images, and anything else it holds only as a download", async () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(64)]);
    const cover = await upload("product_media", "cover.png", "image/png", png);
    const shown = await send(`/v1/files/public/${cover.id}`);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe("image/png");
    expect(shown.headers.get("content-disposition")).toBeNull();
    expectInert(shown);

    // A file stored before SVG was refused is no longer shown as a page of the site.
    const legacy = await upload("product_media", "old.png", "image/png", svg);
    await stack.billing.context.db("files").where({ id: legacy.id }).update({ mime_type: "image/svg+xml" });
    const served = await send(`/v1/files/public/${legacy.id}`);
    expect(served.status).toBe(200);
    expect(served.type).toBe("application/octet-stream");
    expect(served.headers.get("content-disposition")).toMatch(/^attachment/);
    expectInert(served);
  });

  it("hands out a downloadable script as an attachment no page can load as a script", async () => {
    const script = await upload("downloadable", "payload.js", "text/javascript", Buffer.from("fetch('/api/auth/update-user',{method:'POST'})"));
    const page = await upload("downloadable", "page.html", "text/html", Buffer.from("<script>alert(document.cookie)</script>"));
    const downloads = await shop.polar.benefits.create({ type: "downloadables", description: "Files", properties: { files: [script.id, page.id] } });
    const product = await shop.polar.products.create({ name: "Free files", prices: [{ amountType: "free" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [downloads.id] } });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "files.buyer@example.com" } });
    await expect.poll(async () => (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status, { timeout: 10_000 }).toBe("succeeded");
    const customerId = (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).customerId ?? "";
    const security = { customerSession: (await shop.polar.customerSessions.create({ customerId })).token };
    await expect.poll(async () => (await customerSide.customerPortal.downloadables.list(security, {})).result.items.length, { timeout: 10_000 }).toBe(2);

    for (const downloadable of (await customerSide.customerPortal.downloadables.list(security, {})).result.items) {
      // The portal's link counts the download and sends the customer on to the store's own signed address.
      const { file } = await followDownload(stack, downloadable.file.download.url);
      const answer = { status: file.status, type: file.headers.get("content-type") ?? "", text: await file.text(), headers: file.headers };
      expect(answer.status).toBe(200);
      expect(answer.type).toBe("application/octet-stream");
      expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename=/);
      expectInert(answer);
    }
  });
});

describe("what a buyer and a customer see of the seller's side", () => {
  it("never a benefit's settings, the seller's metadata or their bookkeeping", async () => {
    const secrets = { guildToken: "discord-bot-token-of-the-seller", productNote: "cost centre 7", orderNote: "affiliate 42" };
    const community = await shop.polar.benefits.create({ type: "discord", description: "Community", properties: { guildToken: secrets.guildToken, roleId: "role-1", kickMember: false } });
    const product = await shop.polar.products.create({ name: "Members' pass", metadata: { note: secrets.productNote }, prices: [{ amountType: "free" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [community.id] } });
    const checkout = await shop.polar.checkouts.create({ products: [product.id], metadata: { note: secrets.orderNote } });

    const page = await send(`/v1/checkouts/client/${checkout.clientSecret}`);
    expect(page.status).toBe(200);
    expect(JSON.parse(page.text)).toMatchObject({ products: [{ benefits: [{ id: community.id, type: "discord", description: "Community" }] }] });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "seen.buyer@example.com" } });
    await expect.poll(async () => (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status, { timeout: 10_000 }).toBe("succeeded");
    const customerId = (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).customerId ?? "";
    const portal = { authorization: `Bearer ${(await shop.polar.customerSessions.create({ customerId })).token}` };
    const seen = [page, await send(`/v1/customer-portal/orders/`, { headers: portal }), await send(`/v1/customer-portal/organizations/${(await shop.polar.organizations.get({ id: shop.organizationId })).slug}`)];
    expect(JSON.parse(seen[1]?.text ?? "{}")).toMatchObject({ items: [{ product: { id: product.id } }] });
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      for (const secret of Object.values(secrets)) expect(answer.text).not.toContain(secret);
    }
    // The seller still sees all of it.
    expect(JSON.stringify(await shop.polar.checkouts.get({ id: checkout.id }))).toContain(secrets.orderNote);
  });
});

describe("#4 an access token grants no more than its holder has", () => {
  it("a token that may only manage tokens cannot mint or widen one past its own scopes", async () => {
    const narrow = await stack.seller({ scopes: ["organization_access_tokens:write"] });
    const mint = (scopes: string[]) => send("/v1/organization-access-tokens/", { headers: asSeller(narrow.token), body: { comment: "minted", scopes } });

    for (const scopes of [["products:write"], ["organization_access_tokens:write", "webhooks:read"]]) {
      const refused = await mint(scopes);
      expect(refused.status, refused.text).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error: "NotPermitted" });
    }
    // Within its own scopes (a write scope also reads) it may.
    const within = await mint(["organization_access_tokens:read"]);
    expect(within.status, within.text).toBe(201);
    const minted = JSON.parse(within.text) as { organization_access_token: { id: string } };

    const widened = await send(`/v1/organization-access-tokens/${minted.organization_access_token.id}`, { method: "PATCH", headers: asSeller(narrow.token), body: { scopes: ["orders:read"] } });
    expect(widened.status, widened.text).toBe(403);
    const [listed] = (await narrow.polar.organizationAccessTokens.list({})).result.items.filter((token) => token.id === minted.organization_access_token.id);
    expect(listed?.scopes).toEqual(["organization_access_tokens:read"]);

    // The owner, signed in, grants what they like.
    const byOwner = await send("/v1/organization-access-tokens/", { browser: narrow.owner.fetch, body: { organization_id: narrow.organizationId, comment: "owner's", scopes: ["products:write", "webhooks:write"] } });
    expect(byOwner.status, byOwner.text).toBe(201);
  });
});

describe("#8 numbers past what a column holds are refused, never answered 500", () => {
  const huge = 3_000_000_000;

  it("in amounts, limits, counts and lifetimes, as Polar's 422 naming the place", async () => {
    const donation = await shop.polar.products.create({ name: "Donation", prices: [{ amountType: "custom", priceCurrency: "usd", minimumAmount: 500 }] });
    const checkout = await shop.polar.checkouts.create({ products: [donation.id] });
    const attempts: [Promise<RawAnswer>, (string | number)[]][] = [
      [send(`/v1/checkouts/client/${checkout.clientSecret}`, { method: "PATCH", body: { amount: huge } }), ["body", "amount"]],
      [send("/v1/checkouts/", { headers: asSeller(), body: { products: [donation.id], amount: huge } }), ["body", "amount"]],
      [send("/v1/products/", { headers: asSeller(), body: { name: "Dear", prices: [{ amount_type: "fixed", price_amount: huge, price_currency: "usd" }] } }), ["body", "prices", 0, "price_amount"]],
      [send("/v1/organization-access-tokens/", { headers: asSeller(), body: { comment: "forever", scopes: ["products:read"], expires_in: "99999999999999999999" } }), ["body", "expires_in"]],
      [send("/v1/discounts/", { headers: asSeller(), body: { type: "fixed", amount: huge, currency: "usd", duration: "once", name: "Huge" } }), ["body", "amount"]],
      [send("/v1/discounts/", { headers: asSeller(), body: { type: "percentage", basis_points: 100, duration: "once", name: "Many", max_redemptions: huge } }), ["body", "max_redemptions"]],
      [send("/v1/benefits/", { headers: asSeller(), body: { type: "license_keys", description: "Keys", properties: { limit_usage: huge } } }), ["body", "properties", "limit_usage"]],
      [send("/v1/benefits/", { headers: asSeller(), body: { type: "license_keys", description: "Keys", properties: { expires: { ttl: huge, timeframe: "year" } } } }), ["body", "properties", "expires", "ttl"]],
      [send("/v1/customer-portal/license-keys/validate", { body: { key: "TG-NONE", organization_id: shop.organizationId, increment_usage: huge } }), ["body", "increment_usage"]],
      [send("/v1/refunds/", { headers: asSeller(), body: { order_id: "ord_none", reason: "other", amount: huge } }), ["body", "amount"]],
      [send("/v1/products/?page=99999999999999999999", { headers: asSeller() }), ["query", "page"]],
    ];
    for (const [pending, place] of attempts) {
      const answer = await pending;
      expect(answer.status, answer.text).toBe(422);
      expect(refusedPlaces(answer), answer.text).toContainEqual(place);
    }
    expect((await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).amount).toBeLessThan(huge);
  });

  it("pages are at most 100 long, as Polar bounds them", async () => {
    const answer = await send("/v1/products/?limit=1000", { headers: asSeller() });
    expect(answer.status).toBe(200);
    const [first] = (await shop.polar.products.list({ limit: 1000 })).result.items.slice(0, 1);
    expect(first).toBeDefined();
    await Promise.all(Array.from({ length: 101 - (await shop.polar.products.list({})).result.pagination.totalCount }, (_, index) => shop.polar.products.create({ name: `Filler ${index}`, prices: [{ amountType: "free" }] })));
    const page = JSON.parse((await send("/v1/products/?limit=1000", { headers: asSeller() })).text) as { items: unknown[]; pagination: { total_count: number; max_page: number } };
    expect(page.items).toHaveLength(100);
    expect(page.pagination).toEqual({ total_count: 101, max_page: 2 });
  });
});

describe("#14 redirects go only to web addresses", () => {
  it("refuses javascript:, data: and other schemes wherever a buyer is sent on", async () => {
    const product = await shop.polar.products.create({ name: "Redirected", prices: [{ amountType: "free" }] });
    const customer = await shop.polar.customers.create({ email: "redirected@example.com" });
    for (const url of ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd"]) {
      const attempts: [Promise<RawAnswer>, (string | number)[]][] = [
        [send("/v1/checkouts/", { headers: asSeller(), body: { products: [product.id], success_url: url } }), ["body", "success_url"]],
        [send("/v1/checkouts/", { headers: asSeller(), body: { products: [product.id], return_url: url } }), ["body", "return_url"]],
        [send("/v1/checkout-links/", { headers: asSeller(), body: { payment_processor: "stripe", products: [product.id], success_url: url } }), ["body", "success_url"]],
        [send("/v1/customer-sessions/", { headers: asSeller(), body: { customer_id: customer.id, return_url: url } }), ["body", "return_url"]],
      ];
      for (const [pending, place] of attempts) {
        const answer = await pending;
        expect(answer.status, `${url}: ${answer.text}`).toBe(422);
        expect(refusedPlaces(answer)).toContainEqual(place);
      }
    }
    const fine = await shop.polar.checkouts.create({ products: [product.id], successUrl: "https://shop.example/thanks?checkout_id={CHECKOUT_ID}" });
    expect(fine.successUrl).toContain("https://shop.example/thanks");
  });
});

describe("answers to a seller's questions are only what the seller asked (issue 28, #5)", () => {
  it("are refused out of length, out of range, outside the options or unasked, as Polar's 422 at the slug, and never stored or kept on the order", async () => {
    const fields = await Promise.all([
      shop.polar.customFields.create({ type: "text", slug: "company", name: "Company", properties: { maxLength: 20 } }),
      shop.polar.customFields.create({ type: "number", slug: "seats", name: "Seats", properties: { ge: 1, le: 10 } }),
      shop.polar.customFields.create({ type: "select", slug: "size", name: "Size", properties: { options: [{ value: "s", label: "Small" }, { value: "l", label: "Large" }] } }),
      shop.polar.customFields.create({ type: "checkbox", slug: "terms", name: "Terms", properties: {} }),
    ]);
    const product = await shop.polar.products.create({
      name: "Questioned",
      prices: [{ amountType: "free" }],
      attachedCustomFields: fields.map((field) => ({ customFieldId: field.id, required: field.slug === "terms" })),
    });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    const valid = { company: "Acme", seats: 3, size: "l" };
    await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customFieldData: valid } });
    const stored = () => stack.billing.context.db("checkouts").where({ id: checkout.id }).first<Record<string, unknown>>();
    const before = await stored();
    expect(before?.custom_field_data).toEqual(valid);

    const bad: [Record<string, string | number>, string, string][] = [
      [{ company: "x".repeat(5_000) }, "company", "string_too_long"],
      [{ size: "xxl" }, "size", "literal_error"],
      [{ seats: 1_000_000 }, "seats", "less_than_equal"],
      [{ is_admin: "yes" }, "is_admin", "extra_forbidden"],
    ];
    for (const [customFieldData, slug, type] of bad) {
      // Given with a valid answer, so that nothing of a refused change is taken.
      const given = { ...customFieldData, seats: customFieldData.seats ?? 4 };
      await expect(customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customFieldData: given } })).rejects.toMatchObject({
        statusCode: 422,
        detail: [{ loc: ["body", "custom_field_data", slug], type }],
      });
      await expect(shop.polar.checkouts.update({ id: checkout.id, checkoutUpdate: { customFieldData: given } })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "custom_field_data", slug] }] });
      await expect(shop.polar.checkouts.create({ products: [product.id], customFieldData: given })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "custom_field_data", slug] }] });
      await expect(
        customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "asked.buyer@example.com", customFieldData: { ...given, terms: true } } }),
      ).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "custom_field_data", slug] }] });
      expect(await stored()).toEqual(before);
    }
    expect((await shop.polar.checkouts.list({ productId: [product.id] })).result.items.map((listed) => listed.id)).toEqual([checkout.id]);

    // The required box must be ticked to pay; then the order carries exactly the valid answers.
    await expect(customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "asked.buyer@example.com" } })).rejects.toMatchObject({
      statusCode: 422,
      detail: [{ loc: ["body", "custom_field_data", "terms"], type: "missing" }],
    });
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "asked.buyer@example.com", customFieldData: { terms: true } } });
    await expect.poll(async () => (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status, { timeout: 10_000 }).toBe("succeeded");
    const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(order?.customFieldData).toEqual({ ...valid, terms: true });
  });
});
