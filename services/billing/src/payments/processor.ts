/**
 * What checkouts, orders, subscriptions and refunds ask of a card processor. The sandbox is the
 * default; a real processor (Stripe) is another implementation of this interface, chosen by
 * configuration, and nothing that calls it changes. Every call carries an idempotency key: asking
 * again with the same key (after a crash, or from a second replica) answers what the first call did
 * and never moves money twice.
 */
export interface PaymentProcessor {
  /** Pays with the card behind a confirmation token from the payment form, keeping the card for later charges when asked. */
  confirm(request: ConfirmRequest): Promise<PaymentOutcome>;
  /** Charges a kept card without the customer present (a renewal, a proration). */
  chargeSaved(request: SavedChargeRequest): Promise<PaymentOutcome>;
  /** Keeps the card behind a confirmation token for later charges without charging it now (Stripe's SetupIntent). */
  saveCard(request: { idempotencyKey: string; confirmationTokenId: string }): Promise<SavedCardOutcome>;
  /** Gives back part or all of a succeeded payment. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
}

interface ChargeAmount {
  idempotencyKey: string;
  /** In the currency's smallest unit. */
  amount: number;
  /** ISO 4217, lower case. */
  currency: string;
}

export interface ConfirmRequest extends ChargeAmount {
  confirmationTokenId: string;
  saveForLater: boolean;
}

export interface SavedChargeRequest extends ChargeAmount {
  paymentMethodId: string;
}

export interface RefundRequest {
  idempotencyKey: string;
  processorPaymentId: string;
  amount: number;
}

/** What is shown of a card: never its number. */
export interface CardSummary {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export type DeclineCode = "card_declined" | "insufficient_funds" | "expired_card" | "invalid_confirmation_token";

export type PaymentOutcome =
  | { status: "succeeded"; processorPaymentId: string; card: CardSummary; paymentMethodId: string | null }
  | { status: "declined"; processorPaymentId: string | null; card: CardSummary | null; declineCode: DeclineCode; message: string };

export type SavedCardOutcome = { status: "succeeded"; paymentMethodId: string; card: CardSummary } | { status: "declined"; declineCode: DeclineCode; message: string };

export type RefundOutcome = { status: "succeeded"; processorRefundId: string } | { status: "failed"; message: string };
