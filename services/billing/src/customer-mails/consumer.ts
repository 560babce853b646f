import { z } from "zod";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents } from "@tollgate/proto";
import { findCustomer } from "../customers/service.js";
import { findOrder } from "../orders/service.js";
import { paidOrderNumber } from "../orders/output.js";
import type { BillingReason } from "../orders/orders.sql.js";
import { deliveriesOf } from "./deliveries.js";
import { mailCustomer, SWITCH_OF_NOTICE, type SubscriptionNotice } from "../customers/mail.js";

const Recipient = z.object({ email: z.string(), locale: z.string().nullable() });

/** What a receipt needs of an order.paid payload (the order as Polar's webhook carries it). */
const PaidOrder = z.object({
  id: z.string(),
  subscription_id: z.string().nullable(),
  invoice_number: z.string(),
  currency: z.string(),
  billing_reason: z.enum(["purchase", "subscription_create", "subscription_cycle", "subscription_update"]),
  subtotal_amount: z.int(),
  discount_amount: z.int(),
  tax_amount: z.int(),
  total_amount: z.int(),
  items: z.array(z.object({ label: z.string(), amount: z.int() })),
  customer: Recipient,
});

/** What a subscription notice needs of a subscription.* payload. */
const NoticedSubscription = z.object({
  amount: z.int(),
  currency: z.string(),
  current_period_end: z.string().nullable(),
  ends_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  product: z.object({ name: z.string() }),
  customer: Recipient,
});

/** What a refund notice needs of a refund.updated payload. */
const SettledRefund = z.object({ status: z.string(), amount: z.int(), currency: z.string(), order_id: z.string(), customer_id: z.string() });

/** Which of the seller's mail switches (Polar's `customer_email_settings`) covers the receipt of an order made for this reason. */
const SWITCH_OF_REASON: Record<BillingReason, string> = {
  purchase: "order_confirmation",
  subscription_create: "subscription_confirmation",
  subscription_cycle: "subscription_cycled",
  subscription_update: "subscription_updated",
};


/** The handler that tells a subscription's customer of `notice`, when its event says so. */
const subscriptionNotice = <Type extends `subscription.${"canceled" | "uncanceled" | "revoked" | "past_due" | "paused" | "resumed"}`>(publicUrl: string, notice: SubscriptionNotice, event: (typeof billingEvents)[Type]) =>
  on(event, async ({ data }, context) => {
    const subscription = NoticedSubscription.parse(data.payload);
    // Canceled at once, it has ended: subscription.revoked follows and says so.
    if (notice === "canceled" && subscription.ended_at) return;
    await mailCustomer(context.unit, publicUrl, data.organization_id, SWITCH_OF_NOTICE[notice], subscription.customer, (portalUrl) => ({
      kind: "subscription_notice",
      notice,
      product: subscription.product.name,
      amount: subscription.amount,
      currency: subscription.currency,
      ends_at: notice === "canceled" ? (subscription.ends_at ?? subscription.current_period_end) : null,
      retry_at: null,
      portal_url: portalUrl,
    }));
  });

/**
 * The mails billing's own events call for, each asked of the mailer in the consumer's transaction,
 * so an event delivered again after a crash never mails twice: a receipt for every order paid (a
 * purchase's with the license keys and downloads it delivered); a
 * notice when a subscription is canceled, resumed, ended or not paid; and a refund once it went
 * through (under the receipts' switch, as Polar has none of its own for it).
 */
export function customerMailsConsumer(publicUrl: string): ConsumerDefinition {
  return {
    name: "billing-customer-mails",
    handlers: [
      on(billingEvents["order.paid"], async (event, context) => {
        const order = PaidOrder.parse(event.data.payload);
        // A purchase's receipt hands over what it delivered; a renewal's delivers nothing new.
        const source = order.billing_reason === "purchase" ? { order_id: order.id } : order.billing_reason === "subscription_create" && order.subscription_id ? { subscription_id: order.subscription_id } : null;
        const deliveries = source ? await deliveriesOf(context.unit.db, source) : [];
        await mailCustomer(context.unit, publicUrl, event.data.organization_id, SWITCH_OF_REASON[order.billing_reason], order.customer, (portalUrl) => ({
          kind: "order_receipt",
          order_id: order.id,
          invoice_number: order.invoice_number,
          paid_at: event.occurred_at,
          currency: order.currency,
          lines: order.items.map(({ label, amount }) => ({ label, amount })),
          subtotal_amount: order.subtotal_amount,
          discount_amount: order.discount_amount,
          tax_amount: order.tax_amount,
          total_amount: order.total_amount,
          deliveries,
          portal_url: portalUrl,
        }));
      }),
      subscriptionNotice(publicUrl, "canceled", billingEvents["subscription.canceled"]),
      subscriptionNotice(publicUrl, "uncanceled", billingEvents["subscription.uncanceled"]),
      subscriptionNotice(publicUrl, "revoked", billingEvents["subscription.revoked"]),
      subscriptionNotice(publicUrl, "past_due", billingEvents["subscription.past_due"]),
      subscriptionNotice(publicUrl, "paused", billingEvents["subscription.paused"]),
      subscriptionNotice(publicUrl, "resumed", billingEvents["subscription.resumed"]),
      on(billingEvents["refund.updated"], async ({ data }, context) => {
        const refund = SettledRefund.parse(data.payload);
        if (refund.status !== "succeeded") return;
        const [customer, order] = await Promise.all([findCustomer(context.unit.db, refund.customer_id), findOrder(context.unit.db, refund.order_id)]);
        if (!customer || !order) return;
        await mailCustomer(context.unit, publicUrl, data.organization_id, "order_confirmation", customer, (portalUrl) => ({
          kind: "refund_notice",
          invoice_number: paidOrderNumber(order),
          amount: refund.amount,
          currency: refund.currency,
          portal_url: portalUrl,
        }));
      }),
    ],
  };
}
