import { randomId, type Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";
import { rowsFromJson } from "../api/jsonb.js";
import type { BenefitRow } from "../benefits/benefits.sql.js";
import type { CustomFieldRow } from "../custom-fields/custom-fields.sql.js";
import type { FileRow } from "../files/files.sql.js";
import { priceColumns, type PriceCreate, type PriceRow } from "./prices.js";

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

/** A custom field as a product asks for it: where on the form, and whether an answer is required. */
export type AttachedCustomField = CustomFieldRow & { position: number; required: boolean };

/** A product with everything Polar shows with it: its prices (archived ones last), benefits, media and custom fields, each in order. */
export interface ProductWithParts extends ProductRow {
  prices: PriceRow[];
  benefits: BenefitRow[];
  medias: FileRow[];
  custom_fields: AttachedCustomField[];
}

/**
 * Each part of a product `product`, aggregated per product as JSON so that products and parts take
 * one statement; a select list for a query over `products product`.
 */
export const PRODUCT_PARTS = `
  coalesce((select json_agg(price order by price.is_archived, price.position, price.created_at) from product_prices price
    where price.product_id = product.id), '[]') as prices,
  coalesce((select json_agg(benefit order by link.position) from product_benefits link join benefits benefit on benefit.id = link.benefit_id
    where link.product_id = product.id and not benefit.is_deleted), '[]') as benefits,
  coalesce((select json_agg(media order by link.position) from product_medias link join files media on media.id = link.file_id
    where link.product_id = product.id and media.deleted_at is null), '[]') as medias,
  coalesce((select json_agg(json_build_object('field', field, 'position', link.position, 'required', link.required) order by link.position)
    from product_custom_fields link join custom_fields field on field.id = link.custom_field_id
    where link.product_id = product.id), '[]') as custom_fields`;

const CHANGED = ["created_at", "modified_at"] as const;

export type ProductWithJsonParts = ProductRow & Record<"prices" | "benefits" | "medias" | "custom_fields", unknown>;

/** Products by id with their parts as JSON columns. */
const productsWithPartsQuery = (db: Knex, ids: readonly string[]) =>
  db("products as product")
    // One array binding rather than a list, so the statement's text is the same for any number of ids.
    .whereRaw("product.id = any(?)", [[...new Set(ids)]])
    .select<ProductWithJsonParts[]>("product.*", db.raw(PRODUCT_PARTS));

/** A product row with its parts as JSON columns ({@link PRODUCT_PARTS}) as a product with its parts; `fromJson` when the row itself came back as JSON. */
export function withParts(row: ProductWithJsonParts, fromJson = false): ProductWithParts {
  const product = fromJson ? (rowsFromJson<ProductWithJsonParts>([row], CHANGED)[0] as ProductWithJsonParts) : row;
  return {
    ...product,
    prices: rowsFromJson<PriceRow>(row.prices, CHANGED),
    benefits: rowsFromJson<BenefitRow>(row.benefits, CHANGED),
    medias: rowsFromJson<FileRow>(row.medias, [...CHANGED, "deleted_at", "last_modified_at"]),
    custom_fields: (row.custom_fields as { field: unknown; position: number; required: boolean }[]).map(({ field, position, required }) => ({
      ...(rowsFromJson<CustomFieldRow>([field], CHANGED)[0] as CustomFieldRow),
      position,
      required,
    })),
  };
}

/** Products with their parts, in one statement, in the order of `ids`; ids not found are left out. */
export async function productsWithParts(db: Knex, ids: readonly string[]): Promise<ProductWithParts[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await productsWithPartsQuery(db, ids)).map((row) => [row.id, withParts(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

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
