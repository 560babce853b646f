import type Stripe from "stripe";
import { cardNumbered, TEST_CARDS, type TestCard } from "./cards.js";
import { formOf, metadataOf, textOf, type Form } from "./form-body.js";
import {
  newCharge, newConfirmationToken, newPaymentMethod, now, stripeId,
  type ChargeObject, type ConfirmationTokenObject, type CustomerObject, type DisputeObject, type PaymentIntentObject, type PaymentMethodObject, type RefundObject, type SetupIntentObject,
} from "./objects.js";

/** An answer other than 200, with Stripe's error body. */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Stripe.StripeRawError & { type: string },
  ) {
    super(error.message);
  }
}

const missing = (kind: string, id: string) => new StripeFailure(404, { type: "invalid_request_error", code: "resource_missing", param: "id", message: `No such ${kind}: '${id}'` });
const invalid = (message: string, param?: string, code?: string) => new StripeFailure(400, { type: "invalid_request_error", message, param, code });

/** Stripe's smallest charge in a currency's smallest unit (about half a dollar), by its documented minimums. */
const MINIMUM_CHARGE: Record<string, number> = { usd: 50, eur: 50, gbp: 30, cad: 50, aud: 50, chf: 50, jpy: 50, sek: 300, dkk: 250, nok: 300 };

/** Tells of a change: an event of `type` about `object` (a copy is taken). */
export type Announce = (type: string, object: object) => void;

/**
 * What the local Stripe holds and how its money moves: customers, payment methods, confirmation
 * tokens, payment and setup intents, charges, refunds and disputes, with the events Stripe sends for
 * each change, in Stripe's order.
 */
export class Ledger {
  readonly customers = new Map<string, CustomerObject>();
  readonly paymentMethods = new Map<string, PaymentMethodObject>();
  readonly confirmationTokens = new Map<string, ConfirmationTokenObject>();
  readonly paymentIntents = new Map<string, PaymentIntentObject>();
  readonly setupIntents = new Map<string, SetupIntentObject>();
  readonly charges = new Map<string, ChargeObject>();
  readonly refunds = new Map<string, RefundObject>();
  readonly disputes = new Map<string, DisputeObject>();
  /** The test card behind each payment method and confirmation token. */
  private readonly cards = new Map<string, TestCard>();
  private readonly usedTokens = new Set<string>();
  /** Payment methods that finished 3-D Secure while being set up for later: off-session charges then go through. */
  private readonly authenticated = new Set<string>();

  constructor(private readonly announce: Announce) {}

  find<T>(map: Map<string, T>, kind: string, id: string): T {
    const found = map.get(id);
    if (!found) throw missing(kind, id);
    return found;
  }

  createCustomer(form: Form): CustomerObject {
    const customer: CustomerObject = {
      id: stripeId("cus"), object: "customer", created: now(), livemode: false,
      email: textOf(form.email) ?? null, name: textOf(form.name) ?? null, metadata: metadataOf(form.metadata),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    };
    this.customers.set(customer.id, customer);
    this.announce("customer.created", customer);
    return customer;
  }

  updateCustomer(id: string, form: Form): CustomerObject {
    const customer = this.find(this.customers, "customer", id);
    if (form.email !== undefined) customer.email = textOf(form.email) || null;
    if (form.name !== undefined) customer.name = textOf(form.name) || null;
    const defaultMethod = textOf(formOf(form.invoice_settings).default_payment_method);
    if (defaultMethod !== undefined) customer.invoice_settings.default_payment_method = defaultMethod ? this.find(this.paymentMethods, "payment_method", defaultMethod).id : null;
    Object.assign(customer.metadata, metadataOf(form.metadata));
    this.announce("customer.updated", customer);
    return customer;
  }

  /** A confirmation token for a test card: by `pm_card_*` (the test helper) or by card number (the Payment Element). */
  createConfirmationToken(form: Form): ConfirmationTokenObject {
    const data = formOf(form.payment_method_data);
    const byNumber = textOf(formOf(data.card).number);
    const card = byNumber !== undefined ? cardNumbered(byNumber) : this.cardOf(textOf(form.payment_method) ?? "");
    if (!card) throw new StripeFailure(402, { type: "card_error", code: "incorrect_number", param: "number", message: "Your card number is incorrect." });
    const token = newConfirmationToken(card);
    this.confirmationTokens.set(token.id, token);
    this.cards.set(token.id, card);
    return token;
  }

  /** A payment method by id; a `pm_card_*` name makes a new one from that test card, as Stripe does. */
  paymentMethod(id: string): PaymentMethodObject {
    const card = TEST_CARDS[id];
    if (!card) return this.find(this.paymentMethods, "payment_method", id);
    return this.keepMethod(newPaymentMethod(card), card);
  }

  attach(id: string, customerId: string): PaymentMethodObject {
    const method = this.paymentMethod(id);
    method.customer = this.find(this.customers, "customer", customerId).id;
    this.announce("payment_method.attached", method);
    return method;
  }

  detach(id: string): PaymentMethodObject {
    const method = this.find(this.paymentMethods, "payment_method", id);
    method.customer = null;
    this.announce("payment_method.detached", method);
    return method;
  }

  private keepMethod(method: PaymentMethodObject, card: TestCard): PaymentMethodObject {
    this.paymentMethods.set(method.id, method);
    this.cards.set(method.id, card);
    return method;
  }

  private cardOf(id: string): TestCard | undefined {
    return TEST_CARDS[id] ?? this.cards.get(id);
  }

  /** The payment method a confirmation uses: from its confirmation token (used once) or named. */
  private methodFor(form: Form): PaymentMethodObject | null {
    const tokenId = textOf(form.confirmation_token);
    if (tokenId) {
      const token = this.find(this.confirmationTokens, "confirmation_token", tokenId);
      if (this.usedTokens.has(tokenId)) throw invalid(`ConfirmationToken ${tokenId} has already been used.`, "confirmation_token");
      if ((token.expires_at ?? Infinity) < now()) throw invalid(`ConfirmationToken ${tokenId} has expired.`, "confirmation_token");
      this.usedTokens.add(tokenId);
      const card = this.cards.get(tokenId);
      if (!card) throw missing("confirmation_token", tokenId);
      return this.keepMethod(newPaymentMethod(card, token.payment_method_preview.billing_details), card);
    }
    const named = textOf(form.payment_method);
    return named ? this.paymentMethod(named) : null;
  }

  createPaymentIntent(form: Form): PaymentIntentObject {
    const amount = Number(textOf(form.amount));
    const currency = (textOf(form.currency) ?? "").toLowerCase();
    if (!Number.isInteger(amount) || amount < 1) throw invalid("Missing required param: amount.", "amount", "parameter_missing");
    if (!currency) throw invalid("Missing required param: currency.", "currency", "parameter_missing");
    if (amount < (MINIMUM_CHARGE[currency] ?? 50)) throw invalid(`Amount must be at least ${MINIMUM_CHARGE[currency] ?? 50} in the currency's smallest unit.`, "amount", "amount_too_small");
    const customerId = textOf(form.customer);
    const id = stripeId("pi");
    const intent: PaymentIntentObject = {
      id, object: "payment_intent", amount, amount_received: 0, currency, created: now(), livemode: false,
      customer: customerId ? this.find(this.customers, "customer", customerId).id : null,
      status: "requires_payment_method", client_secret: `${id}_secret_${stripeId("s").slice(2)}`, metadata: metadataOf(form.metadata),
      latest_charge: null, payment_method: null, last_payment_error: null, next_action: null, canceled_at: null, cancellation_reason: null,
      setup_future_usage: (textOf(form.setup_future_usage) as PaymentIntentObject["setup_future_usage"]) ?? null, payment_method_types: ["card"],
    };
    this.paymentIntents.set(id, intent);
    this.announce("payment_intent.created", intent);
    if (textOf(form.confirm) === "true") return this.confirmPaymentIntent(id, form);
    const method = this.methodFor(form);
    if (method) Object.assign(intent, { payment_method: method.id, status: "requires_confirmation" });
    return intent;
  }

  /** Confirms a payment intent: the card is charged, declined, or asks for 3-D Secure (refused off-session). */
  confirmPaymentIntent(id: string, form: Form): PaymentIntentObject {
    const intent = this.find(this.paymentIntents, "payment_intent", id);
    if (intent.status === "succeeded" || intent.status === "canceled") {
      throw invalid(`You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`, undefined, "payment_intent_unexpected_state");
    }
    const method = this.methodFor(form) ?? (typeof intent.payment_method === "string" ? this.paymentMethod(intent.payment_method) : null);
    if (!method) throw invalid("You must provide a PaymentMethod or a ConfirmationToken to confirm this PaymentIntent.", "payment_method", "payment_intent_unexpected_state");
    const usage = textOf(form.setup_future_usage);
    if (usage) intent.setup_future_usage = usage;
    const card = this.cards.get(method.id);
    if (!card) throw missing("payment_method", method.id);
    const offSession = textOf(form.off_session) === "true";
    const behaviour = card.behaviour;
    if (behaviour.kind === "declines") return this.decline(intent, method, { code: behaviour.code, decline_code: behaviour.declineCode, message: behaviour.message });
    if (behaviour.kind === "authenticates" && !this.authenticated.has(method.id)) {
      if (offSession) return this.decline(intent, method, { code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." });
      Object.assign(intent, { status: "requires_action", payment_method: method.id, last_payment_error: null, next_action: this.authenticationStep(intent.id, textOf(form.return_url)) });
      this.announce("payment_intent.requires_action", intent);
      return intent;
    }
    return this.succeed(intent, method);
  }

  /** Where the page takes the buyer for 3-D Secure: Stripe.js's own step, or a redirect when a return URL was given. */
  private authenticationStep(id: string, returnUrl: string | undefined): Stripe.PaymentIntent.NextAction {
    if (returnUrl) return { type: "redirect_to_url", redirect_to_url: { url: `/_local/authenticate/${id}`, return_url: returnUrl } };
    return { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: `/_local/authenticate/${id}` } };
  }

  /** The buyer's bank answers 3-D Secure for an intent waiting on it: approved (the payment or setup goes through) or failed. */
  authenticate(id: string, approved: boolean): PaymentIntentObject | SetupIntentObject {
    const intent = this.paymentIntents.get(id) ?? this.find(this.setupIntents, "setup_intent", id);
    if (intent.status !== "requires_action" || typeof intent.payment_method !== "string") throw invalid(`${intent.id} is not waiting for authentication.`, undefined, `${intent.object}_unexpected_state`);
    const method = this.find(this.paymentMethods, "payment_method", intent.payment_method);
    if (approved && (intent.object === "setup_intent" || intent.setup_future_usage)) this.authenticated.add(method.id);
    const failure = { code: "payment_intent_authentication_failure", message: "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again." };
    if (intent.object === "setup_intent") {
      if (approved) return this.setUp(intent, method);
      Object.assign(intent, { status: "requires_payment_method", payment_method: null, next_action: null, last_setup_error: { type: "card_error", ...failure, code: "setup_intent_authentication_failure" } });
      this.announce("setup_intent.setup_failed", intent);
      return intent;
    }
    if (approved) return this.succeed(intent, method);
    Object.assign(intent, { status: "requires_payment_method", payment_method: null, next_action: null, last_payment_error: { type: "card_error", ...failure, payment_method: method } });
    this.announce("payment_intent.payment_failed", intent);
    return intent;
  }

  private succeed(intent: PaymentIntentObject, method: PaymentMethodObject): PaymentIntentObject {
    const charge = newCharge(intent, method, null);
    this.charges.set(charge.id, charge);
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, latest_charge: charge.id, payment_method: method.id, last_payment_error: null, next_action: null });
    if (intent.setup_future_usage && typeof intent.customer === "string") this.attach(method.id, intent.customer);
    this.announce("charge.succeeded", charge);
    this.announce("payment_intent.succeeded", intent);
    if (this.cards.get(method.id)?.behaviour.kind === "disputes") this.openDispute(charge);
    return intent;
  }

  /** A declined confirmation: the failed charge and event, then Stripe's 402 carrying the intent. */
  private decline(intent: PaymentIntentObject, method: PaymentMethodObject, failure: { code: string; decline_code: string; message: string }): never {
    const charge = newCharge(intent, method, failure);
    this.charges.set(charge.id, charge);
    const error = { type: "card_error" as const, ...failure, charge: charge.id, payment_method: method as Stripe.PaymentMethod };
    Object.assign(intent, { status: "requires_payment_method", latest_charge: charge.id, payment_method: null, next_action: null, last_payment_error: error });
    this.announce("charge.failed", charge);
    this.announce("payment_intent.payment_failed", intent);
    throw new StripeFailure(402, { ...error, payment_intent: intent as Stripe.PaymentIntent });
  }

  cancelPaymentIntent(id: string): PaymentIntentObject {
    const intent = this.find(this.paymentIntents, "payment_intent", id);
    if (intent.status === "succeeded" || intent.status === "canceled") throw invalid(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, undefined, "payment_intent_unexpected_state");
    Object.assign(intent, { status: "canceled", canceled_at: now(), cancellation_reason: "requested_by_customer", next_action: null });
    this.announce("payment_intent.canceled", intent);
    return intent;
  }

  /** Keeps a card for later without charging it: saved on the customer, or 3-D Secure first, or declined. */
  createSetupIntent(form: Form): SetupIntentObject {
    const customerId = textOf(form.customer);
    const id = stripeId("seti");
    const intent: SetupIntentObject = {
      id, object: "setup_intent", created: now(), livemode: false, status: "requires_payment_method",
      customer: customerId ? this.find(this.customers, "customer", customerId).id : null,
      client_secret: `${id}_secret_${stripeId("s").slice(2)}`, metadata: metadataOf(form.metadata), payment_method: null,
      last_setup_error: null, next_action: null, usage: textOf(form.usage) ?? "off_session", payment_method_types: ["card"],
    };
    this.setupIntents.set(id, intent);
    this.announce("setup_intent.created", intent);
    if (textOf(form.confirm) !== "true") return intent;
    const method = this.methodFor(form);
    if (!method) throw invalid("You must provide a PaymentMethod or a ConfirmationToken to confirm this SetupIntent.", "payment_method", "setup_intent_unexpected_state");
    const behaviour = this.cards.get(method.id)?.behaviour;
    if (behaviour?.kind === "declines" && !behaviour.savable) {
      const error = { type: "card_error" as const, code: behaviour.code, decline_code: behaviour.declineCode, message: behaviour.message, payment_method: method as Stripe.PaymentMethod };
      Object.assign(intent, { status: "requires_payment_method", last_setup_error: error });
      this.announce("setup_intent.setup_failed", intent);
      throw new StripeFailure(402, { ...error, setup_intent: intent as Stripe.SetupIntent });
    }
    if (behaviour?.kind === "authenticates") {
      Object.assign(intent, { status: "requires_action", payment_method: method.id, next_action: this.authenticationStep(intent.id, textOf(form.return_url)) });
      this.announce("setup_intent.requires_action", intent);
      return intent;
    }
    return this.setUp(intent, method);
  }

  private setUp(intent: SetupIntentObject, method: PaymentMethodObject): SetupIntentObject {
    Object.assign(intent, { status: "succeeded", payment_method: method.id, next_action: null, last_setup_error: null });
    if (typeof intent.customer === "string") this.attach(method.id, intent.customer);
    this.announce("setup_intent.succeeded", intent);
    return intent;
  }

  /** Gives back part or all of a succeeded charge (named by its payment intent or itself). */
  createRefund(form: Form): RefundObject {
    const intentId = textOf(form.payment_intent);
    const chargeId = intentId ? this.find(this.paymentIntents, "payment_intent", intentId).latest_charge : textOf(form.charge);
    if (typeof chargeId !== "string") throw invalid("One of the following params should be provided for this request: payment_intent or charge.", "charge", "parameter_missing");
    const charge = this.find(this.charges, "charge", chargeId);
    if (charge.status !== "succeeded") throw invalid(`Charge ${charge.id} has not succeeded.`, "charge");
    const dispute = [...this.disputes.values()].find((found) => found.charge === charge.id);
    if (dispute && dispute.status !== "won") throw invalid(`Charge ${charge.id} has been charged back; refunds are not possible.`, "charge", "charge_disputed");
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, "charge", "charge_already_refunded");
    const amount = textOf(form.amount) === undefined ? left : Number(textOf(form.amount));
    if (!Number.isInteger(amount) || amount < 1) throw invalid("Invalid positive integer", "amount");
    if (amount > left) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, "amount");
    const refund: RefundObject = {
      id: stripeId("re"), object: "refund", amount, charge: charge.id, currency: charge.currency, created: now(), metadata: metadataOf(form.metadata),
      payment_intent: charge.payment_intent, reason: (textOf(form.reason) as RefundObject["reason"]) ?? null, status: "succeeded",
    };
    this.refunds.set(refund.id, refund);
    Object.assign(charge, { amount_refunded: charge.amount_refunded + amount, refunded: charge.amount_refunded + amount === charge.amount });
    this.announce("refund.created", refund);
    this.announce("charge.refunded", charge);
    return refund;
  }

  /** The buyer's bank disputes a charge (the `pm_card_createDispute` card does it at once). */
  private openDispute(charge: ChargeObject): DisputeObject {
    const dispute: DisputeObject = {
      id: stripeId("dp"), object: "dispute", amount: charge.amount, charge: charge.id, currency: charge.currency, created: now(), livemode: false, metadata: {},
      payment_intent: charge.payment_intent, reason: "fraudulent", status: "needs_response", is_charge_refundable: false,
      evidence_details: { due_by: now() + 7 * 86_400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: "not_submitted" },
    };
    this.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    this.announce("charge.dispute.created", dispute);
    return dispute;
  }

  /** The seller gives in: the dispute is lost. */
  closeDispute(id: string): DisputeObject {
    const dispute = this.find(this.disputes, "dispute", id);
    if (dispute.status === "won" || dispute.status === "lost") throw invalid(`This dispute is already closed (${dispute.status}).`);
    dispute.status = "lost";
    this.announce("charge.dispute.closed", dispute);
    return dispute;
  }

  /**
   * Evidence for a dispute. Submitted, Stripe's test evidence decides it: `winning_evidence` or
   * `losing_evidence` in `uncategorized_text`, as its testing docs describe.
   */
  updateDispute(id: string, form: Form): DisputeObject {
    const dispute = this.find(this.disputes, "dispute", id);
    Object.assign(dispute.metadata, metadataOf(form.metadata));
    const evidence = textOf(formOf(form.evidence).uncategorized_text);
    if (textOf(form.submit) === "false" || evidence === undefined) {
      this.announce("charge.dispute.updated", dispute);
      return dispute;
    }
    Object.assign(dispute, { status: "under_review", evidence_details: { ...dispute.evidence_details, has_evidence: true, submission_count: dispute.evidence_details.submission_count + 1 } });
    this.announce("charge.dispute.updated", dispute);
    if (evidence === "winning_evidence" || evidence === "losing_evidence") {
      dispute.status = evidence === "winning_evidence" ? "won" : "lost";
      this.announce("charge.dispute.closed", dispute);
    }
    return dispute;
  }
}
