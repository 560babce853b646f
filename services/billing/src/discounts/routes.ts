import { z } from "zod";
import { defineEndpoint, randomId, ValidationError, type Endpoint, type ValidationIssue, invalidField, isUniqueViolation, notPermitted, pageJson, pageOf, paging, repeated, sorting, reachable, pgInteger } from "@tollgate/kit";
import { priceAmount } from "../products/prices.js";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { metadataInput } from "../api/metadata.js";
import { products } from "../products/products.sql.js";
import { discounts, findDiscount, insertDiscount, replaceDiscountProducts, updateDiscount, type DiscountColumns, type DiscountRow } from "./discounts.sql.js";
import { discountJson, discountsJson } from "./output.js";
import { Discount, DiscountList } from "./schemas.js";

/** A code people type at checkout: letters, digits, - and _, 3 to 256 of them. */
const code = z.string().regex(/^[A-Za-z0-9_-]{3,256}$/, { error: "Use 3 to 256 letters, digits, - or _" });
const date = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const common = {
  name: z.string().min(1).max(256),
  code: code.nullish(),
  starts_at: date.nullish(),
  ends_at: date.nullish(),
  max_redemptions: pgInteger().min(1).nullish(),
  products: z.array(z.string()).nullish(),
  metadata: metadataInput.default({}),
  organization_id: z.string().nullish(),
  duration: z.enum(["once", "forever", "repeating"]),
  duration_in_months: z.int().min(1).max(999).nullish(),
};

const createBody = z.discriminatedUnion("type", [
  z.object({
    ...common,
    type: z.literal("fixed"),
    amount: priceAmount.min(1).nullish(),
    currency: z.string().regex(/^[A-Za-z]{3}$/).nullish(),
    amounts: z.record(z.string(), priceAmount.min(1)).nullish(),
  }),
  z.object({ ...common, type: z.literal("percentage"), basis_points: z.int().min(1).max(10_000) }),
]);

const updateBody = z.object({
  name: common.name.nullish(),
  code: code.nullish(),
  starts_at: date.nullish(),
  ends_at: date.nullish(),
  max_redemptions: pgInteger().min(1).nullish(),
  products: z.array(z.string()).nullish(),
  metadata: metadataInput.optional(),
  duration: common.duration.nullish(),
  duration_in_months: common.duration_in_months,
  type: z.enum(["fixed", "percentage"]).nullish(),
  amount: priceAmount.min(1).nullish(),
  currency: z.string().regex(/^[A-Za-z]{3}$/).nullish(),
  basis_points: z.int().min(1).max(10_000).nullish(),
});

/** A discount's terms must add up: an amount for a fixed one, months for a repeating one, an end after the start. */
function checkTerms(discount: DiscountColumns): void {
  const issues: ValidationIssue[] = [];
  const problem = (field: string, message: string, input?: unknown) => issues.push({ location: "body", path: [field], message, code: "value_error", input });
  if (discount.type === "fixed" && (!discount.amount || !discount.currency)) problem("amount", "A fixed discount needs an amount and its currency");
  if (discount.duration === "repeating" && !discount.duration_in_months) problem("duration_in_months", "A repeating discount needs duration_in_months");
  if (discount.starts_at && discount.ends_at && discount.ends_at <= discount.starts_at) problem("ends_at", "Must be after starts_at", discount.ends_at.toISOString());
  if (issues.length > 0) throw new ValidationError(issues);
}

const SORTABLE = { created_at: "created_at", name: "name", code: "code", redemptions_count: "redemptions_count", ends_at: "ends_at" } as const;
const TAG = "discounts";

export function discountEndpoints(billing: Billing): Endpoint[] {
  const { db, access } = billing;
  const discount = async (identity: IdentityClaims, scope: "discounts:read" | "discounts:write", id: string) => reachable(access, identity, scope, await findDiscount(db, id), "Discount");

  const checkProducts = async (organizationId: string, ids: string[] | null | undefined) => {
    if (!ids?.length) return;
    const found = new Set((await products(db).where({ organization_id: organizationId }).whereIn("id", ids).select("id")).map((row) => row.id));
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) throw invalidField(["products", missing], "Product not found", ids[missing]);
  };

  /** Writes the discount and its products; a code another discount of the seller has (in any case) is refused. */
  const save = async (write: (trx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<DiscountRow>, productIds: string[] | null | undefined, givenCode: string | null | undefined) => {
    try {
      return await db.transaction(async (trx) => {
        const saved = await write(trx);
        if (productIds) await replaceDiscountProducts(trx, saved.id, [...new Set(productIds)]);
        return discountJson(trx, saved);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidField(["code"], "A discount with this code already exists.", givenCode);
      throw error;
    }
  };

  return [
    defineEndpoint("/v1/discounts/", { method: "POST", status: 201, body: createBody, response: Discount, summary: "Create a discount", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "discounts:write", body.organization_id);
      // Polar's multi-currency `amounts` (one entry here) stand in for amount and currency.
      const [amountsCurrency, amountsAmount] = body.type === "fixed" ? (Object.entries(body.amounts ?? {})[0] ?? []) : [];
      const columns: DiscountColumns = {
        name: body.name,
        type: body.type,
        duration: body.duration,
        duration_in_months: body.duration === "repeating" ? (body.duration_in_months ?? null) : null,
        amount: body.type === "fixed" ? (body.amount ?? amountsAmount ?? null) : null,
        currency: body.type === "fixed" ? (body.currency ?? amountsCurrency ?? "usd").toLowerCase() : null,
        basis_points: body.type === "percentage" ? body.basis_points : null,
        code: body.code ?? null,
        starts_at: body.starts_at ?? null,
        ends_at: body.ends_at ?? null,
        max_redemptions: body.max_redemptions ?? null,
        metadata: body.metadata,
      };
      checkTerms(columns);
      await checkProducts(organizationId, body.products);
      return save((trx) => insertDiscount(trx, { id: randomId(32), organization_id: organizationId, ...columns }), body.products, body.code);
    }),

    defineEndpoint(
      "/v1/discounts/",
      {
        method: "GET",
        query: z.object({ ...paging, organization_id: repeated(z.string()), query: z.string().optional(), sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at") }),
        response: DiscountList,
        summary: "List discounts",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const found = discounts(db).whereIn("organization_id", await access.organizationIds(identity, "discounts:read"));
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        if (query.query) void found.where((match) => void match.whereILike("name", `%${query.query}%`).orWhereILike("code", `%${query.query}%`));
        const { rows, total } = await pageOf<DiscountRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "discounts" });
        return pageJson(await discountsJson(db, rows), total, query.limit);
      },
    ),

    defineEndpoint("/v1/discounts/:id", { method: "GET", params: z.object({ id: z.string() }), response: Discount, summary: "Get a discount", tag: TAG }, async ({ params, identity }) =>
      discountJson(db, await discount(identity, "discounts:read", params.id)),
    ),

    defineEndpoint("/v1/discounts/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Discount, summary: "Update a discount", tag: TAG }, async ({ params, body, identity }) => {
      const existing = await discount(identity, "discounts:write", params.id);
      const changesTerms = ["type", "amount", "currency", "basis_points", "duration", "duration_in_months"].some((field) => body[field as keyof typeof body] != null);
      // What customers already got must stay what they got.
      if (changesTerms && existing.redemptions_count > 0) throw notPermitted("This discount has been redeemed: its amount and duration can no longer change");
      const type = body.type ?? existing.type;
      const duration = body.duration ?? existing.duration;
      const merged: DiscountColumns = {
        name: body.name ?? existing.name,
        type,
        duration,
        duration_in_months: duration === "repeating" ? (body.duration_in_months ?? existing.duration_in_months) : null,
        amount: type === "fixed" ? (body.amount ?? existing.amount) : null,
        currency: type === "fixed" ? (body.currency ?? existing.currency ?? "usd").toLowerCase() : null,
        basis_points: type === "percentage" ? (body.basis_points ?? existing.basis_points) : null,
        code: body.code !== undefined ? body.code : existing.code,
        starts_at: body.starts_at !== undefined ? body.starts_at : existing.starts_at,
        ends_at: body.ends_at !== undefined ? body.ends_at : existing.ends_at,
        max_redemptions: body.max_redemptions !== undefined ? body.max_redemptions : existing.max_redemptions,
        metadata: body.metadata ?? existing.metadata,
      };
      if (type === "percentage" && !merged.basis_points) throw invalidField(["basis_points"], "A percentage discount needs basis_points");
      checkTerms(merged);
      await checkProducts(existing.organization_id, body.products);
      return save((trx) => updateDiscount(trx, existing.id, merged), body.products, merged.code);
    }),

    defineEndpoint("/v1/discounts/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a discount", tag: TAG }, async ({ params, identity }) => {
      const existing = await discount(identity, "discounts:write", params.id);
      // Kept for the orders that used it; its code is free again.
      await updateDiscount(db, existing.id, { deleted_at: new Date() });
    }),
  ];
}
