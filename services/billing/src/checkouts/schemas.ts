import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting, webUrl } from "@tollgate/kit";
import { addressInput } from "../http/address.js";
import { customerFilter, saleListFilters } from "../http/list-filters.js";
import { metadataInput, metadataOutput } from "../http/metadata.js";
import { AttachedCustomField, CustomFieldData } from "../custom-fields/schemas.js";
import { Address } from "../http/address.js";
import { discountForms } from "../discounts/schemas.js";
import { CustomerOrganization } from "../organizations/schemas.js";
import { priceAmount } from "../products/prices.js";
import { CheckoutProduct, Interval, ProductPrice } from "../products/schemas.js";
import { CHECKOUT_SORTABLE } from "./checkouts.sql.js";

const BillingAddressFieldMode = z.enum(["required", "optional", "disabled"]);

/** The fields both the seller and the customer's page see (checkoutJson, checkoutPublicJson). */
const checkoutFields = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  custom_field_data: CustomFieldData,
  // The published SDK knows no other processor; the sandbox stands in for Stripe's test mode.
  payment_processor: z.literal("stripe"),
  status: z.enum(["open", "expired", "confirmed", "succeeded", "failed"]),
  seats: z.int().nullable().meta({ description: "The seats bought of a seat-based price; null for any other" }),
  min_seats: z.int().nullable().meta({ description: "The fewest seats the buyer may choose, when the seller narrowed the price's tiers" }),
  max_seats: z.int().nullable().meta({ description: "The most seats the buyer may choose, when the seller narrowed the price's tiers" }),
  units: z.int().nullable(),
  min_units: z.int().nullable(),
  max_units: z.int().nullable(),
  payment_method_type: z.string().nullable(),
  client_secret: z.string(),
  url: z.url(),
  expires_at: isoTimestamp(),
  success_url: z.string(),
  return_url: z.string().nullable(),
  embed_origin: z.string().nullable(),
  amount: z.int(),
  discount_amount: z.int(),
  net_amount: z.int(),
  tax_amount: z.int().nullable(),
  total_amount: z.int(),
  tax_behavior: z.enum(["inclusive", "exclusive"]).nullable(),
  currency: z.string(),
  allow_trial: z.boolean(),
  active_trial_interval: Interval.nullable(),
  active_trial_interval_count: z.int().nullable(),
  trial_end: z.null(),
  organization_id: z.string(),
  product_id: z.string(),
  product_price_id: z.string(),
  discount_id: z.string().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  is_discount_applicable: z.boolean(),
  is_free_product_price: z.boolean(),
  is_payment_required: z.boolean(),
  is_payment_setup_required: z.boolean(),
  is_payment_form_required: z.boolean(),
  customer_id: z.string().nullable(),
  is_business_customer: z.boolean(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_ip_address: z.string().nullable(),
  customer_billing_name: z.string().nullable(),
  customer_billing_address: Address.nullable(),
  customer_tax_id: z.string().nullable(),
  locale: z.string().nullable(),
  payment_processor_metadata: z.strictObject({
    publishable_key: z.string().optional(),
    intent_status: z.literal("requires_action").optional(),
    intent_client_secret: z.string().optional(),
    payment_error: z.string().optional(),
  }),
  billing_address_fields: z
    .strictObject({
      country: BillingAddressFieldMode,
      state: BillingAddressFieldMode,
      city: BillingAddressFieldMode,
      postal_code: BillingAddressFieldMode,
      line1: BillingAddressFieldMode,
      line2: BillingAddressFieldMode,
    })
    .meta({ id: "CheckoutBillingAddressFields" }),
  products: z.array(CheckoutProduct),
  product: CheckoutProduct.nullable(),
  product_price: ProductPrice,
  // Each product's live prices, by product id.
  prices: z.record(z.string(), z.array(ProductPrice)),
  // A discount as a checkout shows it: its terms and code, not its bookkeeping.
  discount: discountForms({ id: z.string(), name: z.string(), code: z.string().nullable() }, "CheckoutDiscount").nullable(),
  attached_custom_fields: z.array(AttachedCustomField),
};

/** The checkout as its seller sees it. */
export const Checkout = z
  .strictObject({
    ...checkoutFields,
    trial_interval: z.null(),
    trial_interval_count: z.null(),
    metadata: metadataOutput,
    external_customer_id: z.string().nullable(),
    subscription_id: z.null(),
    customer_metadata: metadataOutput,
  })
  .meta({ id: "Checkout" });

export const CheckoutList = listResource(Checkout, "ListResource_Checkout_");

/** The checkout as the customer's page sees it: no seller metadata, with the seller's name. */
export const CheckoutPublic = z.strictObject({ ...checkoutFields, organization: CustomerOrganization }).meta({ id: "CheckoutPublic" });

/** The checkout once confirmed. */
export const CheckoutPublicConfirmed = CheckoutPublic.extend({
  customer_session_token: z.string().nullable().meta({ description: "Opens the customer portal for an hour, for a customer this checkout made; null for one that existed" }),
}).meta({ id: "CheckoutPublicConfirmed" });

const email = z.email().transform((value) => value.toLowerCase());

/** A number of seats, within Polar's bounds for one checkout. */
const seatCount = z.int().min(1).max(10_000);

/** What both the seller and the customer may set about the buyer. */
const customerDetails = {
  customer_name: z.string().max(256).nullish(),
  customer_email: email.nullish(),
  customer_billing_name: z.string().max(256).nullish(),
  customer_billing_address: addressInput.nullish(),
  customer_tax_id: z.string().max(64).nullish(),
  is_business_customer: z.boolean().nullish(),
  locale: z.string().max(16).nullish(),
  custom_field_data: CustomFieldData.optional(),
  product_id: z.string().nullish(),
  product_price_id: z.string().nullish(),
  amount: priceAmount.nullish(),
  seats: seatCount.nullish(),
};

/** Seller-side settings, on creation and update alike. */
const sellerSettings = {
  metadata: metadataInput.optional(),
  customer_metadata: metadataInput.optional(),
  discount_id: z.string().nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  allow_trial: z.boolean().nullish(),
  customer_ip_address: z.string().max(64).nullish(),
  success_url: webUrl().nullish(),
  return_url: webUrl().nullish(),
  embed_origin: webUrl().nullish(),
};

/** Parts of Polar's create body this build cannot honour yet: refused by name rather than ignored. */
const notYet = z.null().optional();

/** A seller's new checkout, its seats within the bounds it sets (checked as Polar does, before the price is known). */
export const CheckoutCreateBody = z
  .object({
    ...customerDetails,
    ...sellerSettings,
    products: z.array(z.string()).min(1),
    customer_id: z.string().nullish(),
    external_customer_id: z.string().min(1).nullish(),
    currency: z.string().regex(/^[A-Za-z]{3}$/).transform((value) => value.toLowerCase()).nullish(),
    prices: notYet,
    min_seats: seatCount.nullish(),
    max_seats: seatCount.nullish(),
    subscription_id: notYet,
  })
  .superRefine((body, context) => {
    const { seats, min_seats: least, max_seats: most } = body;
    const refuse = (message: string) => context.addIssue({ code: "custom", message, path: [] });
    if (least != null && most != null && least > most) refuse("min_seats must be less than or equal to max_seats");
    if (seats != null && least != null && seats < least) refuse("seats must be greater than or equal to min_seats");
    if (seats != null && most != null && seats > most) refuse("seats must be less than or equal to max_seats");
  });

/** A seller's change to an open checkout. */
export const CheckoutUpdateBody = z.object({ ...customerDetails, ...sellerSettings });
/** The customer's change on the checkout page. */
export const CheckoutClientUpdateBody = z.object({ ...customerDetails, discount_code: z.string().nullish() });
/** The customer's confirmation, with the card as a confirmation token. */
export const CheckoutConfirmBody = CheckoutClientUpdateBody.extend({ confirmation_token_id: z.string().nullish() });

/** The properties a list of checkouts may be sorted by. */
export const CHECKOUT_SORT_KEYS = Object.keys(CHECKOUT_SORTABLE) as (keyof typeof CHECKOUT_SORTABLE)[];

export const CheckoutListQuery = z.object({
  ...paging,
  ...saleListFilters,
  external_customer_id: customerFilter.external_customer_id,
  status: repeated(z.enum(["open", "expired", "confirmed", "succeeded", "failed"])),
  query: z.string().optional(),
  sorting: sorting(CHECKOUT_SORT_KEYS, "-created_at"),
});
