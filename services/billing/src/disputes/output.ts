import type { DisputeRow } from "./disputes.sql.js";

/** Over, whichever way: nothing more can be done about it. */
const RESOLVED = new Set<DisputeRow["status"]>(["won", "lost", "prevented"]);

/** Polar's Dispute: closed once the seller can no longer answer it (under review, or over), resolved once it is over. */
export const disputeJson = (dispute: DisputeRow) => ({
  created_at: dispute.created_at,
  modified_at: dispute.modified_at,
  id: dispute.id,
  status: dispute.status,
  resolved: RESOLVED.has(dispute.status),
  closed: dispute.status !== "needs_response" && dispute.status !== "early_warning",
  amount: dispute.amount,
  // Tollgate charges no tax yet, so none of a disputed payment is tax.
  tax_amount: 0,
  currency: dispute.currency,
  order_id: dispute.order_id,
  payment_id: dispute.payment_id,
});
