import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";

/** A lasting link that opens a fresh checkout for its products each time it is followed. */
export interface CheckoutLinkRow {
  id: string;
  organization_id: string;
  client_secret: string;
  product_ids: string[];
  label: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  discount_id: string | null;
  success_url: string | null;
  return_url: string | null;
  metadata: Metadata;
  deleted_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

export type CheckoutLinkSettings = Pick<CheckoutLinkRow, "product_ids" | "label" | "allow_discount_codes" | "require_billing_address" | "discount_id" | "success_url" | "return_url" | "metadata">;

export const checkoutLinks = (db: Knex) => db<CheckoutLinkRow>("checkout_links").whereNull("deleted_at");

export async function insertCheckoutLink(db: Knex, link: Pick<CheckoutLinkRow, "id" | "organization_id" | "client_secret"> & CheckoutLinkSettings): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links").insert(link).returning("*");
  if (!row) throw new Error("insert into checkout_links returned no row");
  return row;
}

export async function updateCheckoutLink(db: Knex, id: string, changes: Partial<CheckoutLinkSettings & Pick<CheckoutLinkRow, "deleted_at">>): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`checkout link ${id} is gone`);
  return row;
}
