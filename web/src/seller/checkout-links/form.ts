import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import type { CheckoutLinkCreate } from "./checkout-links-api";
import { atMost, optionalUrl, says, trimmed } from "../../forms/schemas";

const messages = defineMessages({
  products: { id: "forms.checkoutLink.products", defaultMessage: "Choose at least one product" },
});

/** A new checkout link: what it sells (one product or several to choose from), and how its checkouts start. */
export const checkoutLinkForm = z.object({
  products: z.array(z.string()).check(z.minLength(1, says(messages.products))),
  label: trimmed(z.maxLength(256, atMost(256))),
  discountId: z.string(),
  successUrl: optionalUrl,
  allowDiscountCodes: z.boolean(),
});
export type CheckoutLinkForm = z.infer<typeof checkoutLinkForm>;

export const checkoutLinkCreateOf = (form: CheckoutLinkForm): CheckoutLinkCreate => ({
  products: form.products,
  label: form.label || null,
  discount_id: form.discountId || null,
  success_url: form.successUrl || null,
  allow_discount_codes: form.allowDiscountCodes,
});
