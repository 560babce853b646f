import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import type { TestCard } from "./cards.js";

/**
 * The objects the local Stripe keeps, each with the fields of Stripe's own that Tollgate reads or a
 * seller's code commonly does, typed by the official SDK so their names and shapes are Stripe's.
 */

export type CustomerObject = Pick<Stripe.Customer, "id" | "object" | "created" | "email" | "name" | "metadata" | "livemode" | "invoice_settings">;
export type PaymentMethodObject = Pick<Stripe.PaymentMethod, "id" | "object" | "type" | "card" | "customer" | "billing_details" | "created" | "livemode" | "metadata">;
export type ConfirmationTokenObject = Pick<Stripe.ConfirmationToken, "id" | "object" | "created" | "expires_at" | "livemode" | "payment_intent" | "setup_intent" | "return_url" | "setup_future_usage" | "use_stripe_sdk"> & {
  payment_method_preview: { type: "card"; card: Stripe.PaymentMethod.Card; billing_details: Stripe.PaymentMethod.BillingDetails };
};
export type PaymentIntentObject = Pick<
  Stripe.PaymentIntent,
  | "id" | "object" | "amount" | "amount_received" | "currency" | "customer" | "status" | "client_secret" | "created" | "livemode" | "metadata" | "latest_charge"
  | "payment_method" | "last_payment_error" | "next_action" | "setup_future_usage" | "canceled_at" | "cancellation_reason" | "payment_method_types"
>;
export type SetupIntentObject = Pick<Stripe.SetupIntent, "id" | "object" | "customer" | "status" | "client_secret" | "created" | "livemode" | "metadata" | "payment_method" | "last_setup_error" | "next_action" | "usage" | "payment_method_types">;
export type ChargeObject = Pick<
  Stripe.Charge,
  | "id" | "object" | "amount" | "amount_captured" | "amount_refunded" | "captured" | "currency" | "customer" | "created" | "livemode" | "metadata" | "paid" | "refunded" | "disputed"
  | "status" | "payment_intent" | "payment_method" | "payment_method_details" | "failure_code" | "failure_message" | "outcome"
>;
export type RefundObject = Pick<Stripe.Refund, "id" | "object" | "amount" | "charge" | "currency" | "created" | "metadata" | "payment_intent" | "reason" | "status">;
export type DisputeObject = Pick<Stripe.Dispute, "id" | "object" | "amount" | "charge" | "currency" | "created" | "livemode" | "metadata" | "payment_intent" | "reason" | "status" | "is_charge_refundable" | "evidence_details">;
export type EventObject = Pick<Stripe.Event, "id" | "object" | "api_version" | "created" | "livemode" | "pending_webhooks" | "request"> & {
  type: string;
  data: { object: object; previous_attributes?: object };
};

/** An id as Stripe makes them: its prefix and 24 characters. */
export const stripeId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "0").slice(0, 24)}`;

/** Seconds since the epoch, as Stripe's timestamps. */
export const now = () => Math.floor(Date.now() / 1000);

const NO_BILLING_DETAILS: Stripe.PaymentMethod.BillingDetails = { address: null, email: null, name: null, phone: null, tax_id: null };

/** A card's details as a payment method shows them: never its number. Test cards expire at the end of next year, as Stripe's do a while ahead. */
export function cardDetails(card: TestCard): Stripe.PaymentMethod.Card {
  return {
    brand: card.brand,
    display_brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
    country: "US",
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 1,
    funding: "credit",
    generated_from: null,
    last4: card.number.slice(-4),
    networks: { available: [card.brand], preferred: null },
    regulated_status: "unregulated",
    three_d_secure_usage: { supported: true },
    wallet: null,
  };
}

export function newPaymentMethod(card: TestCard, billingDetails: Stripe.PaymentMethod.BillingDetails = NO_BILLING_DETAILS): PaymentMethodObject {
  return { id: stripeId("pm"), object: "payment_method", type: "card", card: cardDetails(card), customer: null, billing_details: billingDetails, created: now(), livemode: false, metadata: {} };
}

export function newConfirmationToken(card: TestCard, billingDetails: Stripe.PaymentMethod.BillingDetails = NO_BILLING_DETAILS): ConfirmationTokenObject {
  const created = now();
  return {
    id: stripeId("ctoken"),
    object: "confirmation_token",
    created,
    // Stripe keeps a confirmation token usable for 12 hours.
    expires_at: created + 12 * 3600,
    livemode: false,
    payment_intent: null,
    setup_intent: null,
    return_url: null,
    setup_future_usage: null,
    use_stripe_sdk: true,
    payment_method_preview: { type: "card", card: cardDetails(card), billing_details: billingDetails },
  };
}

export function newCharge(intent: PaymentIntentObject, method: PaymentMethodObject, failure: { code: string; message: string } | null): ChargeObject {
  const card = method.card;
  return {
    id: stripeId("ch"),
    object: "charge",
    amount: intent.amount,
    amount_captured: failure ? 0 : intent.amount,
    amount_refunded: 0,
    captured: !failure,
    currency: intent.currency,
    customer: intent.customer,
    created: now(),
    livemode: false,
    metadata: intent.metadata,
    paid: !failure,
    refunded: false,
    disputed: false,
    status: failure ? "failed" : "succeeded",
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: card ? ({ type: "card", card: { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, funding: card.funding, country: card.country } } as Stripe.Charge.PaymentMethodDetails) : null,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    outcome: failure
      ? ({ network_status: "declined_by_network", reason: failure.code, risk_level: "normal", seller_message: "The bank did not return any further details with this decline.", type: "issuer_declined" } as Stripe.Charge.Outcome)
      : ({ network_status: "approved_by_network", reason: null, risk_level: "normal", seller_message: "Payment complete.", type: "authorized" } as Stripe.Charge.Outcome),
  };
}
