import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";

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
