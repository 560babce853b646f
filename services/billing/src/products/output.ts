import type { Knex } from "@tollgate/kit";
import { benefitsOfProducts } from "../benefits/benefits.sql.js";
import { benefitJson } from "../benefits/output.js";
import { customFieldJson } from "../custom-fields/output.js";
import type { CustomFieldRow } from "../custom-fields/custom-fields.sql.js";
import type { FileRow } from "../files/files.sql.js";
import { fileJson } from "../files/output.js";
import { priceJson, pricesOfProducts } from "./prices.js";
import type { ProductRow } from "./products.sql.js";

/** Groups rows by a key, keeping their order. */
function grouped<Row>(rows: Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

/**
 * Products as Polar shows them (and its webhooks carry them): with their prices (archived ones
 * too), benefits, media and custom fields, read for all of them at once.
 */
/** A product's own fields, without prices, benefits or media: all a discount lists of it. */
export const productFieldsJson = (product: ProductRow) => ({
  id: product.id,
  created_at: product.created_at,
  modified_at: product.modified_at,
  trial_interval: product.trial_interval,
  trial_interval_count: product.trial_interval_count,
  name: product.name,
  description: product.description,
  visibility: product.visibility,
  recurring_interval: product.recurring_interval,
  recurring_interval_count: product.recurring_interval_count,
  is_recurring: product.recurring_interval !== null,
  is_archived: product.is_archived,
  organization_id: product.organization_id,
  metadata: product.metadata,
});

export async function productsJson(db: Knex, rows: ProductRow[], publicUrl: string) {
  const ids = rows.map((product) => product.id);
  const [prices, benefits, medias, fields] = await Promise.all([
    pricesOfProducts(db, ids),
    benefitsOfProducts(db, ids),
    db<FileRow>("files")
      .join("product_medias", "product_medias.file_id", "files.id")
      .whereIn("product_medias.product_id", ids)
      .whereNull("files.deleted_at")
      .orderBy("product_medias.position")
      .select<(FileRow & { product_id: string })[]>("files.*", "product_medias.product_id"),
    db<CustomFieldRow>("custom_fields")
      .join("product_custom_fields", "product_custom_fields.custom_field_id", "custom_fields.id")
      .whereIn("product_custom_fields.product_id", ids)
      .orderBy("product_custom_fields.position")
      .select<(CustomFieldRow & { product_id: string; position: number; required: boolean })[]>("custom_fields.*", "product_custom_fields.product_id", "product_custom_fields.position", "product_custom_fields.required"),
  ]);
  const pricesBy = grouped(prices, (price) => price.product_id);
  const mediasBy = grouped(medias, (media) => media.product_id);
  const fieldsBy = grouped(fields, (field) => field.product_id);
  return rows.map((product) => ({
    ...productFieldsJson(product),
    prices: (pricesBy.get(product.id) ?? []).map(priceJson),
    benefits: (benefits.get(product.id) ?? []).map(benefitJson),
    medias: (mediasBy.get(product.id) ?? []).map(({ product_id: _product, ...media }) => fileJson(media, publicUrl)),
    attached_custom_fields: (fieldsBy.get(product.id) ?? []).map(({ product_id: _product, position, required, ...field }) => ({
      custom_field_id: field.id,
      custom_field: customFieldJson(field),
      order: position,
      required,
    })),
  }));
}

export async function productJson(db: Knex, product: ProductRow, publicUrl: string) {
  const [json] = await productsJson(db, [product], publicUrl);
  if (!json) throw new Error(`product ${product.id} could not be shown`);
  return json;
}
