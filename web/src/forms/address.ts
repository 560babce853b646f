import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";
import { atMost, trimmed } from "./schemas";

/** A postal address in a form, and the customer portal's billing details. */

const messages = defineMessages({
  country: { id: "forms.country.invalid", defaultMessage: "Enter the country's two-letter code, such as {example}" },
  countryForAddress: { id: "forms.country.missingForAddress", defaultMessage: "Enter the country, or clear the address" },
});

const upTo = (max: number) => trimmed(z.maxLength(max, atMost(max)));
/** The address's parts besides its country. */
const ADDRESS_LINES = ["line1", "line2", "postalCode", "city", "state"] as const;

/** A postal address's fields, all optional; with `addressNeedsCountry`, an address needs its country. */
export const addressFields = {
  line1: trimmed(),
  line2: trimmed(),
  postalCode: trimmed(),
  city: trimmed(),
  state: trimmed(),
  country: trimmed(z.regex(/^([A-Za-z]{2})?$/, { error: () => t(messages.country, { example: "DK" }) }), z.toUpperCase()),
};
export const addressNeedsCountry = z.superRefine((form: Record<(typeof ADDRESS_LINES)[number] | "country", string>, context) => {
  if (!form.country && ADDRESS_LINES.some((line) => form[line])) context.addIssue({ code: "custom", path: ["country"], message: t(messages.countryForAddress) });
});

/**
 * A customer's billing details in the customer portal: the name and address their invoices carry,
 * and a tax id. An address needs its country; no address at all is fine.
 */
export const billingDetailsForm = z.object({ billingName: upTo(256), ...addressFields, taxId: upTo(64) }).check(addressNeedsCountry);
export type BillingDetailsForm = z.input<typeof billingDetailsForm>;
