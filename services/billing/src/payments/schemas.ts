import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { PAYMENT_SORTABLE } from "./payments.sql.js";

/** What is shown of a card: never its number. */
export const PaymentMethodCardMetadata = z.strictObject({ brand: z.string(), last4: z.string(), exp_month: z.int(), exp_year: z.int() }).meta({ id: "PaymentMethodCardMetadata" });

/** A kept card, as Polar shows a customer's payment method. */
export const PaymentMethodCard = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    processor: z.literal("stripe"),
    customer_id: z.string(),
    type: z.literal("card"),
    method_metadata: PaymentMethodCardMetadata,
    is_default: z.boolean().meta({ description: "Whether renewals and new subscriptions are charged to this card" }),
  })
  .meta({ id: "PaymentMethodCard" });

/** The sandbox's single-use stand-in for a card, as Stripe.js's confirmation token is. */
export const SandboxConfirmationToken = z.strictObject({ id: z.string(), card: PaymentMethodCardMetadata, expires_at: isoTimestamp() }).meta({ id: "SandboxConfirmationToken" });

/** A test card typed into the sandbox's payment form. */
export const SandboxCardInput = z.object({
  /**
   * Spaces and dashes, as people type them, are ignored. The pattern is on the text as sent, so that
   * the API's description says what is taken (a pattern after the transform would not be described).
   */
  card_number: z
    .string()
    .regex(/^[\s-]*(?:\d[\s-]*){12,19}$/, { error: "Enter the card number's 12 to 19 digits" })
    .transform((value) => value.replace(/[\s-]/g, "")),
  exp_month: z.int().min(1).max(12),
  exp_year: z.int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, { error: "Enter the 3 or 4 digits on the back of the card" }),
});

const paymentFields = {
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  id: z.string(),
  processor: z.literal("stripe"),
  status: z.enum(["pending", "succeeded", "failed"]),
  amount: z.int(),
  currency: z.string(),
  decline_reason: z.string().nullable(),
  decline_message: z.string().nullable(),
  organization_id: z.string(),
  checkout_id: z.string().nullable(),
  order_id: z.string().nullable(),
  trigger: z.enum(["purchase", "subscription_cycle", "retry_dunning", "retry_customer", "retry_payment_method_update", "retry_admin"]).nullable(),
  processor_metadata: z.record(z.string(), z.string()),
};

/** A charge attempt, as Polar's Payment: by card, with its brand and last four digits when the processor saw the card. */
export const Payment = z
  .union([
    z.strictObject({ ...paymentFields, method: z.literal("card"), method_metadata: z.strictObject({ brand: z.string(), last4: z.string() }).meta({ id: "CardPaymentMetadata" }) }).meta({ id: "CardPayment" }),
    z.strictObject({ ...paymentFields, method: z.string() }).meta({ id: "GenericPayment" }),
  ])
  .meta({ id: "Payment" });

export const PaymentList = listResource(Payment, "ListResource_Payment_");

export const PaymentListQuery = z.object({
  ...sellerFilter,
  checkout_id: repeated(z.string()),
  order_id: repeated(z.string()),
  status: repeated(z.enum(["pending", "succeeded", "failed"])),
  method: repeated(z.string()),
  customer_id: repeated(z.string()),
  customer_email: repeated(z.string()),
  ...paging,
  sorting: sorting(Object.keys(PAYMENT_SORTABLE) as (keyof typeof PAYMENT_SORTABLE)[], "-created_at"),
});

/** A page of a customer's kept cards, as a seller reads them (Polar's ListResource[PaymentMethod]). */
export const CustomerPaymentMethodList = listResource(PaymentMethodCard, "ListResource_PaymentMethod_");

export const CustomerPaymentMethodListQuery = z.object({ ...paging });
