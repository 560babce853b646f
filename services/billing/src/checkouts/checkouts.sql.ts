import type { Knex } from "@tollgate/kit";
import { rowsFromJson } from "../api/jsonb.js";
import type { Metadata } from "../api/metadata.js";
import type { Address } from "../customers/customers.sql.js";
import type { ChangeSet } from "../events.js";
import { sellerNowSql } from "../test-clock/clock.js";

export type CheckoutStatus = "open" | "expired" | "confirmed" | "succeeded" | "failed";

/** Answers to a seller's custom fields, by slug. */
export type CustomFieldData = Record<string, string | number | boolean | null>;

export interface CheckoutRow {
  id: string;
  organization_id: string;
  client_secret: string;
  status: CheckoutStatus;
  /** The products offered, in the seller's order; `product_id` is the one chosen. */
  product_ids: string[];
  product_id: string;
  product_price_id: string;
  /** Before any discount: the price's amount, or what the customer chose for a pay-what-you-want price. */
  amount: number;
  currency: string;
  discount_id: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  allow_trial: boolean;
  customer_id: string | null;
  external_customer_id: string | null;
  is_business_customer: boolean;
  customer_name: string | null;
  customer_email: string | null;
  customer_ip_address: string | null;
  customer_billing_name: string | null;
  customer_billing_address: Address | null;
  customer_tax_id: string | null;
  customer_metadata: Metadata;
  custom_field_data: CustomFieldData;
  metadata: Metadata;
  success_url: string | null;
  return_url: string | null;
  embed_origin: string | null;
  locale: string | null;
  payment_error: string | null;
  expires_at: Date;
  created_at: Date;
  modified_at: Date | null;
}

export type CheckoutChanges = Partial<Omit<CheckoutRow, "id" | "organization_id" | "client_secret" | "created_at" | "modified_at">>;

export const checkouts = (db: Knex) => db<CheckoutRow>("checkouts");

export const findCheckout = (db: Knex, id: string) => checkouts(db).where({ id }).first();

/** A checkout row that came back as JSON (from a prepared statement: see `prepared`). */
export const checkoutFromJson = (json: unknown) => rowsFromJson<CheckoutRow>([json], ["expires_at", "created_at", "modified_at"])[0] as CheckoutRow;

/** The insert of a new checkout, made in full beforehand: a change to write with others (ChangeSet). */
export const insertCheckout = (db: Knex, checkout: CheckoutRow): Knex.QueryBuilder => checkouts(db).insert(checkout);

/** A checkout's row after `changes`, and the change that writes them (added to `changes`); nothing is read back. */
export function changedCheckout(writes: ChangeSet, checkout: CheckoutRow, changes: CheckoutChanges): CheckoutRow {
  const modified = { ...changes, modified_at: new Date() };
  writes.change(checkouts(writes.db).where({ id: checkout.id }).update(modified));
  return { ...checkout, ...modified };
}

/** Open checkouts whose time is up in their seller's clock, locked for the caller to expire; SKIP LOCKED lets replicas share the sweep. */
export const overdueCheckouts = (db: Knex, limit: number) =>
  db("checkouts as checkout")
    .join("organizations as seller", "seller.id", "checkout.organization_id")
    .where("checkout.status", "open")
    .whereRaw(`checkout.expires_at <= ${sellerNowSql("seller")}`)
    .orderBy("checkout.expires_at")
    .limit(limit)
    .select<CheckoutRow[]>("checkout.*")
    .forUpdate("checkout")
    .skipLocked();
