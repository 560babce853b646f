import type { RefundRow } from "./refunds.sql.js";

/** Polar's Refund: the row as it is, with no dispute (the sandbox has none). */
export const refundJson = (refund: RefundRow) => ({
  id: refund.id,
  created_at: refund.created_at,
  modified_at: refund.modified_at,
  metadata: refund.metadata,
  status: refund.status,
  reason: refund.reason,
  amount: refund.amount,
  tax_amount: refund.tax_amount,
  currency: refund.currency,
  organization_id: refund.organization_id,
  order_id: refund.order_id,
  subscription_id: refund.subscription_id,
  customer_id: refund.customer_id,
  revoke_benefits: refund.revoke_benefits,
  dispute: null,
});
