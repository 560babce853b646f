import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { startBillingStack, type BillingStack, type Seller } from "./stack.js";

let stack: BillingStack;
let shop: Seller;

beforeAll(async () => {
  stack = await startBillingStack();
  shop = await stack.seller();
});

afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

/** The payloads of billing events of `type` about the resource `id`, as sellers' webhooks will get them. */
async function announced(type: string, id: string): Promise<Record<string, unknown>[]> {
  const events = await publishedEvents(stack.billing.context.bus);
  return events.filter((event) => event.type === `billing.${type}` && (event.data.payload as { id?: string }).id === id).map((event) => event.data.payload as Record<string, unknown>);
}

describe("custom fields", () => {
  it("are created, listed, updated and deleted with the SDK, each type with its properties", async () => {
    const text = await shop.polar.customFields.create({ type: "text", slug: "company", name: "Company", properties: { formLabel: "Company name", textarea: false, minLength: 2, maxLength: 80 } });
    expect(text).toMatchObject({ type: "text", slug: "company", organizationId: shop.organizationId, properties: { formLabel: "Company name", minLength: 2, maxLength: 80 } });
    const select = await shop.polar.customFields.create({
      type: "select",
      slug: "size",
      name: "Size",
      properties: { options: [{ value: "s", label: "Small" }, { value: "l", label: "Large" }] },
    });
    await shop.polar.customFields.create({ type: "number", slug: "seats", name: "Seats", properties: { ge: 1, le: 500 } });
    await shop.polar.customFields.create({ type: "checkbox", slug: "terms", name: "Terms", properties: { formLabel: "I accept the terms" } });
    await shop.polar.customFields.create({ type: "date", slug: "start", name: "Start date", properties: {} });

    const selects = await shop.polar.customFields.list({ typeFilter: "select" });
    expect(selects.result.items.map((field) => field.id)).toEqual([select.id]);
    const all = await shop.polar.customFields.list({ sorting: ["-slug"], limit: 2 });
    expect(all.result.pagination).toEqual({ totalCount: 5, maxPage: 3 });
    expect(all.result.items.map((field) => field.slug)).toEqual(["terms", "start"]);

    const renamed = await shop.polar.customFields.update({ id: text.id, customFieldUpdate: { type: "text", name: "Company or school", properties: { maxLength: 120 } } });
    expect(renamed).toMatchObject({ name: "Company or school", properties: { maxLength: 120 } });
    await shop.polar.customFields.delete({ id: select.id });
    await expect(shop.polar.customFields.get({ id: select.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
  });

  it("keep slugs unique per organization and properties consistent", async () => {
    await shop.polar.customFields.create({ type: "text", slug: "vat", name: "VAT", properties: {} });
    const taken = await call("/v1/custom-fields/", { method: "POST", body: JSON.stringify({ type: "text", slug: "vat", name: "VAT again", properties: {} }) });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toEqual({ detail: [{ loc: ["body", "slug"], msg: "A custom field with this slug already exists.", type: "value_error", input: "vat" }] });
    const inverted = await call("/v1/custom-fields/", { method: "POST", body: JSON.stringify({ type: "number", slug: "n", name: "N", properties: { ge: 10, le: 1 } }) });
    expect(await inverted.json()).toMatchObject({ detail: [{ loc: ["body", "properties", "ge"], msg: "ge must not be greater than le" }] });
    // Another organization may use the same slug.
    const other = await stack.seller();
    expect((await other.polar.customFields.create({ type: "text", slug: "vat", name: "VAT", properties: {} })).slug).toBe("vat");
  });
});

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
    await shop.polar.benefits.create({ type: "meter_credit", description: "API credits", properties: { units: 1000, rollover: false, meterId: "meter-1" } });

    await expect.poll(() => announced("benefit.created", custom.id)).toHaveLength(1);
    const licenseOnly = await shop.polar.benefits.list({ typeFilter: "license_keys" });
    expect(licenseOnly.result.items.map((benefit) => benefit.id)).toEqual([keys.id]);

    const updated = await shop.polar.benefits.update({ id: repository.id, requestBody: { type: "github_repository", description: "Source code", properties: { repositoryOwner: "shop", repositoryName: "app", permission: "triage" } } });
    expect(updated).toMatchObject({ description: "Source code", properties: { permission: "triage" } });
    await expect.poll(() => announced("benefit.updated", repository.id)).toHaveLength(1);

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
});

describe("products and prices", () => {
  it("sells once or every month, with fixed, free, custom and metered prices", async () => {
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
        { amountType: "metered_unit", meterId: "api-calls", unitAmount: "0.25", capAmount: 5000 },
      ],
    });
    expect(plan).toMatchObject({ isRecurring: true, recurringInterval: "month", recurringIntervalCount: 1 });
    expect(plan.prices).toHaveLength(2);
    expect(plan.prices[0]).toMatchObject({ amountType: "custom", minimumAmount: 500, maximumAmount: 10_000, presetAmount: 1000 });
    expect(plan.prices[1]).toMatchObject({ amountType: "metered_unit", unitAmount: "0.25", capAmount: 5000, meterId: "api-calls" });
    const free = await shop.polar.products.create({ name: "Free tier", recurringInterval: "year", prices: [{ amountType: "free" }] });
    expect(free.prices[0]).toMatchObject({ amountType: "free" });

    await expect.poll(() => announced("product.created", ebook.id)).toHaveLength(1);
    const payload = (await announced("product.created", ebook.id))[0];
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
    await expect.poll(async () => (await announced("product.updated", product.id)).length).toBeGreaterThan(0);
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
      [["body", "prices", 1], "Only one fixed, free or custom price per currency (usd)"],
      [["body", "prices", 2, "amount_type"], "Metered prices are for recurring products only"],
      [["body", "prices", 3], "Only one fixed, free or custom price per currency (usd)"],
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

  it("refuses a metered unit amount larger or finer than its column holds with a 422, not a failed insert", async () => {
    const priced = (unitAmount: string | number) =>
      call("/v1/products/", { method: "POST", body: JSON.stringify({ name: "Metered", recurring_interval: "month", prices: [{ amount_type: "metered_unit", meter_id: "m", unit_amount: unitAmount }] }) });
    for (const tooMuch of ["100000000", "80412218416", "0.1234567890123", 1e8, 1e21]) {
      const response = await priced(tooMuch);
      expect(response.status, String(tooMuch)).toBe(422);
      expect(((await response.json()) as { detail: { loc: unknown[] }[] }).detail.map((issue) => issue.loc)).toEqual([["body", "prices", 0, "unit_amount"]]);
    }
    expect((await priced("99999999.999999999999")).status).toBe(201);
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
});

describe("discounts", () => {
  it("are fixed or percentage, once, forever or repeating, with codes unique whatever their case", async () => {
    const product = await shop.polar.products.create({ name: "Discounted", prices: [{ amountType: "fixed", priceAmount: 2000 }] });
    const launch = await shop.polar.discounts.create({
      type: "percentage",
      basisPoints: 2500,
      duration: "repeating",
      durationInMonths: 3,
      name: "Launch",
      code: "LAUNCH25",
      maxRedemptions: 100,
      products: [product.id],
      startsAt: new Date("2026-01-01T00:00:00Z"),
      endsAt: new Date("2027-01-01T00:00:00Z"),
    });
    expect(launch).toMatchObject({ type: "percentage", basisPoints: 2500, duration: "repeating", durationInMonths: 3, code: "LAUNCH25", redemptionsCount: 0, maxRedemptions: 100 });
    expect(launch.products.map((item) => item.id)).toEqual([product.id]);
    const fixed = await shop.polar.discounts.create({ type: "fixed", amount: 500, currency: "usd", duration: "once", name: "Five off" });
    expect(fixed).toMatchObject({ type: "fixed", amount: 500, currency: "usd", duration: "once", code: null });

    const clash = await call("/v1/discounts/", { method: "POST", body: JSON.stringify({ type: "fixed", amount: 100, currency: "usd", duration: "forever", name: "Clash", code: "launch25" }) });
    expect(await clash.json()).toEqual({ detail: [{ loc: ["body", "code"], msg: "A discount with this code already exists.", type: "value_error", input: "launch25" }] });
    const incomplete = await call("/v1/discounts/", { method: "POST", body: JSON.stringify({ type: "percentage", basis_points: 1000, duration: "repeating", name: "Months?" }) });
    expect(await incomplete.json()).toMatchObject({ detail: [{ loc: ["body", "duration_in_months"] }] });

    const renamed = await shop.polar.discounts.update({ id: fixed.id, discountUpdate: { name: "Five dollars off", code: "FIVE" } });
    expect(renamed).toMatchObject({ name: "Five dollars off", code: "FIVE" });
    const found = await shop.polar.discounts.list({ query: "five" });
    expect(found.result.items.map((discount) => discount.id)).toEqual([fixed.id]);
    await shop.polar.discounts.delete({ id: fixed.id });
    await expect(shop.polar.discounts.get({ id: fixed.id })).rejects.toMatchObject({ error: "ResourceNotFound" });
    // A deleted discount's code is free again.
    expect((await shop.polar.discounts.create({ type: "fixed", amount: 500, currency: "usd", duration: "once", name: "Again", code: "five" })).code).toBe("five");
  });
});
