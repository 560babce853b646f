import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { Customer } from "../customers/schemas.js";
import { DISPUTE_SORTABLE, DISPUTE_STATUSES } from "./disputes.sql.js";

export const Dispute = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    status: z.enum(DISPUTE_STATUSES),
    resolved: z.boolean(),
    closed: z.boolean(),
    amount: z.int().meta({ description: "The disputed total less the tax in it" }),
    tax_amount: z.int(),
    currency: z.string(),
    reason: z.string().nullable().meta({ description: "The card network's reason (fraudulent, product_not_received, …)" }),
    evidence_due_by: isoTimestamp().nullable(),
    past_due: z.boolean(),
    order_id: z.string(),
    payment_id: z.string(),
    customer: Customer,
    case_id: z.null(),
  })
  .meta({ id: "Dispute" });

export const DisputeList = listResource(Dispute, "ListResource_Dispute_");

export const DisputeListQuery = z.object({
  ...sellerFilter,
  order_id: repeated(z.string()),
  status: repeated(z.enum(DISPUTE_STATUSES)),
  ...paging,
  sorting: sorting(Object.keys(DISPUTE_SORTABLE) as (keyof typeof DISPUTE_SORTABLE)[], "-created_at"),
});
