import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";

export interface Address {
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
  country: string;
}

export interface CustomerRow {
  id: string;
  organization_id: string;
  email: string;
  email_verified: boolean;
  name: string | null;
  /** The name invoices carry when it is not the customer's own (a company's, say); the customer sets it in the portal. */
  billing_name: string | null;
  external_id: string | null;
  billing_address: Address | null;
  tax_id: string | null;
  /** The saved card renewals are charged to, when the customer chose one. */
  default_payment_method_id: string | null;
  locale: string | null;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export type CustomerChanges = Partial<Pick<CustomerRow, "email" | "name" | "billing_name" | "external_id" | "billing_address" | "tax_id" | "locale" | "metadata">>;

export const customers = (db: Knex) => db<CustomerRow>("customers").whereNull("deleted_at");

export const findCustomer = (db: Knex, id: string) => customers(db).where({ id }).first();

export const findCustomerByExternalId = (db: Knex, organizationIds: string[], externalId: string) =>
  customers(db).whereIn("organization_id", organizationIds).where({ external_id: externalId }).first();

export async function insertCustomer(db: Knex, customer: Pick<CustomerRow, "id" | "organization_id" | "email"> & CustomerChanges): Promise<CustomerRow> {
  const [row] = await db<CustomerRow>("customers").insert(customer).returning("*");
  if (!row) throw new Error("insert into customers returned no row");
  return row;
}

export async function updateCustomer(db: Knex, id: string, changes: CustomerChanges & Partial<Pick<CustomerRow, "deleted_at">>): Promise<CustomerRow | undefined> {
  const [row] = await db<CustomerRow>("customers")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

/** Announces the customer's state once the changes to it have settled (see the state worker). */
export async function scheduleStateChange(db: Knex, customerId: string, delayMs: number): Promise<void> {
  const runAt = new Date(Date.now() + delayMs);
  await db("customer_state_changes").insert({ customer_id: customerId, run_at: runAt }).onConflict("customer_id").merge({ run_at: runAt });
}
