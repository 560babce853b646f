import { randomId, type Knex } from "@tollgate/kit";
import type { PaymentOutcome } from "./processor.js";

/**
 * Records what the processor said of a charge, succeeded or declined. The processor's payment id is
 * unique, so recording the answer to a retried call (the same payment) again adds nothing. A change
 * to await, or to write with others (ChangeSet).
 */
export function recordPayment(
  db: Knex,
  payment: { organization_id: string; checkout_id: string | null; order_id: string | null; processor: string; amount: number; currency: string },
  outcome: PaymentOutcome,
): Knex.QueryBuilder {
  return db("payments")
    .insert({
      ...payment,
      id: randomId(32),
      processor_payment_id: outcome.processorPaymentId,
      status: outcome.status === "succeeded" ? "succeeded" : "failed",
      card_brand: outcome.card?.brand ?? null,
      card_last4: outcome.card?.last4 ?? null,
      decline_code: outcome.status === "declined" ? outcome.declineCode : null,
      decline_message: outcome.status === "declined" ? outcome.message : null,
    })
    .onConflict("processor_payment_id")
    .ignore();
}
