import { benefitJson, benefitPublicJson } from "../benefits/output.js";
import { customFieldJson } from "../custom-fields/output.js";
import { fileJson } from "../files/output.js";
import { priceJson } from "./prices.js";
import type { ProductRow, ProductWithParts } from "./products.sql.js";

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
  // No meter cycle of its own: metered prices follow the billing interval, as Polar's do when none is set.
  meter_interval: null,
  meter_interval_count: null,
  is_recurring: product.recurring_interval !== null,
  is_archived: product.is_archived,
  organization_id: product.organization_id,
  metadata: product.metadata,
});

/**
 * A product as Polar shows it (and its webhooks carry it): with its prices (archived ones too),
 * benefits, media and custom fields.
 */
export function productJson(product: ProductWithParts, publicUrl: string) {
  return {
    ...productFieldsJson(product),
    prices: product.prices.map(priceJson),
    benefits: product.benefits.map(benefitJson),
    medias: product.medias.map((media) => fileJson(media, publicUrl)),
    attached_custom_fields: product.custom_fields.map(({ position, required, ...field }) => ({
      custom_field_id: field.id,
      custom_field: customFieldJson(field),
      order: position,
      required,
    })),
  };
}

export type ProductJson = ReturnType<typeof productJson>;

/**
 * A product as its seller sees it (Polar's Product): whether it may still be deleted, which holds
 * while nothing has named it (deletableProductIds).
 */
export const sellerProductJson = (product: ProductWithParts, publicUrl: string, deletable: boolean) => ({ ...productJson(product, publicUrl), is_deletable: deletable });

export type SellerProductJson = ReturnType<typeof sellerProductJson>;

/**
 * A product as buyers and customers see it (Polar's CheckoutProduct and CustomerProduct): its prices
 * and media, its benefits by what they are, and none of the seller's metadata or benefit settings.
 */
export function publicProductJson(product: ProductJson & { is_deletable?: boolean }) {
  const { metadata: _metadata, attached_custom_fields: _fields, is_deletable: _deletable, benefits, ...shown } = product;
  return { ...shown, benefits: benefits.map(benefitPublicJson) };
}
