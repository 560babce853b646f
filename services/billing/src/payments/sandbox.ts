import { randomId, type Knex } from "@tollgate/kit";
import type { CardSummary, ConfirmRequest, PaymentOutcome, PaymentProcessor, RefundOutcome, RefundRequest, SavedCardOutcome, SavedChargeRequest } from "./processor.js";

/** What a test card does when it is charged. */
type CardBehaviour = "succeeds" | "declined" | "insufficient_funds" | "succeeds_then_declines";

/** Stripe's test numbers, with the outcomes Stripe gives them; the README lists them. */
export const TEST_CARDS: Record<string, { brand: string; behaviour: CardBehaviour }> = {
  "4242424242424242": { brand: "visa", behaviour: "succeeds" },
  "5555555555554444": { brand: "mastercard", behaviour: "succeeds" },
  "4000000000000002": { brand: "visa", behaviour: "declined" },
  "4000000000009995": { brand: "visa", behaviour: "insufficient_funds" },
  // Paying with it works and keeps it; every later charge of the kept card is declined (a failed renewal).
  "4000000000000341": { brand: "visa", behaviour: "succeeds_then_declines" },
};

/** How long a confirmation token can be used after the payment form made it. */
export const CONFIRMATION_TOKEN_TTL_MS = 60 * 60 * 1000;

interface ConfirmationTokenRow {
  id: string;
  card: CardSummary;
  behaviour: CardBehaviour;
  used_at: Date | null;
  expires_at: Date;
}

interface PaymentMethodRow {
  id: string;
  card: CardSummary;
  behaviour: CardBehaviour;
}

interface OperationRow<Outcome> {
  idempotency_key: string;
  outcome: Outcome;
}

/** Why a card given to the tokenization endpoint cannot be used, by field; empty when it can. */
export function cardProblems(card: { number: string; exp_month: number; exp_year: number }, now = new Date()): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!TEST_CARDS[card.number]) problems.push({ field: "card_number", message: "This is the sandbox: use one of the test cards listed in the README (4242 4242 4242 4242 succeeds)" });
  const expiresAfter = new Date(Date.UTC(card.exp_year, card.exp_month, 1));
  if (expiresAfter <= now) problems.push({ field: "exp_year", message: "The card has expired" });
  return problems;
}

/**
 * The default processor: Stripe's test cards decide every outcome, recorded in billing's own tables
 * (`sandbox_*`) so a retried call answers what the first one did. No card number is kept: a token
 * holds the brand, the last four digits, the expiry and what the test card does.
 */
export class SandboxProcessor implements PaymentProcessor {
  constructor(private readonly db: Knex) {}

  /** What the hosted checkout page does with the card form, as Stripe.js would: a single-use token. */
  async createConfirmationToken(card: { number: string; exp_month: number; exp_year: number }): Promise<{ id: string; card: CardSummary; expires_at: Date }> {
    const test = TEST_CARDS[card.number];
    if (!test) throw new Error("not a test card; check cardProblems first");
    const row = {
      id: `ctoken_sandbox_${randomId(24)}`,
      card: { brand: test.brand, last4: card.number.slice(-4), exp_month: card.exp_month, exp_year: card.exp_year },
      behaviour: test.behaviour,
      expires_at: new Date(Date.now() + CONFIRMATION_TOKEN_TTL_MS),
    };
    await this.db("sandbox_confirmation_tokens").insert(row);
    return { id: row.id, card: row.card, expires_at: row.expires_at };
  }

  confirm(request: ConfirmRequest): Promise<PaymentOutcome> {
    return this.once<PaymentOutcome>(request.idempotencyKey, async (trx) => {
      const token = await this.takeToken(trx, request.confirmationTokenId);
      if (!token) return { status: "declined", processorPaymentId: null, card: null, declineCode: "invalid_confirmation_token", message: "The card details have expired or were already used; enter them again." };
      const declined = declineOf(token.behaviour);
      if (declined) return { status: "declined", processorPaymentId: `pi_sandbox_${randomId(24)}`, card: token.card, ...declined };
      let paymentMethodId: string | null = null;
      if (request.saveForLater) {
        paymentMethodId = `pm_sandbox_${randomId(24)}`;
        await trx("sandbox_payment_methods").insert({ id: paymentMethodId, card: token.card, behaviour: token.behaviour });
      }
      return { status: "succeeded", processorPaymentId: `pi_sandbox_${randomId(24)}`, card: token.card, paymentMethodId };
    });
  }

  saveCard(request: { idempotencyKey: string; confirmationTokenId: string }): Promise<SavedCardOutcome> {
    return this.once<SavedCardOutcome>(request.idempotencyKey, async (trx) => {
      const token = await this.takeToken(trx, request.confirmationTokenId);
      if (!token) return { status: "declined", declineCode: "invalid_confirmation_token", message: "The card details have expired or were already used; enter them again." };
      // Stripe checks a card when it is set up: one that is always declined is refused here too.
      const declined = token.behaviour === "succeeds_then_declines" ? null : declineOf(token.behaviour);
      if (declined) return { status: "declined", ...declined };
      const paymentMethodId = `pm_sandbox_${randomId(24)}`;
      await trx("sandbox_payment_methods").insert({ id: paymentMethodId, card: token.card, behaviour: token.behaviour });
      return { status: "succeeded", paymentMethodId, card: token.card };
    });
  }

  chargeSaved(request: SavedChargeRequest): Promise<PaymentOutcome> {
    return this.once<PaymentOutcome>(request.idempotencyKey, async (trx) => {
      const method = await trx<PaymentMethodRow>("sandbox_payment_methods").where({ id: request.paymentMethodId }).first();
      if (!method) return { status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "The saved card is no longer available." };
      const declined = declineOf(method.behaviour === "succeeds_then_declines" ? "declined" : method.behaviour);
      if (declined) return { status: "declined", processorPaymentId: `pi_sandbox_${randomId(24)}`, card: method.card, ...declined };
      return { status: "succeeded", processorPaymentId: `pi_sandbox_${randomId(24)}`, card: method.card, paymentMethodId: method.id };
    });
  }

  refund(request: RefundRequest): Promise<RefundOutcome> {
    return this.once<RefundOutcome>(request.idempotencyKey, () => Promise.resolve({ status: "succeeded", processorRefundId: `re_sandbox_${randomId(24)}` }));
  }

  /** Uses up a live confirmation token; null when it is unknown, used or expired. */
  private async takeToken(trx: Knex.Transaction, id: string): Promise<ConfirmationTokenRow | null> {
    const token = await trx<ConfirmationTokenRow>("sandbox_confirmation_tokens").where({ id }).forUpdate().first();
    if (!token || token.used_at || token.expires_at <= new Date()) return null;
    await trx("sandbox_confirmation_tokens").where({ id: token.id }).update({ used_at: new Date() });
    return token;
  }

  /**
   * Runs an operation once per idempotency key: a lock on the key makes a concurrent repeat wait,
   * and a repeat afterwards gets the stored outcome.
   */
  private once<Outcome>(idempotencyKey: string, operate: (trx: Knex.Transaction) => Promise<Outcome>): Promise<Outcome> {
    return this.db.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`sandbox:${idempotencyKey}`]);
      const earlier = await trx<OperationRow<Outcome>>("sandbox_operations").where({ idempotency_key: idempotencyKey }).first();
      if (earlier) return earlier.outcome;
      const outcome = await operate(trx);
      await trx("sandbox_operations").insert({ idempotency_key: idempotencyKey, outcome: JSON.stringify(outcome) });
      return outcome;
    });
  }
}

function declineOf(behaviour: CardBehaviour): { declineCode: "card_declined" | "insufficient_funds"; message: string } | null {
  if (behaviour === "declined") return { declineCode: "card_declined", message: "Your card was declined." };
  if (behaviour === "insufficient_funds") return { declineCode: "insufficient_funds", message: "Your card has insufficient funds." };
  return null;
}
