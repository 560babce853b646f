import { request } from "../api/client";
import { processorText } from "../api/error-messages";
import type { CheckoutProduct, CheckoutPublic as PublicCheckout, RequestBody, SandboxConfirmationToken } from "../api/wire";
import type { CardEntry } from "./form";

/** What the hosted checkout page reads: Polar's CheckoutPublic and its product. */
export type { CheckoutProduct, CheckoutPublic as PublicCheckout } from "../api/wire";
export type Interval = NonNullable<CheckoutProduct["recurring_interval"]>;

export const checkoutPath = (clientSecret: string) => `/v1/checkouts/client/${encodeURIComponent(clientSecret)}`;

/** Why the checkout's last payment failed, in the reader's language when the reason is a known one. */
export function paymentErrorOf(checkout: PublicCheckout): string | undefined {
  const reason = checkout.payment_processor_metadata.payment_error;
  return reason === undefined ? undefined : processorText(reason);
}

/**
 * Where a paid checkout sends the buyer: its `success_url` (the server has put the checkout's id in
 * for `{CHECKOUT_ID}`, as Polar does), unless that is this page's own confirmation, which thanks the
 * buyer in place. Only web addresses: a stored `javascript:` URL would run as this site.
 */
export function successRedirectOf(checkout: PublicCheckout): string | null {
  const next = new URL(checkout.success_url, window.location.href);
  const isWeb = next.protocol === "https:" || next.protocol === "http:";
  const isThisPage = next.origin === window.location.origin && next.pathname.startsWith(window.location.pathname);
  return isWeb && !isThisPage ? next.toString() : null;
}

/** The sandbox's stand-in for Stripe.js: the typed card as a single-use confirmation token's id. */
export async function sandboxCardToken(card: CardEntry): Promise<string> {
  const [month, year] = card.expiry.split("/").map((part) => Number(part.trim()));
  const token = await request<SandboxConfirmationToken>("/v1/sandbox/confirmation-tokens", {
    method: "POST",
    body: { card_number: card.cardNumber, exp_month: month ?? 0, exp_year: 2000 + (year ?? 0), cvc: card.cvc } satisfies RequestBody<"/v1/sandbox/confirmation-tokens", "post">,
  });
  return token.id;
}
