import { pageOf, whereAnyOf, type Knex, type Sort } from "@tollgate/kit";
import { discounts, discountsWithProducts, type DiscountWithProducts } from "../discounts/discounts.sql.js";
import type { Metadata } from "../db/metadata.js";
import { productsWithParts, type ProductWithParts } from "../products/products.sql.js";

/** A lasting link that opens a fresh checkout for its products each time it is followed. */
export interface CheckoutLinkRow {
  id: string;
  organization_id: string;
  client_secret: string;
  product_ids: string[];
  label: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  discount_id: string | null;
  /** The seats every checkout it opens sells, the buyer unable to change them (null: the buyer chooses). */
  seats: number | null;
  success_url: string | null;
  return_url: string | null;
  metadata: Metadata;
  deleted_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

export type CheckoutLinkSettings = Pick<CheckoutLinkRow, "product_ids" | "label" | "allow_discount_codes" | "require_billing_address" | "discount_id" | "seats" | "success_url" | "return_url" | "metadata">;

export const checkoutLinks = (db: Knex) => db<CheckoutLinkRow>("checkout_links").whereNull("deleted_at");

export async function insertCheckoutLink(db: Knex, link: Pick<CheckoutLinkRow, "id" | "organization_id" | "client_secret"> & CheckoutLinkSettings): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links").insert(link).returning("*");
  if (!row) throw new Error("insert into checkout_links returned no row");
  return row;
}

export async function updateCheckoutLink(db: Knex, id: string, changes: Partial<CheckoutLinkSettings & Pick<CheckoutLinkRow, "deleted_at">>): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`checkout link ${id} is gone`);
  return row;
}

export const findCheckoutLink = (db: Knex, id: string) => checkoutLinks(db).where({ id }).first();

export const findCheckoutLinkBySecret = (db: Knex, clientSecret: string) => checkoutLinks(db).where({ client_secret: clientSecret }).first();

export const CHECKOUT_LINK_SORTABLE = { created_at: "created_at", label: "label" } as const;

/** One page of the sellers' links, narrowed to the sellers asked for. */
export function pageOfCheckoutLinks(db: Knex, organizationIds: string[], filters: { organization_id?: string[]; product_id?: string[] }, page: { page: number; limit: number; sort: Sort<keyof typeof CHECKOUT_LINK_SORTABLE> }) {
  const found = checkoutLinks(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["organization_id"]);
  // A link offering any of the products asked for.
  if (filters.product_id) void found.whereRaw("product_ids && ?::text[]", [filters.product_id]);
  return pageOf<CheckoutLinkRow, keyof typeof CHECKOUT_LINK_SORTABLE>(found, { ...page, columns: CHECKOUT_LINK_SORTABLE, table: "checkout_links" });
}

/** What links are shown with: their products and discounts. */
export interface LinkParts {
  products: ProductWithParts[];
  discounts: DiscountWithProducts[];
}

/** The products and discounts of the links given, with their parts, read for all at once. */
export async function linksWithParts(db: Knex, rows: CheckoutLinkRow[]): Promise<LinkParts> {
  const [linked, discounted] = await Promise.all([
    productsWithParts(db, [...new Set(rows.flatMap((row) => row.product_ids))]),
    discounts(db)
      .whereIn("id", rows.flatMap((row) => (row.discount_id ? [row.discount_id] : [])))
      .then((found) => discountsWithProducts(db, found)),
  ]);
  return { products: linked, discounts: discounted };
}
