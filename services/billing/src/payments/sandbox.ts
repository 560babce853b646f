import { createHash } from "node:crypto";
import { randomId, type Knex } from "@tollgate/kit";
import { findSandboxPaymentMethod, insertConfirmationToken, takeConfirmationToken, type CardBehaviour, type SandboxCard } from "./payments.sql.js";
import type { CardSummary, ConfirmRequest, PaymentOutcome, PaymentProcessor, RefundOutcome, RefundRequest, SavedCardOutcome, SavedChargeRequest, SettledOutcome } from "./processor.js";

/** Cards that pay when first used, and so may be kept for later charges. */
const PAYS_NOW: CardBehaviour[] = ["succeeds", "succeeds_then_declines"];

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

/** An id the sandbox gives a payment, card or refund: the same for the same idempotency key, so a repeat answers what the first call did. */
const idFor = (prefix: "pi" | "pm" | "re", idempotencyKey: string) => `${prefix}_sandbox_${createHash("sha256").update(idempotencyKey).digest("base64url").slice(0, 24)}`;

const expired = { declineCode: "invalid_confirmation_token", message: "The card details have expired or were already used; enter them again." } as const;

/** Why a card given to the tokenization endpoint cannot be used, by field; empty when it can. */
export function cardProblems(card: { number: string; exp_month: number; exp_year: number }, now = new Date()): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!TEST_CARDS[card.number]) problems.push({ field: "card_number", message: "This is the sandbox: use one of the test cards listed in the README (4242 4242 4242 4242 succeeds)" });
  const expiresAfter = new Date(Date.UTC(card.exp_year, card.exp_month, 1));
  if (expiresAfter <= now) problems.push({ field: "exp_year", message: "The card has expired" });
  return problems;
}

/**
 * The default processor: Stripe's test cards decide every outcome. Idempotency comes from the
 * outcome being a function of the idempotency key: the key takes the token (a repeat with the same
 * key takes it again, any other key finds it used), and the ids of the payment, of a kept card and
 * of a refund derive from the key, so a repeated call answers what the first did and billing's
 * payments table (unique processor ids) records it once. No card number is kept: a token holds the
 * brand, the last four digits, the expiry and what the test card does.
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
    await insertConfirmationToken(this.db, row);
    return { id: row.id, card: row.card, expires_at: row.expires_at };
  }

  async confirm(request: ConfirmRequest): Promise<PaymentOutcome> {
    const token = await this.takeToken(request.idempotencyKey, request.confirmationTokenId, request.saveForLater);
    const paymentId = idFor("pi", request.idempotencyKey);
    let outcome: PaymentOutcome;
    if (!token) outcome = { status: "declined", processorPaymentId: null, card: null, ...expired };
    else {
      const declined = declineOf(token.behaviour);
      outcome = declined
        ? { status: "declined", processorPaymentId: paymentId, card: token.card, ...declined }
        : { status: "succeeded", processorPaymentId: paymentId, card: token.card, paymentMethodId: request.saveForLater ? idFor("pm", request.idempotencyKey) : null };
    }
    return outcome;
  }

  async saveCard(request: { idempotencyKey: string; confirmationTokenId: string }): Promise<SavedCardOutcome> {
    const token = await this.takeToken(request.idempotencyKey, request.confirmationTokenId, true);
    let outcome: SavedCardOutcome;
    if (!token) outcome = { status: "declined", ...expired };
    else {
      // Stripe checks a card when it is set up: one that is always declined is refused here too.
      const declined = declineOf(token.behaviour);
      outcome = declined ? { status: "declined", ...declined } : { status: "succeeded", paymentMethodId: idFor("pm", request.idempotencyKey), card: token.card };
    }
    return outcome;
  }

  /** The sandbox keeps no cards of its own: a card forgotten here is only the row billing deletes. */
  forgetCard(): Promise<void> {
    return Promise.resolve();
  }

  /** No bank ever disputes a sandbox payment, so there is never one to accept. */
  acceptDispute(processorDisputeId: string): Promise<void> {
    return Promise.reject(new Error(`the sandbox has no disputes, yet ${processorDisputeId} was accepted`));
  }

  /** The sandbox keeps a card at once, so there is never a setup waiting to be asked after. */
  cardSetUp(): Promise<SavedCardOutcome> {
    return Promise.resolve({ status: "declined", declineCode: "card_declined", message: "The sandbox keeps cards at once: there is no card setup to confirm." });
  }

  /** The sandbox is billing's own database: when that is down, the kit's own rules apply. */
  isUnavailable(): boolean {
    return false;
  }

  /** The sandbox answers every payment at once: none ever waits for its customer. */
  outcomeOf(processorPaymentId: string): Promise<PaymentOutcome> {
    return Promise.reject(new Error(`the sandbox never waits for a customer, yet ${processorPaymentId} was asked after`));
  }

  cancel(processorPaymentId: string): Promise<PaymentOutcome> {
    return this.outcomeOf(processorPaymentId);
  }

  async chargeSaved(request: SavedChargeRequest): Promise<SettledOutcome> {
    const method = await findSandboxPaymentMethod(this.db, request.paymentMethodId);
    const paymentId = idFor("pi", request.idempotencyKey);
    let outcome: SettledOutcome;
    if (!method) outcome = { status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "The saved card is no longer available." };
    else {
      const declined = declineOf(method.behaviour === "succeeds_then_declines" ? "declined" : method.behaviour);
      outcome = declined ? { status: "declined", processorPaymentId: paymentId, card: method.card, ...declined } : { status: "succeeded", processorPaymentId: paymentId, card: method.card, paymentMethodId: method.id };
    }
    return outcome;
  }

  refund(request: RefundRequest): Promise<RefundOutcome> {
    return Promise.resolve({ status: "succeeded", processorRefundId: idFor("re", request.idempotencyKey) });
  }

  /** Uses up a live confirmation token for `idempotencyKey`, keeping a card that pays under the key's card id when asked (see takeConfirmationToken). */
  private takeToken(idempotencyKey: string, tokenId: string, keepCard: boolean): Promise<SandboxCard | null> {
    return takeConfirmationToken(this.db, idempotencyKey, tokenId, idFor("pm", idempotencyKey), keepCard ? PAYS_NOW : []);
  }
}

function declineOf(behaviour: CardBehaviour): { declineCode: "card_declined" | "insufficient_funds"; message: string } | null {
  if (behaviour === "declined") return { declineCode: "card_declined", message: "Your card was declined." };
  if (behaviour === "insufficient_funds") return { declineCode: "insufficient_funds", message: "Your card has insufficient funds." };
  return null;
}
