import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import type { CheckoutLink, CheckoutLinkCreate, CheckoutLinkUpdate } from "./checkout-links-api";
import { metadataText, parseMetadata } from "../../forms/metadata";
import { atMost, optionalUrl, says, trimmed } from "../../forms/schemas";

const messages = defineMessages({
  products: { id: "forms.checkoutLink.products", defaultMessage: "Choose at least one product" },
});

/** A checkout link, new or changed: what it sells (one product or several to choose from), and how its checkouts start. */
export const checkoutLinkForm = z.object({
  products: z.array(z.string()).check(z.minLength(1, says(messages.products))),
  label: trimmed(z.maxLength(256, atMost(256))),
  discountId: z.string(),
  successUrl: optionalUrl,
  allowDiscountCodes: z.boolean(),
  metadata: metadataText,
});
export type CheckoutLinkForm = z.infer<typeof checkoutLinkForm>;

export const emptyCheckoutLinkForm = (): CheckoutLinkForm => ({ products: [], label: "", discountId: "", successUrl: "", allowDiscountCodes: true, metadata: "" });

/** What the form shows of a link, to change it. */
export const checkoutLinkFormOf = (link: CheckoutLink): CheckoutLinkForm => ({
  products: link.products.map((product) => product.id),
  label: link.label ?? "",
  discountId: link.discount_id ?? "",
  successUrl: link.success_url ?? "",
  allowDiscountCodes: link.allow_discount_codes,
  metadata: Object.keys(link.metadata).length > 0 ? JSON.stringify(link.metadata) : "",
});

/** The link's settings as the API takes them, alike on create and on update (an emptied field clears it). */
export type CheckoutLinkChange = CheckoutLinkCreate & CheckoutLinkUpdate;
export const checkoutLinkChangeOf = (form: CheckoutLinkForm): CheckoutLinkChange => ({
  products: form.products,
  label: form.label || null,
  discount_id: form.discountId || null,
  success_url: form.successUrl || null,
  allow_discount_codes: form.allowDiscountCodes,
  metadata: parseMetadata(form.metadata) ?? {},
});
