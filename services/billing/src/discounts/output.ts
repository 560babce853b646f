import type { Knex } from "@tollgate/kit";
import { productFieldsJson } from "../products/output.js";
import { discountedProducts, type DiscountRow } from "./discounts.sql.js";

/** Discounts as Polar shows them: the fields of their type and duration, with the products they are for. */
export async function discountsJson(db: Knex, rows: DiscountRow[]) {
  if (rows.length === 0) return [];
  const links = await discountedProducts(db, rows.map((discount) => discount.id));
  return rows.map((discount) => ({
    created_at: discount.created_at,
    modified_at: discount.modified_at,
    id: discount.id,
    metadata: discount.metadata,
    name: discount.name,
    code: discount.code,
    starts_at: discount.starts_at,
    ends_at: discount.ends_at,
    max_redemptions: discount.max_redemptions,
    redemptions_count: discount.redemptions_count,
    organization_id: discount.organization_id,
    products: links.filter((link) => link.discount_id === discount.id).map(({ discount_id: _discount, ...product }) => productFieldsJson(product)),
    type: discount.type,
    duration: discount.duration,
    ...(discount.duration === "repeating" ? { duration_in_months: discount.duration_in_months } : {}),
    ...(discount.type === "fixed"
      ? { amount: discount.amount, currency: discount.currency, amounts: { [discount.currency ?? "usd"]: discount.amount } }
      : { basis_points: discount.basis_points }),
  }));
}

export type DiscountJson = Awaited<ReturnType<typeof discountsJson>>[number];

export async function discountJson(db: Knex, discount: DiscountRow) {
  const [json] = await discountsJson(db, [discount]);
  if (!json) throw new Error(`discount ${discount.id} could not be shown`);
  return json;
}
