import { z } from "zod";
import { defineEvent } from "./envelope.js";

const id = z.string().min(1);
/** An amount in the currency's smallest unit (cents), as billing keeps every amount. */
const amount = z.int();

/** A code that signs a customer in to their seller's portal, typed in on the portal's page. */
const PortalCodeMail = z.object({
  kind: z.literal("portal_code"),
  code: z.string().min(1),
  valid_minutes: z.int().min(1),
  portal_url: z.url(),
});

/** A link confirming the address a customer asked their seller's portal to use from now on: sent to that address. */
const EmailChangeMail = z.object({
  kind: z.literal("email_change"),
  verify_url: z.url(),
  valid_minutes: z.int().min(1),
});

/** A seat of a team's purchase given to someone: the link that claims it works once, for `valid_hours`. */
const SeatInvitationMail = z.object({
  kind: z.literal("seat_invitation"),
  product: z.string(),
  /** Who gave the seat: the buying customer's address. */
  billing_manager: z.string(),
  claim_url: z.url(),
  valid_hours: z.int().min(1),
});

/** What a purchase hands over at once: a license key in full, or a benefit's files (downloaded from the portal). */
const Delivery = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("license_key"), benefit: z.string(), key: z.string() }),
  z.object({ kind: z.literal("downloads"), benefit: z.string(), files: z.array(z.string()) }),
]);

/** What a paid order bought and what it cost, as its receipt lists it, with what the purchase delivered. */
const OrderReceiptMail = z.object({
  kind: z.literal("order_receipt"),
  order_id: id,
  invoice_number: z.string(),
  paid_at: z.iso.datetime({ offset: true }),
  currency: z.string().length(3),
  lines: z.array(z.object({ label: z.string(), amount })),
  subtotal_amount: amount,
  discount_amount: amount,
  tax_amount: amount,
  total_amount: amount,
  deliveries: z.array(Delivery).default([]),
  portal_url: z.url(),
});

/**
 * What the customer is told of a subscription: canceled (it ends at `ends_at`), resumed, ended, a
 * renewal not paid, a retry of it declined (tried again at `retry_at`), moved to another plan with
 * nothing charged now (`product`, `amount`: the new plan), or ahead of time that its trial ends or
 * its yearly plan renews at `ends_at`.
 */
const SubscriptionMail = z.object({
  kind: z.literal("subscription_notice"),
  notice: z.enum(["canceled", "uncanceled", "revoked", "past_due", "retry_failed", "plan_changed", "trial_ending", "renewal_upcoming", "paused", "resumed"]),
  product: z.string(),
  /** The plan's amount: what a renewal charges before discount and tax. */
  amount: amount,
  currency: z.string().length(3),
  /** When the current period ends: a canceled subscription stops, a trial ends, a plan renews; null for the other notices. */
  ends_at: z.iso.datetime({ offset: true }).nullable(),
  /** When a declined card is tried again; null for the other notices. */
  retry_at: z.iso.datetime({ offset: true }).nullable().default(null),
  portal_url: z.url(),
});

/** Money given back on an order. */
const RefundMail = z.object({
  kind: z.literal("refund_notice"),
  invoice_number: z.string(),
  amount: amount,
  currency: z.string().length(3),
  portal_url: z.url(),
});

/**
 * Billing asks for a mail to one of a seller's customers. The auth service, which sends every mail
 * of the platform, writes it in the customer's language (one of the product's, else English) and
 * sends it from the platform's address under the seller's name, answered to the seller's e-mail.
 * One event is one mail: billing announces it once, in the transaction of what it tells of.
 */
export const customerMailRequested = defineEvent(
  "customer_mail.requested",
  z.object({
    organization_id: id,
    seller_name: z.string(),
    reply_to: z.email().nullable(),
    to: z.email(),
    locale: z.string().nullable(),
    mail: z.discriminatedUnion("kind", [PortalCodeMail, EmailChangeMail, SeatInvitationMail, OrderReceiptMail, SubscriptionMail, RefundMail]),
  }),
);
export type CustomerMail = z.output<typeof customerMailRequested.data>["mail"];
