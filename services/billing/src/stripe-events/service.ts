import type Stripe from "stripe";
import type { UnitOfWork } from "@tollgate/kit";
import { hurryPayment } from "../checkouts/service.js";
import { CHECKOUT_METADATA } from "../payments/stripe.js";
import { receiveStripeEvent } from "./stripe-events.sql.js";

/** The events Stripe's webhook endpoint should send (the README's setup lists them); any other is taken and ignored. */
export const STRIPE_EVENT_TYPES = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.requires_action",
  "setup_intent.succeeded",
  "setup_intent.setup_failed",
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
] as const;

/**
 * Applies one of Stripe's events in `unit`, once: a delivery repeated is noted and ignored. An event
 * about a checkout's payment makes the payment worker ask after it now: the worker holds the rule
 * (one settlement under the job's lock), whichever of the webhook and the synchronous answer comes
 * first. Refunds are settled by Stripe's answer to our own call; the event only confirms it. Whether
 * it was applied now (false: seen before).
 */
export async function applyStripeEvent(unit: UnitOfWork, event: Stripe.Event, wakePayments: () => void): Promise<boolean> {
  if (!(await receiveStripeEvent(unit.db, { id: event.id, type: event.type }))) return false;
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.requires_action":
    case "setup_intent.succeeded":
    case "setup_intent.setup_failed": {
      const checkoutId = event.data.object.metadata?.[CHECKOUT_METADATA];
      if (checkoutId) await hurryPayment(unit, checkoutId, wakePayments);
      break;
    }
    default:
      break;
  }
  return true;
}
