import type Stripe from "stripe";
import type { StripeSettings } from "../payments/stripe.js";
import { defineEndpoint, HttpError, polarErrors, rawBodyOf, type Endpoint, type Knex, type Units } from "@tollgate/kit";
import { applyStripeEvent } from "./service.js";
import { StripeWebhookReceipt } from "./schemas.js";

/**
 * Stripe's webhooks, at Polar's path. The signature is checked over the body's exact bytes with the
 * endpoint's secret (STRIPE_WEBHOOK_SECRET); a forged or stale one is refused with 400, which
 * Stripe shows in its dashboard. A fault applying it answers 500, and Stripe sends it again.
 */
export function stripeWebhookEndpoints(parts: { db: Knex; units: Units; wakePayments: () => void }, stripe: StripeSettings): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/integrations/stripe/webhook",
      { method: "POST", response: StripeWebhookReceipt, summary: "Receive Stripe's events", tag: "integrations/stripe" },
      async ({ req }) => {
        let event: Stripe.Event;
        try {
          event = stripe.client.webhooks.constructEvent(rawBodyOf(req) ?? "", req.header("stripe-signature") ?? "", stripe.webhookSecret);
        } catch (error) {
          throw new HttpError(400, polarErrors.codes.bad_request, error instanceof Error ? error.message : "the signature does not match");
        }
        const applied = await applyStripeEvent({ ...parts, stripe: stripe.client }, event);
        return { received: true as const, applied };
      },
    ),
  ];
}
