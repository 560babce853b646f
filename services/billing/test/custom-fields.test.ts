import { describe, expect, it } from "vitest";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.gateway.url}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${shop.token}`, ...init.headers } });

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
