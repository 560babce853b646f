import { randomId, type Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";
import { priceColumns, type PriceCreate } from "./prices.js";

export interface ProductRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  visibility: "public" | "private" | "draft";
  recurring_interval: "day" | "week" | "month" | "year" | null;
  recurring_interval_count: number | null;
  trial_interval: "day" | "week" | "month" | "year" | null;
  trial_interval_count: number | null;
  is_archived: boolean;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export type ProductColumns = Omit<ProductRow, "id" | "organization_id" | "created_at" | "modified_at">;

export const products = (db: Knex) => db<ProductRow>("products");

export const findProduct = (db: Knex, id: string) => products(db).where({ id }).first();

export async function insertProduct(db: Knex, product: Pick<ProductRow, "id" | "organization_id"> & ProductColumns): Promise<ProductRow> {
  const [row] = await products(db).insert(product).returning("*");
  if (!row) throw new Error("insert into products returned no row");
  return row;
}

export async function updateProduct(db: Knex, id: string, changes: Partial<ProductColumns>): Promise<ProductRow> {
  const [row] = await products(db)
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`product ${id} went away while being updated`);
  return row;
}

/** Adds prices after the product's existing ones. */
export async function addPrices(db: Knex, productId: string, prices: { price: PriceCreate; currency: string }[], startAt: number): Promise<void> {
  if (prices.length === 0) return;
  await db("product_prices").insert(prices.map(({ price, currency }, index) => ({ id: randomId(32), product_id: productId, position: startAt + index, ...priceColumns(price, currency) })));
}

/** A product's prices are kept when archived: orders and subscriptions refer to them. */
export const archivePricesExcept = (db: Knex, productId: string, keep: string[]) =>
  db("product_prices").where({ product_id: productId, is_archived: false }).whereNotIn("id", keep).update({ is_archived: true, modified_at: new Date() });

/** Replaces a product's links to benefits, media or custom fields, in the order given. */
export async function replaceLinks(db: Knex, table: "product_benefits" | "product_medias" | "product_custom_fields", productId: string, rows: Record<string, unknown>[]): Promise<void> {
  await db(table).where({ product_id: productId }).delete();
  if (rows.length > 0) await db(table).insert(rows.map((row, position) => ({ product_id: productId, position, ...row })));
}
