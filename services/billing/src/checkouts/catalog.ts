import { prepared, type Knex } from "@tollgate/kit";
import { rowsFromJson } from "../api/jsonb.js";
import type { DiscountRow } from "../discounts/discounts.sql.js";
import type { SellerRow } from "../organizations/organizations.sql.js";
import type { PriceRow } from "../products/prices.js";
import { PRODUCT_PARTS, withParts, type ProductWithJsonParts, type ProductWithParts } from "../products/products.sql.js";
import { checkoutFromJson, type CheckoutRow } from "./checkouts.sql.js";

/**
 * What checkouts refer to: their products with everything shown with them, those products'
 * sellers, and the discounts applied. A checkout's JSON, the checks on its confirmation and the
 * order it becomes are all made from this, read once, rather than each reading again.
 */
export interface CheckoutCatalog {
  products: Map<string, ProductWithParts>;
  sellers: Map<string, SellerRow>;
  discounts: Map<string, DiscountRow>;
}

/**
 * The catalog as three JSON columns of a select list, for the product and discount ids the SQL
 * expressions given yield (text arrays): to read a checkout and its catalog in one statement.
 */
export const catalogColumns = (productIds: string, discountIds: string) => `
  (select coalesce(json_agg(product), '[]') from (select product.*, ${PRODUCT_PARTS} from products product where product.id = any(${productIds})) product) as catalog_products,
  (select coalesce(json_agg(seller), '[]') from organizations seller
    where seller.deleted_at is null and seller.id in (select organization_id from products where id = any(${productIds}))) as catalog_sellers,
  (select coalesce(json_agg(discount), '[]') from discounts discount where discount.deleted_at is null and discount.id = any(${discountIds})) as catalog_discounts`;

export type CatalogColumns = Record<"catalog_products" | "catalog_sellers" | "catalog_discounts", unknown[]>;

/** A row read with {@link catalogColumns}, split into its own columns and the catalog. */
export function withCatalog<Row>(row: Row & CatalogColumns): { row: Row; catalog: CheckoutCatalog } {
  const { catalog_products, catalog_sellers, catalog_discounts, ...own } = row;
  return { row: own as Row, catalog: catalogFrom({ catalog_products, catalog_sellers, catalog_discounts }) };
}

function catalogFrom(columns: CatalogColumns): CheckoutCatalog {
  return {
    products: new Map((columns.catalog_products as ProductWithJsonParts[]).map((row) => [row.id, withParts(row, true)])),
    sellers: new Map(rowsFromJson<SellerRow>(columns.catalog_sellers, ["details_submitted_at", "created_at", "modified_at", "deleted_at"]).map((seller) => [seller.id, seller])),
    discounts: new Map(rowsFromJson<DiscountRow>(columns.catalog_discounts, ["starts_at", "ends_at", "created_at", "modified_at", "deleted_at"]).map((discount) => [discount.id, discount])),
  };
}

/** Products (with their sellers) and discounts by id, in one statement (prepared: planning it took most of its time). */
export async function readCatalog(db: Knex, productIds: readonly string[], discountIds: readonly (string | null)[] = []): Promise<CheckoutCatalog> {
  const { rows } = await prepared(
    db.raw<{ rows: CatalogColumns[] }>(`select ${catalogColumns("?::text[]", "?::text[]")}`, [[...productIds], [...productIds], discountIds.filter((id): id is string => id !== null)]),
  );
  const [columns] = rows;
  if (!columns) throw new Error("the catalog query returned no row");
  return catalogFrom(columns);
}

/** What the checkouts given refer to. */
export const catalogOf = (db: Knex, checkouts: Pick<CheckoutRow, "product_ids" | "discount_id">[]) =>
  readCatalog(
    db,
    checkouts.flatMap((checkout) => checkout.product_ids),
    checkouts.map((checkout) => checkout.discount_id),
  );

/** A checkout by id or client secret with its catalog, in one statement; locked (FOR UPDATE) when read in a transaction that will change it. */
export async function checkoutWithCatalog(db: Knex, which: Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">, lock: boolean): Promise<{ checkout: CheckoutRow; catalog: CheckoutCatalog } | null> {
  const [column, value] = "id" in which ? ["id", which.id] : ["client_secret", which.client_secret];
  const { rows } = await prepared(
    db.raw<{ rows: ({ checkout: unknown } & CatalogColumns)[] }>(
      `select to_json(checkout) as checkout, ${catalogColumns("checkout.product_ids", "array[checkout.discount_id]")} from checkouts checkout where checkout.${column} = ?${lock ? " for update of checkout" : ""}`,
      [value],
    ),
  );
  const [found] = rows;
  if (!found) return null;
  const { row, catalog } = withCatalog(found);
  return { checkout: checkoutFromJson(row.checkout), catalog };
}

/** One checkout's part of the catalog: its products in its order, the chosen one at its price, its seller and discount. */
export function offerOf(catalog: CheckoutCatalog, checkout: Pick<CheckoutRow, "id" | "organization_id" | "product_ids" | "product_id" | "product_price_id" | "discount_id">) {
  const products = checkout.product_ids.flatMap((id) => catalog.products.get(id) ?? []);
  const product = products.find((candidate) => candidate.id === checkout.product_id);
  const price: PriceRow | undefined = product?.prices.find((candidate) => candidate.id === checkout.product_price_id);
  const seller = catalog.sellers.get(checkout.organization_id);
  if (!product || !price || !seller) throw new Error(`checkout ${checkout.id} has lost its product, price or seller`);
  const discount = checkout.discount_id ? (catalog.discounts.get(checkout.discount_id) ?? null) : null;
  return { products, product, price, seller, discount };
}

export type Offer = ReturnType<typeof offerOf>;
