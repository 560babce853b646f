import type { PaymentMethodRow, PaymentRow } from "./payments.sql.js";
import type { CardSummary } from "./processor.js";

/**
 * Polar's Payment: a card payment with what was shown of the card, or, when the processor never saw
 * the card (a token used up), a payment by card with nothing to show of it. Polar's SDK knows one
 * processor, `stripe`; the sandbox stands in for Stripe's test mode, as on checkouts.
 */
export function paymentJson(payment: PaymentRow) {
  const common = {
    created_at: payment.created_at,
    modified_at: payment.modified_at,
    id: payment.id,
    processor: "stripe" as const,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    method: "card" as const,
    decline_reason: payment.decline_code,
    decline_message: payment.decline_message,
    organization_id: payment.organization_id,
    checkout_id: payment.checkout_id,
    order_id: payment.order_id,
    trigger: payment.trigger,
    processor_metadata: payment.processor_payment_id ? { intent_id: payment.processor_payment_id } : {},
  };
  return payment.card_brand && payment.card_last4 ? { ...common, method_metadata: { brand: payment.card_brand, last4: payment.card_last4 } } : common;
}

/** A kept card, as Polar's PaymentMethodCard shows it. */
export const paymentMethodJson = (method: PaymentMethodRow, defaultId: string | null) => ({
  id: method.id,
  created_at: method.created_at,
  modified_at: method.modified_at,
  processor: "stripe" as const,
  customer_id: method.customer_id,
  type: "card" as const,
  method_metadata: method.card as CardSummary,
  is_default: method.id === defaultId,
});
