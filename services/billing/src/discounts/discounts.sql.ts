import { pageOf, type Knex, type Sort } from "@tollgate/kit";
import type { Metadata } from "../db/metadata.js";
import type { ProductRow } from "../products/products.sql.js";

export interface DiscountRow {
  id: string;
  organization_id: string;
  name: string;
  type: "fixed" | "percentage";
  duration: "once" | "forever" | "repeating";
  duration_in_months: number | null;
  amount: number | null;
  currency: string | null;
  basis_points: number | null;
  code: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
  max_redemptions: number | null;
  redemptions_count: number;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export type DiscountColumns = Omit<DiscountRow, "id" | "organization_id" | "redemptions_count" | "created_at" | "modified_at" | "deleted_at">;

export const discounts = (db: Knex) => db<DiscountRow>("discounts").whereNull("deleted_at");

export const findDiscount = (db: Knex, id: string) => discounts(db).where({ id }).first();

export async function insertDiscount(db: Knex, discount: Pick<DiscountRow, "id" | "organization_id"> & DiscountColumns): Promise<DiscountRow> {
  const [row] = await db<DiscountRow>("discounts").insert(discount).returning("*");
  if (!row) throw new Error("insert into discounts returned no row");
  return row;
}

export async function updateDiscount(db: Knex, id: string, changes: Partial<DiscountColumns & Pick<DiscountRow, "deleted_at">>): Promise<DiscountRow> {
  const [row] = await db<DiscountRow>("discounts")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`discount ${id} went away while being updated`);
  return row;
}

/**
 * Takes one redemption of a discount, unless its last one is gone (the increment is guarded, so two
 * takers at once cannot both have the last); whether it was taken.
 */
export async function redeemDiscount(db: Knex, id: string): Promise<boolean> {
  const redeemed = await db("discounts")
    .where({ id })
    .where((open) => void open.whereNull("max_redemptions").orWhereRaw("redemptions_count < max_redemptions"))
    .increment("redemptions_count", 1);
  return redeemed > 0;
}

/** Gives a redemption back (a declined payment): a change to await, or to write with others. */
export const releaseRedemption = (db: Knex, id: string): Knex.QueryBuilder => db("discounts").where({ id }).where("redemptions_count", ">", 0).decrement("redemptions_count", 1);

export async function replaceDiscountProducts(db: Knex, discountId: string, productIds: string[]): Promise<void> {
  await db("discount_products").where({ discount_id: discountId }).delete();
  if (productIds.length > 0) await db("discount_products").insert(productIds.map((productId) => ({ discount_id: discountId, product_id: productId })));
}

/** A discount with the products it is limited to (none when it is for every product), oldest first. */
export interface DiscountWithProducts extends DiscountRow {
  products: ProductRow[];
}

/** Discounts with their products, read for all of them in one statement, in the order given. */
export async function discountsWithProducts(db: Knex, rows: DiscountRow[]): Promise<DiscountWithProducts[]> {
  if (rows.length === 0) return [];
  // crosses into products: a discount is shown with its products' fields, read in the one statement.
  const links = await db<ProductRow>("products")
    .join("discount_products", "discount_products.product_id", "products.id")
    .whereIn("discount_products.discount_id", rows.map((discount) => discount.id))
    .orderBy("products.created_at")
    .select<(ProductRow & { discount_id: string })[]>("products.*", "discount_products.discount_id");
  return rows.map((discount) => ({ ...discount, products: links.filter((link) => link.discount_id === discount.id).map(({ discount_id: _discount, ...product }) => product) }));
}

/** One discount with its products. */
export const discountWithProducts = async (db: Knex, discount: DiscountRow): Promise<DiscountWithProducts> => ({ ...discount, products: (await discountsWithProducts(db, [discount]))[0]?.products ?? [] });

/** The seller's discount with the code given, whatever its case. */
export const findDiscountByCode = (db: Knex, organizationId: string, code: string) => discounts(db).where({ organization_id: organizationId }).whereRaw("lower(code) = lower(?)", [code]).first();

/** The products a discount is limited to; none when it is for every product. */
export const productIdsOfDiscount = async (db: Knex, discountId: string): Promise<string[]> =>
  (await db("discount_products").where({ discount_id: discountId }).select<{ product_id: string }[]>("product_id")).map((link) => link.product_id);

export const DISCOUNT_SORTABLE = { created_at: "created_at", name: "name", code: "code", redemptions_count: "redemptions_count", ends_at: "ends_at" } as const;

/** The discounts of the organizations given (of those among `organization_id`, when given), by part of their name or code. */
export function pageOfDiscounts(db: Knex, filter: { organizationIds: string[]; organization_id?: string[]; query?: string }, page: { page: number; limit: number; sort: Sort<keyof typeof DISCOUNT_SORTABLE> }) {
  const found = discounts(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  const { query } = filter;
  if (query) void found.where((match) => void match.whereILike("name", `%${query}%`).orWhereILike("code", `%${query}%`));
  return pageOf<DiscountRow, keyof typeof DISCOUNT_SORTABLE>(found, { ...page, columns: DISCOUNT_SORTABLE, table: "discounts" });
}
