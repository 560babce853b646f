import { discountJson } from "../discounts/output.js";
import { productJson } from "../products/output.js";
import type { CheckoutLinkRow, LinkParts } from "./checkout-links.sql.js";

/** Where following the link leads: a fresh checkout, through a redirect. */
const linkUrl = (publicUrl: string, link: Pick<CheckoutLinkRow, "client_secret">) => `${publicUrl.replace(/\/$/, "")}/v1/checkout-links/${link.client_secret}/redirect`;

/** A checkout link as Polar shows it, with its products and discount (from those read for it: see linksWithParts). */
export function checkoutLinkJson(link: CheckoutLinkRow, parts: LinkParts, publicUrl: string) {
  const discount = parts.discounts.find((candidate) => candidate.id === link.discount_id);
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
    seats: link.seats,
    // No price is per unit, so a link fixes none.
    units: null,
    organization_id: link.organization_id,
    products: link.product_ids.flatMap((id) => parts.products.filter((product) => product.id === id).map((product) => productJson(product, publicUrl))),
    discount: discount ? discountJson(discount) : null,
    url: linkUrl(publicUrl, link),
  };
}
