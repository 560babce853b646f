import type { UnitOfWork } from "@tollgate/kit";
import type { BillingConfig } from "../config.js";
import { defaultPaymentMethodIfNone } from "../customers/customers.sql.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { keepPaymentMethod, recordPayment, type PaymentTrigger } from "./payments.sql.js";

// The reads refunds, the routes and the flows make, as the store has them.
export { findCustomersPaymentMethod, findPayment, pageOfPaymentMethods, pageOfPayments, paymentsOfOrder, succeededPaymentOf } from "./payments.sql.js";
import type { CardSummary, PaymentProcessor, SettledOutcome } from "./processor.js";

/** What a charge was for: the checkout it paid, or the order (a checkout's once placed, a renewal's, a change's). */
export interface Charge {
  organizationId: string;
  checkoutId: string | null;
  orderId: string | null;
  amount: number;
  currency: string;
  trigger: PaymentTrigger | null;
}

/** A charge of `amount` for an order alone (a renewal's, a change's, a dunning retry's), made by `trigger`. */
export const chargeOfOrder = (order: Pick<OrderRow, "id" | "organization_id" | "currency">, amount: number, trigger: PaymentTrigger | null): Charge => ({
  organizationId: order.organization_id,
  checkoutId: null,
  orderId: order.id,
  amount,
  currency: order.currency,
  trigger,
});

/**
 * The processor's answer to a charge, recorded with the unit's other changes: the one place a
 * payment's record is made, whichever flow charged.
 */
export function recordCharge(unit: UnitOfWork, config: Pick<BillingConfig, "PAYMENT_PROCESSOR">, charge: Charge, outcome: SettledOutcome): void {
  unit.change(
    recordPayment(
      unit.db,
      { organization_id: charge.organizationId, checkout_id: charge.checkoutId, order_id: charge.orderId, processor: config.PAYMENT_PROCESSOR, amount: charge.amount, currency: charge.currency, trigger: charge.trigger },
      outcome,
    ),
  );
}

/** Charges a kept card (a subscription's); null when there is nothing to charge. Without a card, declined. */
export async function chargeKeptCard(processor: PaymentProcessor, paymentMethodId: string | null, charge: { customerId: string; amount: number; currency: string; idempotencyKey: string }): Promise<SettledOutcome | null> {
  if (charge.amount === 0) return null;
  if (!paymentMethodId) return { status: "declined", processorPaymentId: null, card: null, declineCode: "card_declined", message: "No card is kept for this subscription." };
  return processor.chargeSaved({ ...charge, paymentMethodId });
}

/**
 * A card a payment kept for later charges, listed with the customer's others (in the portal), with the
 * unit's other changes. A customer's first card becomes their default, as Stripe makes it.
 */
export function keepCard(unit: UnitOfWork, customerId: string, paymentMethodId: string, card: CardSummary): void {
  unit.change(keepPaymentMethod(unit.db, { id: paymentMethodId, customer_id: customerId, card }));
  unit.change(defaultPaymentMethodIfNone(unit.db, customerId, paymentMethodId));
}
