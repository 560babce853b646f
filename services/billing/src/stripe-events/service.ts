import type Stripe from "stripe";
import type { Knex, Units } from "@tollgate/kit";
import { applyDisputeChange, type ProcessorDispute } from "../disputes/service.js";
import { CHECKOUT_METADATA } from "../payments/stripe.js";
import { receivePaymentEvent, receiveStripeEvent } from "./stripe-events.sql.js";

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

/** Stripe's dispute statuses in Polar's: a warning (an inquiry, before any chargeback) is Polar's early warning. */
const DISPUTE_STATUS: Record<Stripe.Dispute.Status, ProcessorDispute["status"]> = {
  warning_needs_response: "early_warning",
  warning_under_review: "early_warning",
  warning_closed: "prevented",
  prevented: "prevented",
  needs_response: "needs_response",
  under_review: "under_review",
  // An appeal is the seller's answer again, then the bank's review again.
  appeal_needs_response: "needs_response",
  appeal_under_review: "under_review",
  won: "won",
  lost: "lost",
};

const isDisputeEvent = (event: Stripe.Event): event is Stripe.ChargeDisputeCreatedEvent | Stripe.ChargeDisputeUpdatedEvent | Stripe.ChargeDisputeClosedEvent =>
  event.type === "charge.dispute.created" || event.type === "charge.dispute.updated" || event.type === "charge.dispute.closed";

/**
 * Applies one of Stripe's events, once: a delivery repeated is noted and ignored. An event about a
 * checkout's payment makes the payment worker ask after it now, if it waits: the worker holds the
 * rule (one settlement under the job's lock), whichever of the webhook and the synchronous answer
 * comes first.
 * A dispute's events may come in any order, so what is recorded is the dispute as Stripe has it now,
 * asked before the transaction. Refunds are settled by Stripe's answer to our own call; the event
 * only confirms it. Whether it was applied now (false: seen before).
 */
export async function applyStripeEvent(parts: { db: Knex; units: Units; stripe: Stripe; wakePayments: () => void }, event: Stripe.Event): Promise<boolean> {
  const checkoutId = checkoutOf(event);
  if (checkoutId) {
    const { received, hurried } = await receivePaymentEvent(parts.db, event, checkoutId);
    if (hurried) parts.wakePayments();
    return received;
  }
  const dispute = isDisputeEvent(event) ? await parts.stripe.disputes.retrieve(event.data.object.id) : null;
  return parts.units.run(async (unit) => {
    if (!(await receiveStripeEvent(unit.db, { id: event.id, type: event.type }))) return false;
    if (dispute) await applyDisputeChange(unit, processorDisputeOf(dispute));
    return true;
  });
}

/** The checkout whose payment an intent's event is about, if it is one of ours. */
function checkoutOf(event: Stripe.Event): string | undefined {
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.requires_action":
    case "setup_intent.succeeded":
    case "setup_intent.setup_failed":
      return event.data.object.metadata?.[CHECKOUT_METADATA];
    default:
      return undefined;
  }
}

function processorDisputeOf(dispute: Stripe.Dispute): ProcessorDispute {
  const paymentIntent = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
  if (!paymentIntent) throw new Error(`dispute ${dispute.id} names no payment intent`);
  return { processor: "stripe", processorDisputeId: dispute.id, processorPaymentId: paymentIntent, status: DISPUTE_STATUS[dispute.status] ?? "under_review",
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidence_details.due_by ? new Date(dispute.evidence_details.due_by * 1000) : null,
  };
}
