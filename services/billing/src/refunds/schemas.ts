import { z } from "zod";
import { isoTimestamp, listResource, paging, pgInteger, queryFlag, repeated, sorting } from "@tollgate/kit";
import { customerFilter, sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput } from "../http/metadata.js";
import { REFUND_REASONS, REFUND_SORTABLE } from "./refunds.sql.js";

// The reasons a seller may give for a refund.
export { REFUND_REASONS } from "./refunds.sql.js";

export const Refund = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    metadata: metadataOutput,
    status: z.enum(["pending", "succeeded", "failed", "canceled"]),
    reason: z.enum(REFUND_REASONS),
    amount: z.int(),
    tax_amount: z.int(),
    currency: z.string(),
    organization_id: z.string(),
    order_id: z.string(),
    subscription_id: z.string().nullable(),
    customer_id: z.string(),
    revoke_benefits: z.boolean(),
    // The sandbox has no disputes.
    dispute: z.null(),
  })
  .meta({ id: "Refund" });

export const RefundList = listResource(Refund, "ListResource_Refund_");

/** The properties a list of refunds may be sorted by. */
export const REFUND_SORT_KEYS = Object.keys(REFUND_SORTABLE) as (keyof typeof REFUND_SORTABLE)[];

export const RefundCreate = z.object({
  order_id: z.string(),
  reason: z.enum(REFUND_REASONS),
  amount: pgInteger().min(1),
  comment: z.string().max(1_000).nullish(),
  revoke_benefits: z.boolean().default(false),
  metadata: metadataInput.default({}),
});

export const RefundListQuery = z.object({
  ...paging,
  id: repeated(z.string()),
  ...sellerFilter,
  order_id: repeated(z.string()),
  subscription_id: repeated(z.string()),
  customer_id: customerFilter.customer_id,
  external_customer_id: customerFilter.external_customer_id,
  succeeded: queryFlag().optional(),
  sorting: sorting(REFUND_SORT_KEYS, "-created_at"),
});
