import { pageOf, randomId, type Knex, type Sort } from "@tollgate/kit";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import { rowsFromJson } from "../db/json-rows.js";
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

/** The ids among `ids` of the organization's products. */
export const productIdsOf = async (db: Knex, organizationId: string, ids: string[]) => (await products(db).where({ organization_id: organizationId }).whereIn("id", ids).select("id")).map((row) => row.id);

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
// crosses into benefits, files, custom-fields and meters: a product is shown with its attached parts (a metered price with its meter), in the one statement that reads it.
export const PRODUCT_PARTS = `
  coalesce((select json_agg(price order by price.is_archived, price.position, price.created_at) from (
    select listed.*, case when meter.id is null then null else json_build_object('id', meter.id, 'name', meter.name, 'unit', meter.unit, 'custom_label', meter.custom_label, 'custom_multiplier', meter.custom_multiplier) end as meter
    from product_prices listed left join meters meter on meter.id = listed.meter_id
    where listed.product_id = product.id) price), '[]') as prices,
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

/** One product with its parts; it must exist (the caller has just read or written it). */
export async function productWithParts(db: Knex, id: string): Promise<ProductWithParts> {
  const [product] = await productsWithParts(db, [id]);
  if (!product) throw new Error(`product ${id} is gone`);
  return product;
}

/** What may still name a product: a product named by any of them is kept, or its sales and links would lose what they sold. */
export type ProductHolder = "orders" | "subscriptions" | "checkouts" | "checkout_links" | "discounts";

/**
 * Whether rows of each kind name the product whose id is the SQL expression `id` (a checkout's
 * offered products include the one chosen, so product_ids says all of it).
 */
// crosses into orders, subscriptions, checkouts, checkout-links and discounts: whether any of them names the product.
const NAMED_BY: Record<ProductHolder, (id: string) => string> = {
  orders: (id) => `exists (select 1 from orders where product_id = ${id})`,
  subscriptions: (id) => `exists (select 1 from subscriptions where product_id = ${id})`,
  checkouts: (id) => `exists (select 1 from checkouts where product_ids @> array[${id}])`,
  checkout_links: (id) => `exists (select 1 from checkout_links where product_ids @> array[${id}])`,
  discounts: (id) => `exists (select 1 from discount_products where product_id = ${id})`,
};
const HOLDERS = Object.keys(NAMED_BY) as ProductHolder[];

/** The kinds of rows that name the product, after locking it so that none can be made meanwhile and go unseen. */
export async function holdersOfProduct(db: Knex, id: string): Promise<ProductHolder[]> {
  await products(db).where({ id }).forUpdate().first("id");
  const result = await db.raw<{ rows: Record<ProductHolder, boolean>[] }>(`select ${HOLDERS.map((holder) => `${NAMED_BY[holder]("?::text")} as ${holder}`).join(", ")}`, HOLDERS.map(() => id));
  const [found] = result.rows;
  return found ? HOLDERS.filter((holder) => found[holder]) : [];
}

/** The ids among `ids` of products nothing names yet, which may still be deleted (Polar's is_deletable). */
export async function deletableProductIds(db: Knex, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result = await db.raw<{ rows: { id: string }[] }>(
    `select product.id from unnest(?::text[]) as product(id) where not (${HOLDERS.map((holder) => NAMED_BY[holder]("product.id")).join(" or ")})`,
    [[...new Set(ids)]],
  );
  return new Set(result.rows.map((row) => row.id));
}

/** Deletes a product with its prices, benefit links, media links and custom field links. */
export const deleteProductRow = (db: Knex, id: string) => products(db).where({ id }).delete();

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

/** The prices of the products given, live ones first, each product's in order. */
export const pricesOfProducts = (db: Knex, productIds: string[]) =>
  db<PriceRow>("product_prices").whereIn("product_id", productIds).orderBy("is_archived").orderBy("position").orderBy("created_at");

export const PRODUCT_SORTABLE = {
  created_at: "products.created_at",
  name: "products.name",
  price_amount_type: "first_price.amount_type",
  price_amount: "first_price.amount",
} as const;

/** Which products a list asks for, within the organizations given. */
export interface ProductFilter {
  organizationIds: string[];
  ids?: string[];
  organization_id?: string[];
  /** Part of the name, in any case. */
  name?: string;
  is_archived?: boolean;
  is_recurring?: boolean;
  visibility?: ProductRow["visibility"][];
  /** Products granting any of these benefits. */
  benefit_id?: string[];
  /** Metadata values wanted, by key (see metadataFilters). */
  metadata: Map<string, string[]>;
}

export function pageOfProducts(db: Knex, filter: ProductFilter, page: { page: number; limit: number; sort: Sort<keyof typeof PRODUCT_SORTABLE> }) {
  // The product's first live price, for sorting by price.
  const firstPrice = db("product_prices")
    .distinctOn("product_id")
    .where({ is_archived: false })
    .orderBy([{ column: "product_id" }, { column: "position" }])
    .select("product_id", "amount_type", db.raw("coalesce(price_amount, minimum_amount, 0) as amount"))
    .as("first_price");
  const found = products(db).leftJoin(firstPrice, "first_price.product_id", "products.id").whereIn("products.organization_id", filter.organizationIds).select("products.*");
  if (filter.organization_id) void found.whereIn("products.organization_id", filter.organization_id);
  if (filter.ids) void found.whereIn("products.id", filter.ids);
  if (filter.name) void found.whereILike("products.name", `%${filter.name}%`);
  if (filter.is_archived !== undefined) void found.where("products.is_archived", filter.is_archived);
  if (filter.is_recurring !== undefined) void (filter.is_recurring ? found.whereNotNull("products.recurring_interval") : found.whereNull("products.recurring_interval"));
  if (filter.visibility) void found.whereIn("products.visibility", filter.visibility);
  if (filter.benefit_id) void found.whereIn("products.id", db("product_benefits").whereIn("benefit_id", filter.benefit_id).select("product_id"));
  whereMetadata(found, "products.metadata", filter.metadata);
  return pageOf<ProductRow, keyof typeof PRODUCT_SORTABLE>(found, { ...page, columns: PRODUCT_SORTABLE, table: "products" });
}

/** Adds prices after the product's existing ones. */
export async function addPrices(db: Knex, productId: string, prices: { price: PriceCreate; currency: string }[], startAt: number): Promise<void> {
  if (prices.length === 0) return;
  await db("product_prices").insert(prices.map(({ price, currency }, index) => ({ id: randomId(32), product_id: productId, position: startAt + index, ...priceColumns(price, currency) })));
}

/** A product's prices are kept when archived: orders and subscriptions refer to them. */
export const archivePricesExcept = (db: Knex, productId: string, keep: string[]) =>
  db("product_prices").where({ product_id: productId, is_archived: false }).whereNotIn("id", keep).update({ is_archived: true, modified_at: new Date() });

/** A deleted benefit leaves every product that granted it. */
export const unlinkBenefit = (db: Knex, benefitId: string) => db("product_benefits").where({ benefit_id: benefitId }).delete();

/** Replaces a product's links to benefits, media or custom fields, in the order given. */
export async function replaceLinks(db: Knex, table: "product_benefits" | "product_medias" | "product_custom_fields", productId: string, rows: Record<string, unknown>[]): Promise<void> {
  await db(table).where({ product_id: productId }).delete();
  if (rows.length > 0) await db(table).insert(rows.map((row, position) => ({ product_id: productId, position, ...row })));
}

/** The metered prices the products bill usage by, not archived. */
export const meteredPricesOf = (db: Knex, productIds: string[]) =>
  db<PriceRow>("product_prices").whereIn("product_id", productIds).where({ amount_type: "metered_unit", is_archived: false }).orderBy("position");

/** One price, archived or not (a subscription keeps the price it was bought at). */
/** Whether a live metered price of a product on sale measures with the meter. */
export const meterInUseByPrices = async (db: Knex, meterId: string): Promise<boolean> =>
  (await db("product_prices")
    .join("products", "products.id", "product_prices.product_id")
    .where({ "product_prices.meter_id": meterId, "product_prices.is_archived": false, "products.is_archived": false })
    .first("product_prices.id")) !== undefined;

export const findPrice = (db: Knex, id: string) => db<PriceRow>("product_prices").where({ id }).first();

export const pricesWithIds = (db: Knex, ids: string[]) => db<PriceRow>("product_prices").whereIn("id", ids);

/** The seller's products among those given that are not archived. */
export const unarchivedProductsOf = (db: Knex, organizationId: string, ids: string[]) => products(db).where({ organization_id: organizationId, is_archived: false }).whereIn("id", ids);

/** The ids of the products a seller sells in public, oldest first. */
export const publicProductIds = async (db: Knex, organizationId: string): Promise<string[]> =>
  (await products(db).where({ organization_id: organizationId, visibility: "public", is_archived: false }).orderBy("created_at").select("id")).map((product) => product.id);

/**
 * Narrows `query` over `table` (which names a product and a seller) to rows whose product's name,
 * or whose seller's, holds `text`: what a customer searches their purchases by in the portal.
 */
export function whereProductOrSellerNamed(db: Knex, query: Knex.QueryBuilder, table: string, text: string): void {
  const pattern = `%${text}%`;
  void query.where(
    (named) =>
      void named
        .whereIn(`${table}.product_id`, products(db).select("id").whereILike("name", pattern))
        // crosses into organizations: the seller's name, as the customer knows them.
        .orWhereIn(`${table}.organization_id`, db("organizations").select("id").whereILike("name", pattern)),
  );
}
