/**
 * What checkouts, orders, subscriptions and refunds ask of a card processor. The sandbox is the
 * default; a real processor (Stripe) is another implementation of this interface, chosen by
 * configuration, and nothing that calls it changes. Every call carries an idempotency key: asking
 * again with the same key (after a crash, or from a second replica) answers what the first call did
 * and never moves money twice.
 */
export interface PaymentProcessor {
  /**
   * Pays with the card behind a confirmation token from the payment form, keeping the card for later
   * charges when asked; with nothing to pay, only keeps it. The bank may first want the customer
   * (3-D Secure): then the outcome says so, and `outcomeOf` tells later what became of it.
   */
  confirm(request: ConfirmRequest): Promise<PaymentOutcome>;
  /** What became of a payment that waited for its customer (`requires_action`), as the processor has it now. */
  outcomeOf(processorPaymentId: string): Promise<PaymentOutcome>;
  /** Gives up a payment still waiting for its customer; what became of it (declined, or what the customer finished first). */
  cancel(processorPaymentId: string): Promise<PaymentOutcome>;
  /** Charges a kept card without the customer present (a renewal, a proration). */
  chargeSaved(request: SavedChargeRequest): Promise<SettledOutcome>;
  /**
   * Keeps the card behind a confirmation token for later charges without charging it now (Stripe's
   * SetupIntent). The bank may first want the customer: then `cardSetUp` tells what became of it.
   */
  saveCard(request: { idempotencyKey: string; confirmationTokenId: string; customer: PayingCustomer }): Promise<SavedCardOutcome>;
  /** What became of a card kept for `customer` once their bank checked it (`saveCard`'s `requires_action`); another customer's setup is refused. */
  cardSetUp(setupId: string, customer: PayingCustomer): Promise<SavedCardOutcome>;
  /** Lets go of a kept card the customer removed, so the processor can never charge it again (Stripe detaches it). */
  forgetCard(paymentMethodId: string): Promise<void>;
  /** Gives back part or all of a succeeded payment. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Concedes a dispute the buyer's bank opened: the processor closes it as lost. */
  acceptDispute(processorDisputeId: string): Promise<void>;
  /**
   * Whether an error a call threw means the processor could not be asked (unreachable, failing on
   * its side, limiting our rate): no fault of the item being worked on, which waits rather than
   * counting a failure.
   */
  isUnavailable(error: unknown): boolean;
}

/** Who pays: the processor keeps its own record of each customer (a Stripe Customer), made from this on first use. */
export interface PayingCustomer {
  id: string;
  email: string | null;
  name: string | null;
}

interface ChargeAmount {
  idempotencyKey: string;
  /** In the currency's smallest unit. */
  amount: number;
  /** ISO 4217, lower case. */
  currency: string;
}

export interface ConfirmRequest extends ChargeAmount {
  customer: PayingCustomer;
  /** The checkout paid: the processor's notices of the payment name it, so they find its payment job. */
  checkoutId: string;
  confirmationTokenId: string;
  saveForLater: boolean;
}

export interface SavedChargeRequest extends ChargeAmount {
  /** Whose card it is: our customer's id. */
  customerId: string;
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

export type DeclineCode = "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "authentication_required" | "invalid_confirmation_token";

export type PaymentOutcome =
  | { status: "succeeded"; processorPaymentId: string; card: CardSummary; paymentMethodId: string | null }
  | { status: "declined"; processorPaymentId: string | null; card: CardSummary | null; declineCode: DeclineCode; message: string }
  /** The customer's bank wants them (3-D Secure): the payment page finishes it with the client secret. */
  | { status: "requires_action"; processorPaymentId: string; clientSecret: string };

/** An outcome the processor has settled: paid or declined. */
export type SettledOutcome = Exclude<PaymentOutcome, { status: "requires_action" }>;

export type SavedCardOutcome =
  | { status: "succeeded"; paymentMethodId: string; card: CardSummary }
  | { status: "declined"; declineCode: DeclineCode; message: string }
  /** The customer's bank wants them first: their page finishes it with the client secret, then asks for the setup by its id. */
  | { status: "requires_action"; setupId: string; clientSecret: string };

export type RefundOutcome = { status: "succeeded"; processorRefundId: string } | { status: "failed"; message: string };

