import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { announced, paidOrderOf, useShop, type Shop } from "../../../test/stacks/purchases.js";
import { countingMeter, type BillingStack, type Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let opened: Shop;

useShop((shopOpened) => ({ stack, shop } = opened = shopOpened));

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

describe("products and prices", () => {
  it("sells once or every month, with fixed, free, custom and metered prices", async () => {
    const apiCalls = await countingMeter(shop, "API calls");
    const ebook = await shop.polar.products.create({
      name: "The Ebook",
      description: "A good read",
      prices: [{ amountType: "fixed", priceAmount: 1900, priceCurrency: "usd" }],
      metadata: { sku: "EB-1", featured: true, pages: 240 },
    });
    expect(ebook).toMatchObject({
      name: "The Ebook",
      isRecurring: false,
      recurringInterval: null,
      isArchived: false,
      visibility: "public",
      metadata: { sku: "EB-1", featured: true, pages: 240 },
      prices: [{ amountType: "fixed", priceAmount: 1900, priceCurrency: "usd", isArchived: false, productId: ebook.id }],
      benefits: [],
      medias: [],
      attachedCustomFields: [],
    });
    const plan = await shop.polar.products.create({
      name: "Pro Plan",
      recurringInterval: "month",
      recurringIntervalCount: 1,
      prices: [
        { amountType: "custom", minimumAmount: 500, maximumAmount: 10_000, presetAmount: 1000 },
        { amountType: "metered_unit", meterId: apiCalls.id, unitAmount: "0.25", capAmount: 5000 },
      ],
    });
    expect(plan).toMatchObject({ isRecurring: true, recurringInterval: "month", recurringIntervalCount: 1 });
    expect(plan.prices).toHaveLength(2);
    expect(plan.prices[0]).toMatchObject({ amountType: "custom", minimumAmount: 500, maximumAmount: 10_000, presetAmount: 1000 });
    expect(plan.prices[1]).toMatchObject({ amountType: "metered_unit", unitAmount: "0.25", capAmount: 5000, meterId: apiCalls.id, meter: { id: apiCalls.id, name: apiCalls.name, unit: "scalar" } });
    const free = await shop.polar.products.create({ name: "Free tier", recurringInterval: "year", prices: [{ amountType: "free" }] });
    expect(free.prices[0]).toMatchObject({ amountType: "free" });

    await expect.poll(() => announced(stack, "product.created", ebook.id)).toHaveLength(1);
    const payload = (await announced(stack, "product.created", ebook.id))[0];
    expect(payload).toMatchObject({ id: ebook.id, organization_id: shop.organizationId, prices: [{ price_amount: 1900 }] });

    const recurring = await shop.polar.products.list({ isRecurring: true });
    expect(recurring.result.items.map((product) => product.id).sort()).toEqual([plan.id, free.id].sort());
    const byMetadata = await call("/v1/products/?metadata[sku]=EB-1");
    expect(((await byMetadata.json()) as { items: { id: string }[] }).items.map((product) => product.id)).toEqual([ebook.id]);
    const cheapestFirst = await shop.polar.products.list({ sorting: ["price_amount"], isRecurring: false });
    expect(cheapestFirst.result.items[0]?.id).toBe(ebook.id);
  });

  it("keeps old prices archived when they change, archives products, and refuses one-time to recurring", async () => {
    const course = await shop.polar.products.create({ name: "Course", prices: [{ amountType: "fixed", priceAmount: 5000 }] });
    const [original] = course.prices;
    const repriced = await shop.polar.products.update({ id: course.id, productUpdate: { prices: [{ amountType: "fixed", priceAmount: 4500 }] } });
    expect(repriced.prices.map((price) => [price.isArchived, "priceAmount" in price ? price.priceAmount : null])).toEqual([
      [false, 4500],
      [true, 5000],
    ]);
    const kept = await shop.polar.products.update({ id: course.id, productUpdate: { name: "Course 2", prices: [{ id: repriced.prices[0]?.id ?? "" }] } });
    expect(kept.prices.filter((price) => !price.isArchived)).toHaveLength(1);
    expect(kept.name).toBe("Course 2");
    const archived = await shop.polar.products.update({ id: course.id, productUpdate: { isArchived: true } });
    expect(archived.isArchived).toBe(true);
    expect((await shop.polar.products.list({ isArchived: false })).result.items.map((product) => product.id)).not.toContain(course.id);
    expect(original?.id).toBeDefined();

    const switched = await call(`/v1/products/${course.id}`, { method: "PATCH", body: JSON.stringify({ recurring_interval: "month" }) });
    expect(await switched.json()).toMatchObject({ detail: [{ loc: ["body", "recurring_interval"] }] });
  });

  it("attaches benefits and custom fields in order", async () => {
    const field = await shop.polar.customFields.create({ type: "text", slug: "github-handle", name: "GitHub handle", properties: {} });
    const first = await shop.polar.benefits.create({ type: "custom", description: "Welcome call", properties: {} });
    const second = await shop.polar.benefits.create({ type: "custom", description: "Swag pack", properties: {} });
    const product = await shop.polar.products.create({
      name: "Bundle",
      prices: [{ amountType: "fixed", priceAmount: 9900 }],
      attachedCustomFields: [{ customFieldId: field.id, required: true }],
    });
    expect(product.attachedCustomFields).toHaveLength(1);
    expect(product.attachedCustomFields[0]).toMatchObject({ customFieldId: field.id, order: 0, required: true, customField: { slug: "github-handle" } });
    const withBenefits = await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [second.id, first.id] } });
    expect(withBenefits.benefits.map((benefit) => benefit.id)).toEqual([second.id, first.id]);
    expect((await shop.polar.products.list({ benefitId: first.id })).result.items.map((item) => item.id)).toEqual([product.id]);
    await expect.poll(async () => (await announced(stack, "product.updated", product.id)).length).toBeGreaterThan(0);
  });

  it("refuses prices that do not add up, each where it is", async () => {
    const response = await call("/v1/products/", {
      method: "POST",
      body: JSON.stringify({
        name: "Broken",
        prices: [
          { amount_type: "fixed", price_amount: 20 },
          { amount_type: "free" },
          { amount_type: "metered_unit", meter_id: "m", unit_amount: 1 },
          { amount_type: "custom", minimum_amount: 1000, maximum_amount: 100 },
        ],
      }),
    });
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(detail.map((issue) => [issue.loc, issue.msg])).toEqual([
      [["body", "prices", 0, "price_amount"], "Must be at least 50"],
      [["body", "prices", 1], "Only one fixed, free, custom or seat-based price per currency (usd)"],
      [["body", "prices", 2, "amount_type"], "Metered prices are for recurring products only"],
      [["body", "prices", 3], "Only one fixed, free, custom or seat-based price per currency (usd)"],
      [["body", "prices", 3, "maximum_amount"], "Must not be less than minimum_amount"],
    ]);
    const none = await call("/v1/products/", { method: "POST", body: JSON.stringify({ name: "Nothing", prices: [] }) });
    expect(none.status).toBe(422);
  });

  it("describes the name as trimmed, and refuses one that trimming leaves too short", async () => {
    const document = (await (await fetch(`${stack.gateway.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { properties: { name: { pattern?: string } } } } } } } }>;
    };
    const pattern = new RegExp(document.paths["/v1/products/"]?.post.requestBody.content["application/json"].schema.properties.name.pattern ?? "", "u");
    for (const [name, taken] of [["  ab  ", false], [" a b ", true]] as const) {
      expect(pattern.test(name), name).toBe(taken);
      expect((await call("/v1/products/", { method: "POST", body: JSON.stringify({ name, prices: [{ amount_type: "free" }] }) })).status, name).toBe(taken ? 201 : 422);
    }
  });

  it("refuses a metered unit amount larger or finer than its column holds with a 422, not a failed insert, and a meter not the seller's", async () => {
    const meter = await countingMeter(shop, "Metered units");
    const priced = (unitAmount: string | number, meterId = meter.id) =>
      call("/v1/products/", { method: "POST", body: JSON.stringify({ name: "Metered", recurring_interval: "month", prices: [{ amount_type: "metered_unit", meter_id: meterId, unit_amount: unitAmount }] }) });
    for (const tooMuch of ["100000000", "80412218416", "0.1234567890123", 1e8, 1e21]) {
      const response = await priced(tooMuch);
      expect(response.status, String(tooMuch)).toBe(422);
      expect(((await response.json()) as { detail: { loc: unknown[] }[] }).detail.map((issue) => issue.loc)).toEqual([["body", "prices", 0, "unit_amount"]]);
    }
    expect((await priced("99999999.999999999999")).status).toBe(201);
    const othersMeter = await countingMeter(await stack.seller(), "Someone else's");
    const refused = await priced("1", othersMeter.id);
    expect(await refused.json()).toEqual({ detail: [{ loc: ["body", "prices", 0, "meter_id"], msg: "Meter not found", type: "value_error", input: othersMeter.id }] });
  });

  it("are another organization's business: reads and writes of its products find nothing", async () => {
    const other = await stack.seller();
    const theirs = await other.polar.products.create({ name: "Theirs", prices: [{ amountType: "free" }] });
    await expect(shop.polar.products.get({ id: theirs.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    await expect(shop.polar.products.update({ id: theirs.id, productUpdate: { name: "Mine now" } })).rejects.toMatchObject({ error: "ResourceNotFound" });
    const listed = await shop.polar.products.list({ organizationId: other.organizationId });
    expect(listed.result.items).toEqual([]);
    const readOnly = stack.sdk((await shop.polar.organizationAccessTokens.create({ comment: "ro", scopes: ["products:read"] })).token);
    expect((await readOnly.products.list({})).result.items.length).toBeGreaterThan(0);
    await expect(readOnly.products.create({ name: "Nope", prices: [{ amountType: "free" }] })).rejects.toMatchObject({ statusCode: 403 });
  });

  it("deletes a product nothing has sold or offered, through SDK 1.x, and keeps one that is sold or linked (409 ProductNotDeletable), as is_deletable tells beforehand", async () => {
    const polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const price = [{ amount_type: "fixed" as const, price_amount: 900, price_currency: "usd" as const }];
    const draft = await polar.products.create({ name: "Never sold", prices: price });
    expect(draft.is_deletable).toBe(true);
    expect((await polar.products.update(draft.id, { is_archived: true })).is_deletable).toBe(true);
    expect(await polar.products.delete(draft.id)).toBeUndefined();
    await expect(polar.products.get(draft.id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await polar.products.list({ id: draft.id })).items).toEqual([]);

    const sold = await polar.products.create({ name: "Sold once", prices: price });
    await paidOrderOf(opened, sold.id, "deletion@example.com");
    const linked = await polar.products.create({ name: "In a link", prices: price });
    await polar.checkoutLinks.create({ products: [linked.id], payment_processor: "stripe" });
    for (const [kept, holders] of [[sold, "orders, checkouts"], [linked, "checkout links"]] as const) {
      const refused = await call(`/v1/products/${kept.id}`, { method: "DELETE" });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({ error: "ProductNotDeletable", detail: `Product ${kept.id} is used by ${holders}, so it cannot be deleted; archive it to stop selling it.` });
      expect(await polar.products.get(kept.id)).toMatchObject({ name: kept.name, is_deletable: false });
    }
    // The list tells each product's own answer: the one deleted is gone, a new one may go.
    const fresh = await polar.products.create({ name: "Fresh", prices: price });
    const listed = await polar.products.list({ id: [sold.id, linked.id, draft.id, fresh.id] });
    expect(Object.fromEntries(listed.items.map((product) => [product.name, product.is_deletable]))).toEqual({ "Sold once": false, "In a link": false, Fresh: true });
    // Another seller's product is not there to delete.
    const stranger = await stack.seller();
    expect((await fetch(`${stack.gateway.url}/v1/products/${linked.id}`, { method: "DELETE", headers: { authorization: `Bearer ${stranger.token}` } })).status).toBe(404);
  });

  it("answers a checkout opened while its product is being deleted with Polar's 422 or a checkout, never a 500", async () => {
    const price = [{ amount_type: "fixed" as const, price_amount: 500, price_currency: "usd" as const }];
    const polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
    for (let round = 0; round < 8; round++) {
      const product = await polar.products.create({ name: `Raced ${round}`, prices: price });
      const [opened, deleted] = await Promise.all([call("/v1/checkouts/", { method: "POST", body: JSON.stringify({ products: [product.id] }) }), call(`/v1/products/${product.id}`, { method: "DELETE" })]);
      // Whichever came first: the checkout holds the product (409 for the delete), or the product went (422 for the checkout).
      expect([[201, 409], [422, 204]]).toContainEqual([opened.status, deleted.status]);
      if (opened.status === 422) expect(await opened.json()).toMatchObject({ detail: [{ loc: ["body", "products", 0], msg: "Product not found" }] });
    }
  });
});
