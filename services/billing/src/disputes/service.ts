import { HttpError, reachable, type UnitOfWork } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findOrder } from "../orders/orders.sql.js";
import { orderTotal } from "../orders/service.js";
import { findPaymentByProcessorId } from "../payments/payments.sql.js";
import { findDispute, saveDispute, updateDisputeStatus, type DisputeRow, type DisputeStatus } from "./disputes.sql.js";

// The reads the routes make, as the store has them.
export { disputesWithCustomers, findDispute, pageOfDisputes, type DisputeRow } from "./disputes.sql.js";

/** A dispute as the processor reports it, in Polar's statuses. */
export interface ProcessorDispute {
  processor: string;
  processorDisputeId: string;
  /** The disputed payment, by the processor's id for it (a payment intent's). */
  processorPaymentId: string;
  status: DisputeStatus;
  /** The disputed total, tax included. */
  amount: number;
  currency: string;
  reason: string | null;
  evidenceDueBy: Date | null;
}

/**
 * Records what the processor says of a dispute, in `unit`: opened against a payment of ours, or
 * moved on. A payment we have no record of is a fault (the processor is told to send it again).
 */
export async function applyDisputeChange(unit: UnitOfWork, dispute: ProcessorDispute): Promise<DisputeRow> {
  const payment = await findPaymentByProcessorId(unit.db, dispute.processorPaymentId);
  const order = payment?.order_id ? await findOrder(unit.db, payment.order_id) : undefined;
  if (!payment?.order_id || !order) throw new Error(`dispute ${dispute.processorDisputeId}: no paid order of ours has the payment ${dispute.processorPaymentId}`);
  // The tax in the disputed total, in the order's proportion, as a refund's is.
  const total = orderTotal(order);
  const taxAmount = total === 0 ? 0 : Math.round((dispute.amount * order.tax_amount) / total);
  return saveDispute(unit.db, {
    organization_id: payment.organization_id,
    order_id: payment.order_id,
    payment_id: payment.id,
    customer_id: order.customer_id,
    processor: dispute.processor,
    processor_dispute_id: dispute.processorDisputeId,
    status: dispute.status,
    amount: dispute.amount - taxAmount,
    tax_amount: taxAmount,
    currency: dispute.currency,
    reason: dispute.reason,
    evidence_due_by: dispute.evidenceDueBy,
  });
}

/** Still waiting for the seller's answer: the only disputes that can be accepted. */
const OPEN = new Set<DisputeStatus>(["needs_response", "early_warning"]);

/**
 * The seller concedes a dispute: the processor closes it as lost, and so is it recorded. Only one
 * still waiting for the seller's answer can be (409 otherwise, as Polar answers).
 */
export async function acceptDispute(parts: Pick<Parts, "db" | "units" | "access" | "processor">, identity: IdentityClaims, id: string): Promise<DisputeRow> {
  const dispute = await reachable(parts.access, identity, "disputes:write", await findDispute(parts.db, id), "Dispute");
  if (!OPEN.has(dispute.status)) throw new HttpError(409, "DisputeNotOpen", `This dispute is ${dispute.status.replace("_", " ")}: only one that still needs a response can be accepted.`);
  await parts.processor.acceptDispute(dispute.processor_dispute_id);
  return parts.units.run((unit) => updateDisputeStatus(unit.db, dispute.id, "lost"));
}
