import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** What is shown of a card: never its number. */
export const PaymentMethodCardMetadata = z.strictObject({ brand: z.string(), last4: z.string(), exp_month: z.int(), exp_year: z.int() }).meta({ id: "PaymentMethodCardMetadata" });

/** The sandbox's single-use stand-in for a card, as Stripe.js's confirmation token is. */
export const SandboxConfirmationToken = z.strictObject({ id: z.string(), card: PaymentMethodCardMetadata, expires_at: isoTimestamp() }).meta({ id: "SandboxConfirmationToken" });
