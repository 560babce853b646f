import { z } from "zod";
import { isoTimestamp, listResource } from "@tollgate/kit";
import { metadataOutput } from "../api/metadata.js";
import { Discount } from "../discounts/schemas.js";
import { Product } from "../products/schemas.js";

export const CheckoutLink = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    trial_interval: z.null(),
    trial_interval_count: z.null(),
    metadata: metadataOutput,
    payment_processor: z.literal("stripe"),
    client_secret: z.string(),
    success_url: z.string().nullable(),
    return_url: z.string().nullable(),
    label: z.string().nullable(),
    allow_discount_codes: z.boolean(),
    require_billing_address: z.boolean(),
    discount_id: z.string().nullable(),
    organization_id: z.string(),
    products: z.array(Product),
    discount: Discount.nullable(),
    // Following it opens a fresh checkout.
    url: z.url(),
  })
  .meta({ id: "CheckoutLink" });

export const CheckoutLinkList = listResource(CheckoutLink, "ListResource_CheckoutLink_");
