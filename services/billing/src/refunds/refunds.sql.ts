import { pageOf, whereAnyOf, type Knex, type Sort } from "@tollgate/kit";
import type { Metadata } from "../db/metadata.js";
import { customerIdsWithExternalIds } from "../customers/customers.sql.js";

export const REFUND_REASONS = ["duplicate", "fraudulent", "customer_request", "service_disruption", "satisfaction_guarantee", "dispute_prevention", "other"] as const;

export interface RefundRow {
  id: string;
  organization_id: string;
  order_id: string;
  subscription_id: string | null;
  customer_id: string;
  status: "pending" | "succeeded" | "failed" | "canceled";
  reason: (typeof REFUND_REASONS)[number];
  comment: string | null;
  amount: number;
  tax_amount: number;
  currency: string;
  revoke_benefits: boolean;
  processor_refund_id: string | null;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export const refunds = (db: Knex) => db<RefundRow>("refunds");

export const findRefund = (db: Knex, id: string) => refunds(db).where({ id }).first();

/** The order's refunds that went through, oldest first. */
export const succeededRefundsOf = (db: Knex, orderId: string) => refunds(db).where({ order_id: orderId, status: "succeeded" }).orderBy("created_at");

export async function insertRefund(db: Knex, refund: Omit<RefundRow, "created_at" | "modified_at">): Promise<RefundRow> {
  const [row] = await db<RefundRow>("refunds").insert(refund).returning("*");
  if (!row) throw new Error("insert into refunds returned no row");
  return row;
}

export async function updateRefund(db: Knex, id: string, changes: Partial<Pick<RefundRow, "status" | "processor_refund_id">>): Promise<RefundRow> {
  const [row] = await db<RefundRow>("refunds")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`refund ${id} is gone`);
  return row;
}

export const REFUND_SORTABLE = { created_at: "created_at", amount: "amount" } as const;

/** Which refunds a list asks for: within the organizations given, by any of the ids given, succeeded or not. */
export interface RefundFilter {
  organizationIds: string[];
  filters: Partial<Record<"id" | "organization_id" | "order_id" | "subscription_id" | "customer_id" | "external_customer_id", string[]>>;
  succeeded?: boolean;
}

export function pageOfRefunds(db: Knex, { organizationIds, filters, succeeded }: RefundFilter, page: { page: number; limit: number; sort: Sort<keyof typeof REFUND_SORTABLE> }) {
  const found = refunds(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["id", "organization_id", "order_id", "subscription_id", "customer_id"]);
  if (filters.external_customer_id) void found.whereIn("customer_id", customerIdsWithExternalIds(db, organizationIds, filters.external_customer_id));
  if (succeeded !== undefined) void (succeeded ? found.where({ status: "succeeded" }) : found.whereNot({ status: "succeeded" }));
  return pageOf<RefundRow, keyof typeof REFUND_SORTABLE>(found, { ...page, columns: REFUND_SORTABLE, table: "refunds" });
}
