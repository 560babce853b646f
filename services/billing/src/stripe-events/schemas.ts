import { z } from "zod";

/** Stripe reads only the status; the body says what became of the event, for whoever looks at the delivery. */
export const StripeWebhookReceipt = z.strictObject({ received: z.literal(true), applied: z.boolean() }).meta({ id: "StripeWebhookReceipt" });
