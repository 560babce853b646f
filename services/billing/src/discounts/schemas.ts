import { z } from "zod";
import { isoTimestamp, listResource } from "@tollgate/kit";
import { metadataOutput } from "../api/metadata.js";
import { productFields } from "../products/schemas.js";

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
    redemptions_count: z.int(),
    organization_id: z.string(),
    products: z.array(DiscountProduct),
  },
  "Discount",
).meta({ id: "Discount" });

export const DiscountList = listResource(Discount, "ListResource_Discount_");
