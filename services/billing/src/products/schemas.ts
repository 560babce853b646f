import { z } from "zod";
import { isoTimestamp, listResource, paging, queryFlag, repeated, sorting, trimmedText } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { Benefit, BenefitPublic } from "../benefits/schemas.js";
import { AttachedCustomField } from "../custom-fields/schemas.js";
import { ProductMediaFileRead } from "../files/schemas.js";
import { TaxBehavior } from "../organizations/schemas.js";
import { priceCreate, priceUpdate } from "./prices.js";
import { PRODUCT_SORTABLE } from "./products.sql.js";

/** How often a subscription renews, and how long a trial lasts, in units of it. */
export const Interval = z.enum(["day", "week", "month", "year"]);

const priceFields = {
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  id: z.string(),
  source: z.literal("catalog"),
  price_currency: z.string(),
  tax_behavior: TaxBehavior.nullable(),
  is_archived: z.boolean(),
  product_id: z.string(),
};

/** A price as it goes out (priceJson): the fields of its amount type, every one present. */
export const ProductPrice = z
  .discriminatedUnion("amount_type", [
    z.strictObject({ ...priceFields, amount_type: z.literal("fixed"), price_amount: z.int() }).meta({ id: "ProductPriceFixed" }),
    z.strictObject({ ...priceFields, amount_type: z.literal("free") }).meta({ id: "ProductPriceFree" }),
    z.strictObject({ ...priceFields, amount_type: z.literal("custom"), minimum_amount: z.int(), maximum_amount: z.int().nullable(), preset_amount: z.int().nullable() }).meta({ id: "ProductPriceCustom" }),
    z
      .strictObject({
        ...priceFields,
        amount_type: z.literal("metered_unit"),
        unit_amount: z.string().meta({ description: "In the currency's minor unit, fractions allowed" }),
        cap_amount: z.int().nullable(),
        meter_id: z.string(),
        meter: z
          .strictObject({ id: z.string(), name: z.string(), unit: z.enum(["scalar", "token", "custom"]), custom_label: z.string().nullable(), custom_multiplier: z.number().nullable() })
          .meta({ id: "ProductPriceMeter" }),
      })
      .meta({ id: "ProductPriceMeteredUnit" }),
    z
      .strictObject({
        ...priceFields,
        amount_type: z.literal("seat_based"),
        seat_tiers: z
          .strictObject({
            seat_tier_type: z.enum(["volume", "graduated"]),
            tiers: z.array(z.strictObject({ min_seats: z.int(), max_seats: z.int().nullable(), price_per_seat: z.int() }).meta({ id: "ProductPriceSeatTier" })),
            minimum_seats: z.int().meta({ description: "The fewest seats a purchase may have: where the first tier starts" }),
            maximum_seats: z.int().nullable().meta({ description: "The most seats a purchase may have: where the last tier ends (null: no limit)" }),
          })
          .meta({ id: "ProductPriceSeatTiersOutput" }),
      })
      .meta({ id: "ProductPriceSeatBased" }),
  ])
  .meta({ id: "ProductPrice" });

/** A product's own fields, without prices, benefits or media (productFieldsJson): Polar names them for where they appear. */
export const productFields = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  trial_interval: Interval.nullable(),
  trial_interval_count: z.int().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  visibility: z.enum(["public", "private", "draft"]),
  recurring_interval: Interval.nullable(),
  recurring_interval_count: z.int().nullable(),
  meter_interval: Interval.nullable(),
  meter_interval_count: z.int().nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.string(),
  metadata: metadataOutput,
};

/** A product with its prices (archived ones too), benefits, media and custom fields. */
const productWithParts = {
  ...productFields,
  prices: z.array(ProductPrice),
  benefits: z.array(Benefit),
  medias: z.array(ProductMediaFileRead),
  attached_custom_fields: z.array(AttachedCustomField),
};

/** A product as its seller reads it, with whether it may still be deleted (sellerProductJson). */
export const Product = z.strictObject({ ...productWithParts, is_deletable: z.boolean() }).meta({ id: "Product" });

/** A product as a checkout link offers it (named by the link, so never deletable, and Polar leaves that out). */
export const CheckoutLinkProduct = z.strictObject(productWithParts).meta({ id: "CheckoutLinkProduct" });

export const ProductList = listResource(Product, "ListResource_Product_");

const { metadata: _metadata, ...publicFields } = productFields;

/** A product as buyers and customers see it (publicProductJson). */
const publicProduct = z.strictObject({ ...publicFields, prices: z.array(ProductPrice), benefits: z.array(BenefitPublic), medias: z.array(ProductMediaFileRead) });

/** The same, under the names Polar gives it where it appears. */
export const CheckoutProduct = publicProduct.meta({ id: "CheckoutProduct" });
export const CustomerProduct = publicProduct.meta({ id: "CustomerProduct" });

const attachedFields = z.array(z.object({ custom_field_id: z.string(), required: z.boolean() }));
const details = {
  name: trimmedText({ min: 3, max: 256 }),
  description: z.string().nullish(),
  visibility: z.enum(["public", "private", "draft"]).optional(),
  medias: z.array(z.string()).nullish(),
  attached_custom_fields: attachedFields.optional(),
  metadata: metadataInput.default({}),
  trial_interval: Interval.nullish(),
  trial_interval_count: z.int().min(1).max(1000).nullish(),
};

/** One-time when no interval is given; recurring (every `recurring_interval_count` intervals) otherwise. */
export const ProductCreate = z.object({
  ...details,
  organization_id: z.string().nullish(),
  prices: z.array(priceCreate).min(1),
  recurring_interval: Interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
});

export const ProductUpdate = z.object({
  name: details.name.nullish(),
  description: details.description,
  visibility: details.visibility.nullish(),
  is_archived: z.boolean().nullish(),
  prices: z.array(priceUpdate).min(1).nullish(),
  medias: details.medias,
  attached_custom_fields: attachedFields.nullish(),
  metadata: metadataInput.optional(),
  recurring_interval: Interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
  trial_interval: details.trial_interval,
  trial_interval_count: details.trial_interval_count,
});

/** The media and custom fields a product is shown with, as a seller sets them; those left out stay. */
export type ProductLinks = Pick<z.output<typeof ProductUpdate>, "medias" | "attached_custom_fields">;

/** The properties a list of products may be sorted by. */
export const PRODUCT_SORT_KEYS = Object.keys(PRODUCT_SORTABLE) as (keyof typeof PRODUCT_SORTABLE)[];

export const ProductListQuery = z.object({
  metadata: metadataQuery,
  ...paging,
  ...sellerFilter,
  id: repeated(z.string()),
  query: z.string().optional(),
  is_archived: queryFlag().optional(),
  is_recurring: queryFlag().optional(),
  benefit_id: repeated(z.string()),
  visibility: repeated(z.enum(["public", "private", "draft"])),
  sorting: sorting(PRODUCT_SORT_KEYS, "-created_at"),
});

export const ProductBenefitsUpdate = z.object({ benefits: z.array(z.string()) });
