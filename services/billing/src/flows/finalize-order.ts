import { HttpError } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { findCustomer } from "../customers/service.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { lockOrder, orderTotal } from "../orders/service.js";
import type { SettledOutcome } from "../payments/processor.js";
import { chargeKeptCard, findCustomersPaymentMethod, paymentsOfOrder } from "../payments/service.js";
import { settleDraftPurchase } from "./settle-purchase.js";

/** Polar's 412 for a finalize of an order that is not (or no longer) a draft. */
const notDraft = (order: Pick<OrderRow, "id" | "status">) =>
  new HttpError(412, "OrderNotDraft", `Order ${order.id} is not in draft status (current: ${order.status}). Only draft orders can be modified or finalized.`);

/** Polar's 402 for a charge that could not be made: no card of the customer's to charge, or the card declined (the bank's words after Polar's). */
const paymentFailed = (reason: "missing_payment_method" | "card_error", said?: string) => new HttpError(402, "PaymentFailed", `Payment failed with reason: ${reason}.${said ? ` ${said}` : ""}`);

/** Polar's 402 for a charge the bank would take only with the customer there to confirm it (3-D Secure). */
const actionRequired = (order: OrderRow) =>
  new HttpError(402, "PaymentActionRequired", `Order ${order.id} payment requires customer authentication (e.g. 3DS challenge); off-session charge cannot complete.`);

/** Why a declined charge leaves the draft as it was. */
const declined = (order: OrderRow, outcome: Extract<SettledOutcome, { status: "declined" }>) =>
  outcome.declineCode === "authentication_required" ? actionRequired(order) : paymentFailed("card_error", outcome.message);

/**
 * Charges a seller's draft order to the customer's card now, off-session (Polar's POST
 * /v1/orders/{id}/finalize): the card named (one of the customer's), else their default. The card is
 * charged outside any transaction under a key of the order's attempt, so two finalizes at once charge
 * once and a retry after a crash asks the processor again; then, with the order locked, the answer
 * is settled where purchases are (flows/settle-purchase.ts). Paid, the order is numbered and its
 * benefits granted before this returns; declined, the payment is recorded, the order stays a draft
 * and the seller is answered with the decline.
 */
export async function finalizeOrder(billing: Pick<Parts, "db" | "units" | "config" | "processor">, order: OrderRow, paymentMethodId: string | null | undefined): Promise<OrderRow> {
  const { db, units } = billing;
  if (order.status !== "draft") throw notDraft(order);
  const customer = await findCustomer(db, order.customer_id);
  const cardId = paymentMethodId ?? customer?.default_payment_method_id;
  const card = customer && cardId ? await findCustomersPaymentMethod(db, customer.id, cardId) : undefined;
  if (!card) throw paymentFailed("missing_payment_method");
  const charged = orderTotal(order);
  // Each declined attempt is recorded against the order, so the next one is asked under a new key.
  const attempt = (await paymentsOfOrder(db, order.id)).length;
  const outcome = await chargeKeptCard(billing.processor, card.id, { customerId: order.customer_id, amount: charged, currency: order.currency, idempotencyKey: `order:${order.id}:charge:${attempt}` });
  const settled = await units.run(async (unit) => {
    const current = await lockOrder(unit.db, order.id);
    if (!current) throw new Error(`order ${order.id} is gone`);
    // Another finalize settled it first.
    if (current.status !== "draft") throw notDraft(current);
    return settleDraftPurchase(billing, unit, { order: current, charged, outcome });
  });
  if (outcome?.status === "declined") throw declined(order, outcome);
  return settled;
}
