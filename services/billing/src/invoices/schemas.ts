import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { addressInput } from "../http/address.js";

/** Where an order's invoice PDF downloads from, for an hour. */
export const OrderInvoice = z.strictObject({ url: z.string() }).meta({ id: "OrderInvoice" });
export const OrderReceipt = z.strictObject({ url: z.string() }).meta({ id: "OrderReceipt" });
export const CustomerOrderInvoice = z.strictObject({ url: z.string() }).meta({ id: "CustomerOrderInvoice" });
export const CustomerOrderReceipt = z.strictObject({ url: z.string() }).meta({ id: "CustomerOrderReceipt" });
/** Where a refund's credit note PDF downloads from, for an hour. */
export const CreditNote = z.strictObject({ url: z.string() }).meta({ id: "CreditNote" });

/** Tollgate's own: an order's credit notes, each numbered as printed, with the refund it is of and a link. */
export const OrderCreditNotes = z
  .array(z.strictObject({ refund_id: z.string(), number: z.string(), created_at: isoTimestamp(), url: z.string() }).meta({ id: "OrderCreditNote" }))
  .meta({ id: "OrderCreditNotes" });

/** The name and address an order's invoice will carry, corrected before it is made. */
export const OrderBillingUpdate = z.object({
  billing_name: z.string().trim().min(1).max(256).nullish(),
  billing_address: addressInput.nullish(),
});
