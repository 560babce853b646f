import { customerJson } from "../customers/output.js";
import type { DisputeRow, DisputeWithCustomer } from "./disputes.sql.js";

/** Over: won or lost. */
const RESOLVED = new Set<DisputeRow["status"]>(["won", "lost"]);
/** Nothing more can happen to it: resolved, or prevented by a refund before it went further. */
const CLOSED = new Set<DisputeRow["status"]>(["won", "lost", "prevented"]);

/**
 * Polar's Dispute, as of `now`: past due once its deadline for evidence has gone by while it still
 * waits for an answer. Polar's support cases are Polar's own, so none is named.
 */
export const disputeJson = (dispute: DisputeWithCustomer, now: Date) => ({
  created_at: dispute.created_at,
  modified_at: dispute.modified_at,
  id: dispute.id,
  status: dispute.status,
  resolved: RESOLVED.has(dispute.status),
  closed: CLOSED.has(dispute.status),
  amount: dispute.amount,
  tax_amount: dispute.tax_amount,
  currency: dispute.currency,
  reason: dispute.reason,
  evidence_due_by: dispute.evidence_due_by,
  past_due: dispute.status === "needs_response" && dispute.evidence_due_by !== null && dispute.evidence_due_by < now,
  order_id: dispute.order_id,
  payment_id: dispute.payment_id,
  customer: customerJson(dispute.customer),
  case_id: null,
});
