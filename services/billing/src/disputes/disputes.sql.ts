import { pageOf, randomId, whereAnyOf, type Knex, type Sort } from "@tollgate/kit";
import { customersWithIds, type CustomerRow } from "../customers/customers.sql.js";

/** Polar's dispute statuses: the processor's are mapped onto them (disputes/service.ts). */
export const DISPUTE_STATUSES = ["prevented", "early_warning", "needs_response", "under_review", "lost", "won"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export interface DisputeRow {
  id: string;
  organization_id: string;
  order_id: string;
  payment_id: string;
  /** The disputed order's customer. */
  customer_id: string;
  processor: string;
  processor_dispute_id: string;
  status: DisputeStatus;
  /** The disputed total less the tax in it, which tax_amount holds. */
  amount: number;
  tax_amount: number;
  currency: string;
  /** The card network's reason, as the processor reports it. */
  reason: string | null;
  /** Until when the seller may answer it with evidence; null when no answer is asked. */
  evidence_due_by: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

const disputes = (db: Knex) => db<DisputeRow>("disputes");

export const findDispute = (db: Knex, id: string) => disputes(db).where({ id }).first();

/** A dispute with the customer whose payment it is, as it is shown. */
export interface DisputeWithCustomer extends DisputeRow {
  customer: CustomerRow;
}

/** Disputes with their customers (deleted ones too), read for all at once. */
export async function disputesWithCustomers(db: Knex, rows: DisputeRow[]): Promise<DisputeWithCustomer[]> {
  const customers = await customersWithIds(db, [...new Set(rows.map((row) => row.customer_id))]);
  return rows.map((dispute) => {
    const customer = customers.find((candidate) => candidate.id === dispute.customer_id);
    if (!customer) throw new Error(`dispute ${dispute.id} has lost its customer`);
    return { ...dispute, customer };
  });
}

/**
 * Records a dispute as the processor has it now: made the first time, its status brought up to date
 * after. The processor's dispute is unique, so two reports at once record one.
 */
export async function saveDispute(db: Knex, dispute: Omit<DisputeRow, "id" | "created_at" | "modified_at">): Promise<DisputeRow> {
  const [row] = await disputes(db)
    .insert({ ...dispute, id: randomId(32) })
    .onConflict(["processor", "processor_dispute_id"])
    .merge({ status: dispute.status, amount: dispute.amount, tax_amount: dispute.tax_amount, reason: dispute.reason, evidence_due_by: dispute.evidence_due_by, modified_at: db.fn.now() as unknown as Date })
    .returning("*");
  if (!row) throw new Error(`dispute ${dispute.processor_dispute_id} was not recorded`);
  return row;
}

export async function updateDisputeStatus(db: Knex, id: string, status: DisputeStatus): Promise<DisputeRow> {
  const [row] = await disputes(db).where({ id }).update({ status, modified_at: new Date() }).returning("*");
  if (!row) throw new Error(`dispute ${id} is gone`);
  return row;
}

export const DISPUTE_SORTABLE = { created_at: "created_at", amount: "amount" } as const;

/** Which disputes a list asks for: within the organizations given, by any of the orders or statuses given. */
export interface DisputeFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "order_id" | "status", string[]>>;
}

export function pageOfDisputes(db: Knex, { organizationIds, filters }: DisputeFilter, page: { page: number; limit: number; sort: Sort<keyof typeof DISPUTE_SORTABLE> }) {
  const found = disputes(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["organization_id", "order_id", "status"]);
  return pageOf<DisputeRow, keyof typeof DISPUTE_SORTABLE>(found, { ...page, columns: DISPUTE_SORTABLE, table: "disputes" });
}
