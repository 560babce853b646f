import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting, webUrl } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput } from "../http/metadata.js";
import { Discount } from "../discounts/schemas.js";
import { CheckoutLinkProduct } from "../products/schemas.js";
import { CHECKOUT_LINK_SORTABLE } from "./checkout-links.sql.js";

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
    seats: z.int().nullable(),
    units: z.int().nullable(),
    organization_id: z.string(),
    products: z.array(CheckoutLinkProduct),
    discount: Discount.nullable(),
    // Following it opens a fresh checkout.
    url: z.url(),
  })
  .meta({ id: "CheckoutLink" });

export const CheckoutLinkList = listResource(CheckoutLink, "ListResource_CheckoutLink_");

const settings = {
  label: z.string().max(256).nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  discount_id: z.string().nullish(),
  seats: z.int().min(1).max(10_000).nullish().meta({ description: "Seats every checkout the link opens sells, the buyer unable to change them; all its products must be seat-based and allow that many" }),
  success_url: webUrl().nullish(),
  return_url: webUrl().nullish(),
  metadata: metadataInput.optional(),
  trial_interval: z.null().optional(),
  trial_interval_count: z.null().optional(),
};
/** Polar's three ways to name what a link sells: products, one product, or one of its prices (its product). */
export const CheckoutLinkCreateBody = z.object({
  ...settings,
  payment_processor: z.literal("stripe").default("stripe"),
  products: z.array(z.string()).min(1).optional(),
  product_id: z.string().optional(),
  product_price_id: z.string().optional(),
});
/** A change to a link: what it sells and its settings. */
export const CheckoutLinkUpdateBody = z.object({ ...settings, products: z.array(z.string()).min(1).nullish() });
/** What following a link may fill in on the checkout it opens. */
export const CheckoutLinkPrefill = z.object({ customer_email: z.email().optional(), customer_name: z.string().max(256).optional(), discount_code: z.string().optional() });

/** The properties a list of checkout links may be sorted by. */
export const CHECKOUT_LINK_SORT_KEYS = Object.keys(CHECKOUT_LINK_SORTABLE) as (keyof typeof CHECKOUT_LINK_SORTABLE)[];

export const CheckoutLinkListQuery = z.object({ ...paging, ...sellerFilter, product_id: repeated(z.string()), sorting: sorting(CHECKOUT_LINK_SORT_KEYS, "-created_at") });
