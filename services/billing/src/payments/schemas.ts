import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** What is shown of a card: never its number. */
export const PaymentMethodCardMetadata = z.strictObject({ brand: z.string(), last4: z.string(), exp_month: z.int(), exp_year: z.int() }).meta({ id: "PaymentMethodCardMetadata" });

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
