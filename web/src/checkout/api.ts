import { request } from "../api/client";
import { processorText } from "../api/error-messages";
import type { CheckoutQuestion } from "../forms/checkout";
import type { SellerIdentity } from "../ui/seller-frame";

export type Interval = "day" | "week" | "month" | "year";

/** What the page needs of Polar's CheckoutProduct. */
export interface CheckoutProduct {
  name: string;
  description: string | null;
  recurring_interval: Interval | null;
  recurring_interval_count: number | null;
  medias: { id: string; name: string; mime_type: string; public_url?: string }[];
  benefits: { id: string; description: string }[];
}

/** What the page needs of Polar's CheckoutPublic. */
export interface PublicCheckout {
  id: string;
  status: "open" | "expired" | "confirmed" | "succeeded" | "failed";
  /** Before discount and tax. */
  amount: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
  currency: string;
  success_url: string;
  customer_email: string | null;
  customer_name: string | null;
  is_payment_form_required: boolean;
  payment_processor_metadata: Record<string, string>;
  active_trial_interval: Interval | null;
  active_trial_interval_count: number | null;
  product: CheckoutProduct | null;
  discount: { name: string; code: string | null } | null;
  allow_discount_codes: boolean;
  is_discount_applicable: boolean;
  /** The seller's questions, from the product: Polar's attached custom fields. */
  attached_custom_fields: CheckoutQuestion[];
  organization: SellerIdentity;
  /** The buyer's language as the seller set it (Polar's `locale`), if any. */
  locale?: string | null;
}

export const checkoutPath = (clientSecret: string) => `/v1/checkouts/client/${encodeURIComponent(clientSecret)}`;

/** The checkout's query: the screen reads it and the form refreshes it once the payment is settled. */
export const checkoutQuery = (clientSecret: string) => ({
  queryKey: ["checkout", clientSecret],
  queryFn: () => request<PublicCheckout>(checkoutPath(clientSecret)),
});

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
