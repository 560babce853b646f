import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, pgInteger, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput } from "../http/metadata.js";
import { priceAmount } from "../products/prices.js";
import { productFields } from "../products/schemas.js";
import { DISCOUNT_SORTABLE } from "./discounts.sql.js";

/** A discount's terms: its amount by type, and how long it lasts by duration. */
const fixed = { type: z.literal("fixed"), amount: z.int(), currency: z.string(), amounts: z.record(z.string(), z.int()) };
const percentage = { type: z.literal("percentage"), basis_points: z.int() };
const onceOrForever = { duration: z.enum(["once", "forever"]) };
const repeating = { duration: z.literal("repeating"), duration_in_months: z.int() };

/** A discount's four forms around the fields given, told apart by type and then duration, named as Polar names them after `prefix`. */
export function discountForms<Fields extends z.core.$ZodShape>(fields: Fields, prefix: string) {
  const form = <Terms extends z.core.$ZodShape, Duration extends z.core.$ZodShape>(terms: Terms, duration: Duration, name: string) =>
    z.strictObject({ ...fields, ...terms, ...duration }).meta({ id: `${prefix}${name}` });
  return z.discriminatedUnion("type", [
    z.discriminatedUnion("duration", [form(fixed, onceOrForever, "FixedOnceForeverDuration"), form(fixed, repeating, "FixedRepeatDuration")]),
    z.discriminatedUnion("duration", [form(percentage, onceOrForever, "PercentageOnceForeverDuration"), form(percentage, repeating, "PercentageRepeatDuration")]),
  ]);
}

const DiscountProduct = z.strictObject(productFields).meta({ id: "DiscountProduct" });

export const Discount = discountForms(
  {
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    metadata: metadataOutput,
    name: z.string(),
    code: z.string().nullable(),
    starts_at: isoTimestamp().nullable(),
    ends_at: isoTimestamp().nullable(),
    max_redemptions: z.int().nullable(),
    max_redemptions_per_customer: z.int().nullable(),
    redemptions_count: z.int(),
    organization_id: z.string(),
    products: z.array(DiscountProduct),
  },
  "Discount",
).meta({ id: "Discount" });

export const DiscountList = listResource(Discount, "ListResource_Discount_");

/** A code people type at checkout: letters, digits, - and _, 3 to 256 of them. */
const code = z.string().regex(/^[A-Za-z0-9_-]{3,256}$/, { error: "Use 3 to 256 letters, digits, - or _" });
const date = momentInput();
const common = {
  name: z.string().min(1).max(256),
  code: code.nullish(),
  starts_at: date.nullish(),
  ends_at: date.nullish(),
  max_redemptions: pgInteger().min(1).nullish(),
  products: z.array(z.string()).nullish(),
  metadata: metadataInput.default({}),
  organization_id: z.string().nullish(),
  duration: z.enum(["once", "forever", "repeating"]),
  duration_in_months: z.int().min(1).max(999).nullish(),
};

export const DiscountCreate = z.discriminatedUnion("type", [
  z.object({
    ...common,
    type: z.literal("fixed"),
    amount: priceAmount.min(1).nullish(),
    currency: z.string().regex(/^[A-Za-z]{3}$/).nullish(),
    amounts: z.record(z.string(), priceAmount.min(1)).nullish(),
  }),
  z.object({ ...common, type: z.literal("percentage"), basis_points: z.int().min(1).max(10_000) }),
]);

export const DiscountUpdate = z.object({
  name: common.name.nullish(),
  code: code.nullish(),
  starts_at: date.nullish(),
  ends_at: date.nullish(),
  max_redemptions: pgInteger().min(1).nullish(),
  products: z.array(z.string()).nullish(),
  metadata: metadataInput.optional(),
  duration: common.duration.nullish(),
  duration_in_months: common.duration_in_months,
  type: z.enum(["fixed", "percentage"]).nullish(),
  amount: priceAmount.min(1).nullish(),
  currency: z.string().regex(/^[A-Za-z]{3}$/).nullish(),
  basis_points: z.int().min(1).max(10_000).nullish(),
});

/** The properties a list of discounts may be sorted by. */
export const DISCOUNT_SORT_KEYS = Object.keys(DISCOUNT_SORTABLE) as (keyof typeof DISCOUNT_SORTABLE)[];

export const DiscountListQuery = z.object({ ...paging, ...sellerFilter, query: z.string().optional(), sorting: sorting(DISCOUNT_SORT_KEYS, "-created_at") });
