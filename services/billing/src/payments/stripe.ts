import Stripe from "stripe";
import type { Knex } from "@tollgate/kit";
import type { BillingConfig } from "../config.js";
import type { CardSummary, ConfirmRequest, DeclineCode, PayingCustomer, PaymentOutcome, PaymentProcessor, RefundOutcome, RefundRequest, SavedCardOutcome, SavedChargeRequest, SettledOutcome } from "./processor.js";
import { findStripeCustomer, keepStripeCustomer } from "./stripe.sql.js";

/** Billing's Stripe: the client, and the signing secret of the webhook endpoint that sends to us. */
export interface StripeSettings {
  client: Stripe;
  webhookSecret: string;
}

/** The official SDK, sent to STRIPE_API_URL (Stripe itself unless a setting says otherwise). */
export function stripeClient(config: Pick<BillingConfig, "STRIPE_API_URL">, secretKey: string): Stripe {
  const url = new URL(config.STRIPE_API_URL);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443,
    protocol,
    // The SDK retries what failed on the way (with the same idempotency key); our workers retry the rest.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Tollgate" },
  });
}

/** The payment intent's part an outcome is read from (its charge, with the card), expanded in the same call. */
const EXPAND = ["latest_charge"];

/** The checkout a payment is for, on its Stripe objects: Stripe's events about it find the checkout's payment by this. */
export const CHECKOUT_METADATA = "tollgate_checkout_id";

const DECLINES: Record<string, DeclineCode> = {
  insufficient_funds: "insufficient_funds",
  expired_card: "expired_card",
  incorrect_cvc: "incorrect_cvc",
  authentication_required: "authentication_required",
};

/**
 * Real card payments through Stripe. Every call that creates or moves money carries the idempotency
 * key the caller derived from our own ids, so a retry after a crash gets Stripe's first answer and
 * never a second charge. Card errors are declines (what the customer is told); anything else Stripe
 * or the network says is a failure of the processor, thrown for the caller's retries.
 */
export class StripeProcessor implements PaymentProcessor {
  constructor(
    private readonly stripe: Stripe,
    private readonly db: Knex,
  ) {}

  async confirm(request: ConfirmRequest): Promise<PaymentOutcome> {
    const customer = await this.stripeCustomerOf(request.customer);
    const metadata = { [CHECKOUT_METADATA]: request.checkoutId };
    // Nothing due now (a trial): the card is only set up for the renewals.
    if (request.amount === 0) {
      const setup = await this.setUp({ customer, confirmation_token: request.confirmationTokenId, metadata }, request.idempotencyKey);
      return "declined" in setup ? setup.declined : setupOutcome(setup.intent);
    }
    return paymentOutcome(() =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency,
          customer,
          confirm: true,
          confirmation_token: request.confirmationTokenId,
          ...(request.saveForLater ? { setup_future_usage: "off_session" as const } : {}),
          metadata,
          expand: EXPAND,
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
  }

  async outcomeOf(processorPaymentId: string): Promise<PaymentOutcome> {
    if (processorPaymentId.startsWith("seti_")) return setupOutcome(await this.stripe.setupIntents.retrieve(processorPaymentId, { expand: ["payment_method"] }));
    return intentOutcome(await this.stripe.paymentIntents.retrieve(processorPaymentId, { expand: EXPAND }));
  }

  async cancel(processorPaymentId: string): Promise<PaymentOutcome> {
    try {
      if (processorPaymentId.startsWith("seti_")) return setupOutcome(await this.stripe.setupIntents.cancel(processorPaymentId, { expand: ["payment_method"] }));
      return intentOutcome(await this.stripe.paymentIntents.cancel(processorPaymentId, { expand: EXPAND }));
    } catch (error) {
      // The customer finished first (or it was canceled already): what it is now is the answer.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return this.outcomeOf(processorPaymentId);
      throw error;
    }
  }

  async chargeSaved(request: SavedChargeRequest): Promise<SettledOutcome> {
    const customer = await findStripeCustomer(this.db, request.customerId);
    if (!customer) return { status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "No card is kept for this customer." };
    const outcome = await paymentOutcome(() =>
      this.stripe.paymentIntents.create(
        { amount: request.amount, currency: request.currency, customer, payment_method: request.paymentMethodId, off_session: true, confirm: true, expand: EXPAND },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    // Off-session, Stripe declines what would need the customer; never seen, but never left hanging either.
    return outcome.status === "requires_action" ? { status: "declined", processorPaymentId: outcome.processorPaymentId, card: null, declineCode: "authentication_required", message: "The bank asks the customer to confirm this payment." } : outcome;
  }

  async saveCard(request: { idempotencyKey: string; confirmationTokenId: string; customer: PayingCustomer }): Promise<SavedCardOutcome> {
    const customer = await this.stripeCustomerOf(request.customer);
    const setup = await this.setUp({ customer, confirmation_token: request.confirmationTokenId }, request.idempotencyKey);
    if ("declined" in setup) return { status: "declined", declineCode: setup.declined.declineCode, message: setup.declined.message };
    return savedCardOutcome(setup.intent);
  }

  async cardSetUp(setupId: string, customer: PayingCustomer): Promise<SavedCardOutcome> {
    const [intent, own] = await Promise.all([this.stripe.setupIntents.retrieve(setupId, { expand: ["payment_method"] }), findStripeCustomer(this.db, customer.id)]);
    const owner = typeof intent.customer === "string" ? intent.customer : intent.customer?.id;
    if (!own || owner !== own) return { status: "declined", declineCode: "card_declined", message: "This card setup is not yours." };
    return savedCardOutcome(intent);
  }

  async forgetCard(paymentMethodId: string): Promise<void> {
    await this.stripe.paymentMethods.detach(paymentMethodId);
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create({ payment_intent: request.processorPaymentId, amount: request.amount }, { idempotencyKey: request.idempotencyKey });
      if (refund.status === "failed" || refund.status === "canceled") return { status: "failed", message: refund.failure_reason ?? `Stripe answered the refund ${refund.status}` };
      return { status: "succeeded", processorRefundId: refund.id };
    } catch (error) {
      // Stripe's refusal (already refunded, disputed) is the refund's answer; anything else is retried.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return { status: "failed", message: error.message };
      throw error;
    }
  }

  async acceptDispute(processorDisputeId: string): Promise<void> {
    await this.stripe.disputes.close(processorDisputeId);
  }

  /** Stripe could not be reached, answered with its own fault, or limited our rate: nothing was decided. */
  isUnavailable(error: unknown): boolean {
    return error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError;
  }

  /** A SetupIntent confirmed with the token for later off-session charges; a declined card as a decline. */
  private async setUp(params: { customer: string; confirmation_token: string; metadata?: Record<string, string> }, idempotencyKey: string): Promise<{ intent: Stripe.SetupIntent } | { declined: Extract<SettledOutcome, { status: "declined" }> }> {
    try {
      return { intent: await this.stripe.setupIntents.create({ ...params, confirm: true, usage: "off_session", expand: ["payment_method"] }, { idempotencyKey }) };
    } catch (error) {
      return { declined: declineOf(error, error instanceof Stripe.errors.StripeError ? (error.setup_intent?.id ?? null) : null) };
    }
  }

  /** The customer's Stripe Customer, made on first use. */
  private async stripeCustomerOf(customer: PayingCustomer): Promise<string> {
    const known = await findStripeCustomer(this.db, customer.id);
    if (known) return known;
    const made = await this.stripe.customers.create({ email: customer.email ?? undefined, name: customer.name ?? undefined, metadata: { tollgate_customer_id: customer.id } }, { idempotencyKey: `customer:${customer.id}` });
    return keepStripeCustomer(this.db, customer.id, made.id);
  }
}

/** A payment intent's creation, read as an outcome; a card error is the customer's decline. */
async function paymentOutcome(create: () => Promise<Stripe.PaymentIntent>): Promise<PaymentOutcome> {
  try {
    return intentOutcome(await create());
  } catch (error) {
    return declineOf(error, error instanceof Stripe.errors.StripeError ? (error.payment_intent?.id ?? null) : null);
  }
}

/** What a card error says, as a decline; any other error is the processor's failure and thrown on. */
function declineOf(error: unknown, processorPaymentId: string | null): Extract<SettledOutcome, { status: "declined" }> {
  if (error instanceof Stripe.errors.StripeCardError) {
    const method = error.payment_method ?? error.payment_intent?.last_payment_error?.payment_method;
    return { status: "declined", processorPaymentId, card: method?.card ? cardOf(method.card) : null, declineCode: declineCodeOf(error.decline_code ?? error.code), message: error.message };
  }
  // A token used or expired is the buyer's to make again: the page asks for the card once more.
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param === "confirmation_token") {
    return { status: "declined", processorPaymentId, card: null, declineCode: "invalid_confirmation_token", message: "The card details have expired or were already used; enter them again." };
  }
  throw error;
}

const declineCodeOf = (code: string | undefined): DeclineCode => (code ? DECLINES[code] : undefined) ?? "card_declined";

const cardOf = (card: { brand: string | null; last4: string | null; exp_month: number; exp_year: number }): CardSummary => ({ brand: card.brand ?? "unknown", last4: card.last4 ?? "", exp_month: card.exp_month, exp_year: card.exp_year });

const methodCard = (method: string | Stripe.PaymentMethod | null): CardSummary | null => (typeof method === "object" && method?.card ? cardOf(method.card) : null);

function intentOutcome(intent: Stripe.PaymentIntent): PaymentOutcome {
  const methodId = typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const card = (charge?.payment_method_details?.card ? cardOf(charge.payment_method_details.card) : null) ?? methodCard(intent.payment_method);
  switch (intent.status) {
    case "succeeded":
      if (!card) throw new Error(`payment intent ${intent.id} succeeded without a card`);
      return { status: "succeeded", processorPaymentId: intent.id, card, paymentMethodId: intent.setup_future_usage ? methodId : null };
    case "requires_action":
      return { status: "requires_action", processorPaymentId: intent.id, clientSecret: intent.client_secret ?? "" };
    case "requires_payment_method":
    case "canceled": {
      const failed = intent.last_payment_error;
      return { status: "declined", processorPaymentId: intent.id, card: methodCard(failed?.payment_method ?? null), declineCode: declineCodeOf(failed?.decline_code ?? failed?.code), message: failed?.message ?? "The payment was not completed." };
    }
    default:
      // processing, requires_confirmation, requires_capture: not what a confirmed card payment stays in.
      throw new Error(`payment intent ${intent.id} is ${intent.status}`);
  }
}

/** A setup intent as a card kept, declined, or waiting for the customer's bank. */
function savedCardOutcome(intent: Stripe.SetupIntent): SavedCardOutcome {
  const outcome = setupOutcome(intent);
  if (outcome.status === "requires_action") return { status: "requires_action", setupId: intent.id, clientSecret: outcome.clientSecret };
  if (outcome.status === "declined") return { status: "declined", declineCode: outcome.declineCode, message: outcome.message };
  if (!outcome.paymentMethodId) throw new Error(`setup intent ${intent.id} succeeded without a payment method`);
  return { status: "succeeded", paymentMethodId: outcome.paymentMethodId, card: outcome.card };
}

function setupOutcome(intent: Stripe.SetupIntent): PaymentOutcome {
  const methodId = typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);
  switch (intent.status) {
    case "succeeded": {
      const card = methodCard(intent.payment_method);
      if (!card) throw new Error(`setup intent ${intent.id} succeeded without a card`);
      return { status: "succeeded", processorPaymentId: intent.id, card, paymentMethodId: methodId };
    }
    case "requires_action":
      return { status: "requires_action", processorPaymentId: intent.id, clientSecret: intent.client_secret ?? "" };
    case "requires_payment_method":
    case "canceled": {
      const failed = intent.last_setup_error;
      return { status: "declined", processorPaymentId: intent.id, card: null, declineCode: declineCodeOf(failed?.decline_code ?? failed?.code), message: failed?.message ?? "The card could not be set up." };
    }
    default:
      throw new Error(`setup intent ${intent.id} is ${intent.status}`);
  }
}
