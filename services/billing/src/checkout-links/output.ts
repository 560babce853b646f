import type { Knex } from "@tollgate/kit";
import { discounts } from "../discounts/discounts.sql.js";
import { discountsJson } from "../discounts/output.js";
import { productsJson } from "../products/output.js";
import { products } from "../products/products.sql.js";
import type { CheckoutLinkRow } from "./checkout-links.sql.js";

/** Where following the link leads: a fresh checkout, through a redirect. */
export const linkUrl = (publicUrl: string, link: Pick<CheckoutLinkRow, "client_secret">) => `${publicUrl.replace(/\/$/, "")}/v1/checkout-links/${link.client_secret}/redirect`;

/** Checkout links as Polar shows them, with their products and discount, read for all at once. */
export async function checkoutLinksJson(db: Knex, rows: CheckoutLinkRow[], publicUrl: string) {
  const [linked, discountRows] = await Promise.all([
    products(db).whereIn("id", [...new Set(rows.flatMap((row) => row.product_ids))]),
    discounts(db).whereIn("id", rows.flatMap((row) => (row.discount_id ? [row.discount_id] : []))),
  ]);
  const [shown, discountJsons] = await Promise.all([productsJson(db, linked, publicUrl), discountsJson(db, discountRows)]);
  return rows.map((link) => {
    return {
      id: link.id,
      created_at: link.created_at,
      modified_at: link.modified_at,
      trial_interval: null,
      trial_interval_count: null,
      metadata: link.metadata,
      payment_processor: "stripe" as const,
      client_secret: link.client_secret,
      success_url: link.success_url,
      return_url: link.return_url,
      label: link.label,
      allow_discount_codes: link.allow_discount_codes,
      require_billing_address: link.require_billing_address,
      discount_id: link.discount_id,
      organization_id: link.organization_id,
      products: link.product_ids.flatMap((id) => shown.filter((product) => product.id === id)),
      discount: discountJsons.find((discount) => discount.id === link.discount_id) ?? null,
      url: linkUrl(publicUrl, link),
    };
  });
}
