import type { z } from "zod";
import { invalidField, isUniqueViolation, notPermitted, randomId, ValidationError, type Knex, type Units, type ValidationIssue } from "@tollgate/kit";
import { productIdsOf } from "../products/products.sql.js";
import { discountWithProducts, insertDiscount, productIdsOfDiscount, replaceDiscountProducts, updateDiscount, type DiscountColumns, type DiscountRow } from "./discounts.sql.js";
import { announceBilling } from "../events.js";
import { discountJson } from "./output.js";
import { discountProblemOf } from "./rules.js";
import type { DiscountCreate, DiscountUpdate } from "./schemas.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a discount by id, a page of them, with their products.
export { discountsWithProducts, discountWithProducts, findDiscount, pageOfDiscounts } from "./discounts.sql.js";


/** A discount's terms must add up: an amount for a fixed one, months for a repeating one, an end after the start. */
function checkTerms(discount: DiscountColumns): void {
  const issues: ValidationIssue[] = [];
  const problem = (field: string, message: string, input?: unknown) => issues.push({ location: "body", path: [field], message, code: "value_error", input });
  if (discount.type === "fixed" && (!discount.amount || !discount.currency)) problem("amount", "A fixed discount needs an amount and its currency");
  if (discount.duration === "repeating" && !discount.duration_in_months) problem("duration_in_months", "A repeating discount needs duration_in_months");
  if (discount.starts_at && discount.ends_at && discount.ends_at <= discount.starts_at) problem("ends_at", "Must be after starts_at", discount.ends_at.toISOString());
  if (issues.length > 0) throw new ValidationError(issues);
}

/** A discount applies to the seller's own products only. */
async function checkProducts(db: Knex, organizationId: string, ids: string[] | null | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = new Set(await productIdsOf(db, organizationId, ids));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw invalidField(["products", missing], "Product not found", ids[missing]);
}

/** Writes the discount and its products, and announces it; a code another discount of the seller has (in any case) is refused. */
async function save(units: Units, write: (trx: Knex) => Promise<DiscountRow>, productIds: string[] | null | undefined, givenCode: string | null | undefined, event: "discount.created" | "discount.updated") {
  try {
    return await units.run(async (unit) => {
      const saved = await write(unit.db);
      if (productIds) await replaceDiscountProducts(unit.db, saved.id, [...new Set(productIds)]);
      const json = discountJson(await discountWithProducts(unit.db, saved));
      announceBilling(unit, event, saved.organization_id, json);
      return json;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidField(["code"], "A discount with this code already exists.", givenCode);
    throw error;
  }
}

export async function createDiscount({ db, units }: Pick<Parts, "db" | "units">, organizationId: string, body: z.output<typeof DiscountCreate>) {
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
  await checkProducts(db, organizationId, body.products);
  return save(units, (trx) => insertDiscount(trx, { id: randomId(32), organization_id: organizationId, ...columns }), body.products, body.code, "discount.created");
}

/** Changes a discount; once redeemed, what customers already got must stay what they got. */
export async function changeDiscount({ db, units }: Pick<Parts, "db" | "units">, existing: DiscountRow, body: z.output<typeof DiscountUpdate>) {
  const changesTerms = ["type", "amount", "currency", "basis_points", "duration", "duration_in_months"].some((field) => body[field as keyof typeof body] != null);
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
  await checkProducts(db, existing.organization_id, body.products);
  return save(units, (trx) => updateDiscount(trx, existing.id, merged), body.products, merged.code, "discount.updated");
}

/** Why a discount cannot be used on this product now (read with the products it is limited to), or null when it can. */
export async function discountProblem(db: Knex, discount: DiscountRow, productId: string, currency: string, now = new Date()): Promise<string | null> {
  return discountProblemOf(discount, await productIdsOfDiscount(db, discount.id), productId, currency, now);
}

/** A deleted discount is kept for the orders that used it; its code is free again. */
export async function removeDiscount(units: Units, discount: DiscountRow): Promise<void> {
  await units.run(async (unit) => {
    const deleted = await updateDiscount(unit.db, discount.id, { deleted_at: new Date() });
    announceBilling(unit, "discount.deleted", deleted.organization_id, discountJson(await discountWithProducts(unit.db, deleted)));
  });
}
