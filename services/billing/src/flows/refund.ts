import type { Parts } from "../parts.js";
import { revokeBenefits } from "../benefit-grants/granting.js";
import { lockOrder, refundOrderPart } from "../orders/service.js";
import { succeededPaymentOf } from "../payments/service.js";
import { checkRefundable, openRefund, settleRefund, type RefundRequest } from "../refunds/service.js";
import type { RefundRow } from "../refunds/refunds.sql.js";
import { sellerNow } from "../test-clock/clock.js";

/**
 * Refunds part or all of an order through the processor that charged it. The refund is recorded
 * pending before the processor is asked, and then succeeded (the order's refunded amounts grow, and
 * its benefits go if asked) or failed. The order row is locked throughout, so refunds side by side
 * never add up to more than was paid.
 */
export function refundOrder(billing: Pick<Parts, "processor" | "units">, orderId: string, request: RefundRequest): Promise<RefundRow> {
  return billing.units.run(async (unit) => {
    const order = await lockOrder(unit.db, orderId);
    if (!order) throw new Error(`order ${orderId} is gone`);
    const processorPaymentId = await succeededPaymentOf(unit.db, order.id);
    checkRefundable(order, request, processorPaymentId);
    const pending = await openRefund(unit, order, request);
    const refund = await settleRefund(unit, pending, await billing.processor.refund({ idempotencyKey: `refund:${pending.id}`, processorPaymentId, amount: pending.amount + pending.tax_amount }));
    if (refund.status === "failed") return refund;
    if (refund.revoke_benefits) await revokeBenefits(unit, { order_id: order.id }, await sellerNow(unit.db, order.organization_id));
    await refundOrderPart(unit, order, { amount: refund.amount, taxAmount: refund.tax_amount });
    return refund;
  });
}
