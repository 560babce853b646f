import { z } from "zod";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents } from "@tollgate/proto";
import { findSeller, type SellerRow } from "../organizations/organizations.sql.js";
import type { BillingReason } from "../orders/orders.sql.js";
import { portalUrlOf, requestCustomerMail } from "./requests.js";

/** What a receipt needs of an order.paid payload (the order as Polar's webhook carries it). */
const PaidOrder = z.object({
  id: z.string(),
  created_at: z.string(),
  invoice_number: z.string(),
  currency: z.string(),
  billing_reason: z.enum(["purchase", "subscription_create", "subscription_cycle", "subscription_update"]),
  subtotal_amount: z.int(),
  discount_amount: z.int(),
  tax_amount: z.int(),
  total_amount: z.int(),
  items: z.array(z.object({ label: z.string(), amount: z.int() })),
  customer: z.object({ email: z.string(), locale: z.string().nullable() }),
});

/** Which of the seller's mail switches (Polar's `customer_email_settings`) covers the receipt of an order made for this reason. */
const SWITCH_OF_REASON: Record<BillingReason, string> = {
  purchase: "order_confirmation",
  subscription_create: "subscription_confirmation",
  subscription_cycle: "subscription_cycled",
  subscription_update: "subscription_updated",
};

/** Whether the seller lets billing send this mail: every switch is on until the seller turns it off. */
const sends = (seller: Pick<SellerRow, "customer_email_settings">, name: string) => seller.customer_email_settings[name] !== false;

/**
 * The mails billing's own events call for, each asked of the mailer in the consumer's transaction,
 * so an event (delivered again after a crash) never mails twice: a receipt for every order paid,
 * unless the seller turned off that kind of mail.
 */
export function customerMailsConsumer(publicUrl: string): ConsumerDefinition {
  return {
    name: "billing-customer-mails",
    handlers: [
      on(billingEvents["order.paid"], async (event, { unit }) => {
        const order = PaidOrder.parse(event.data.payload);
        const seller = await findSeller(unit.db, event.data.organization_id);
        if (!seller || !sends(seller, SWITCH_OF_REASON[order.billing_reason])) return;
        requestCustomerMail(unit, seller, order.customer, {
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
          portal_url: portalUrlOf(publicUrl, seller),
        });
      }),
    ],
  };
}
