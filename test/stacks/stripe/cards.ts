/**
 * Stripe's test cards, as its testing docs list them: the `pm_card_*` payment methods a server may
 * name, and the card numbers the Payment Element takes. Each says what the card does when charged.
 */

/** What a test card does when charged (or saved). */
export type CardBehaviour =
  | { kind: "succeeds" }
  /**
   * Declined at the bank: `decline_code` as Stripe reports it (code `card_declined`), or another error
   * code; `savable` cards are kept by a setup intent and declined only when charged.
   */
  | { kind: "declines"; code: "card_declined" | "expired_card" | "incorrect_cvc"; declineCode: string; message: string; savable?: boolean }
  /** Asks for 3-D Secure on every payment, and refuses off-session ones (`authentication_required`). */
  | { kind: "authenticates" }
  /** Succeeds, then the buyer's bank opens a dispute (reason `fraudulent`). */
  | { kind: "disputes" };

export interface TestCard {
  number: string;
  brand: "visa" | "mastercard" | "amex";
  behaviour: CardBehaviour;
}

const declined = (declineCode: string, message = "Your card was declined.", savable = false): CardBehaviour => ({ kind: "declines", code: "card_declined", declineCode, message, savable });

/** By the `pm_card_*` id a server names them with. */
export const TEST_CARDS: Record<string, TestCard> = {
  pm_card_visa: { number: "4242424242424242", brand: "visa", behaviour: { kind: "succeeds" } },
  pm_card_mastercard: { number: "5555555555554444", brand: "mastercard", behaviour: { kind: "succeeds" } },
  pm_card_amex: { number: "378282246310005", brand: "amex", behaviour: { kind: "succeeds" } },
  pm_card_chargeDeclined: { number: "4000000000000002", brand: "visa", behaviour: declined("generic_decline") },
  pm_card_chargeCustomerFail: { number: "4000000000000341", brand: "visa", behaviour: declined("generic_decline", "Your card was declined.", true) },
  pm_card_chargeDeclinedInsufficientFunds: { number: "4000000000009995", brand: "visa", behaviour: declined("insufficient_funds", "Your card has insufficient funds.") },
  pm_card_chargeDeclinedExpiredCard: { number: "4000000000000069", brand: "visa", behaviour: { kind: "declines", code: "expired_card", declineCode: "expired_card", message: "Your card has expired." } },
  pm_card_chargeDeclinedIncorrectCvc: { number: "4000000000000127", brand: "visa", behaviour: { kind: "declines", code: "incorrect_cvc", declineCode: "incorrect_cvc", message: "Your card's security code is incorrect." } },
  pm_card_authenticationRequired: { number: "4000002760003184", brand: "visa", behaviour: { kind: "authenticates" } },
  pm_card_createDispute: { number: "4000000000000259", brand: "visa", behaviour: { kind: "disputes" } },
};

/** The test card with this number (spaces allowed), as the Payment Element sends it. */
export const cardNumbered = (number: string): TestCard | undefined => Object.values(TEST_CARDS).find((card) => card.number === number.replace(/\s/g, ""));
