import { prepared, type Knex } from "@tollgate/kit";
import { rowsFromJson } from "../api/jsonb.js";
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

/**
 * Announces the customer's state once the changes to it have settled (see the state worker): a
 * change to await, or to write with others (ChangeSet).
 */
export function scheduleStateChange(db: Knex, customerId: string, delayMs: number): Knex.QueryBuilder {
  const runAt = new Date(Date.now() + delayMs);
  return db("customer_state_changes").insert({ customer_id: customerId, run_at: runAt }).onConflict("customer_id").merge({ run_at: runAt });
}

/** A customer row that came back as JSON (from a prepared statement: see `prepared`). */
const customerFromJson = (json: unknown) => rowsFromJson<CustomerRow>([json], ["created_at", "modified_at", "deleted_at"])[0] as CustomerRow;

/**
 * The seller's customer with the draft's e-mail, or a new one made from the draft when there is
 * none, in one statement; `created` says which. Null when another transaction made that customer
 * meanwhile and has not committed yet as this statement began: the caller asks again.
 */
export async function findOrCreateCustomer(db: Knex, draft: Pick<CustomerRow, "id" | "organization_id" | "email"> & CustomerChanges): Promise<{ customer: CustomerRow; created: boolean } | null> {
  const made = db("customers").insert(draft).onConflict().ignore().toSQL();
  const { rows } = await prepared(
    db.raw<{ rows: { customer: unknown; created: boolean }[] }>(
      `with made as (${made.sql} returning *)
       select to_json(made) as customer, true as created from made
       union all
       select to_json(found) as customer, false as created from customers found
         where found.organization_id = ? and found.email = ? and found.deleted_at is null and not exists (select 1 from made)`,
      [...made.bindings, draft.organization_id, draft.email] as Knex.RawBinding[],
    ),
  );
  const [row] = rows;
  return row ? { customer: customerFromJson(row.customer), created: row.created } : null;
}

/** Counts one more order of the customer (their invoices are numbered by it); the customer as they now are. */
export async function countOrder(db: Knex, customerId: string): Promise<CustomerRow & { orders_count: number }> {
  const { rows } = await prepared(db.raw<{ rows: { customer: unknown }[] }>("update customers set orders_count = orders_count + 1 where id = ? returning to_json(customers) as customer", [customerId]));
  const [row] = rows;
  if (!row) throw new Error(`customer ${customerId} is gone`);
  return customerFromJson(row.customer) as CustomerRow & { orders_count: number };
}
