import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import type { Discount, DiscountChange } from "./discounts-api";
import { CURRENCIES, minorUnits } from "../../forms/money";
import { aName, says, trimmed } from "../../forms/schemas";
import { isWholeNumber, wholeNumberMessage } from "../../forms/whole-number";

const messages = defineMessages({
  code: { id: "forms.discount.code", defaultMessage: "Use 3 to 256 letters, digits, - or _" },
  percent: { id: "forms.discount.percent", defaultMessage: "Enter a percentage above 0 and at most 100, such as 15 or 12.5" },
  amount: { id: "forms.discount.amount", defaultMessage: "Enter an amount such as 5 or 4.99" },
  endsBeforeStart: { id: "forms.discount.endsBeforeStart", defaultMessage: "The end must come after the start" },
});

export const DISCOUNT_DURATIONS = ["once", "forever", "repeating"] as const;
const MAX_INTEGER = 2_147_483_647;

/**
 * A discount in the seller's console, checked as Polar checks it: a percentage of 0.01 to 100 (the
 * API's 1 to 10,000 basis points) or a fixed amount, a code of 3 to 256 letters, digits, - and _,
 * 1 to 999 months for a repeating one, at least one redemption when limited.
 */
export const discountForm = z
  .object({
    name: aName(256),
    code: trimmed(z.regex(/^([A-Za-z0-9_-]{3,256})?$/, says(messages.code))),
    type: z.enum(["percentage", "fixed"]),
    percent: z.string(),
    amount: z.string(),
    currency: z.enum(CURRENCIES),
    duration: z.enum(DISCOUNT_DURATIONS),
    months: z.string(),
    startsOn: z.string(),
    endsOn: z.string(),
    maxRedemptions: z.string(),
    products: z.array(z.string()),
  })
  .check(
    z.superRefine((form, context) => {
      const issue = (path: keyof typeof form, message: string) => context.addIssue({ code: "custom", path: [path], message });
      if (form.type === "percentage" && !(/^\d+([.,]\d{1,2})?$/.test(form.percent.trim()) && basisPoints(form.percent) >= 1 && basisPoints(form.percent) <= 10_000)) issue("percent", t(messages.percent));
      if (form.type === "fixed" && !(/^\d+([.,]\d{1,2})?$/.test(form.amount.trim()) && minorUnits(form.amount) >= 1)) issue("amount", t(messages.amount));
      if (form.duration === "repeating" && !isWholeNumber(form.months, 1, 999)) issue("months", wholeNumberMessage(1, 999));
      if (form.maxRedemptions.trim() && !isWholeNumber(form.maxRedemptions, 1, MAX_INTEGER)) issue("maxRedemptions", wholeNumberMessage(1, MAX_INTEGER));
      if (form.startsOn && form.endsOn && form.endsOn <= form.startsOn) issue("endsOn", t(messages.endsBeforeStart));
    }),
  );
export type DiscountForm = z.infer<typeof discountForm>;

/** "12.5" percent as the API's 1250 basis points. */
const basisPoints = (percent: string) => Math.round(Number(percent.replace(",", ".")) * 100);

export const emptyDiscountForm = (): DiscountForm => ({ name: "", code: "", type: "percentage", percent: "", amount: "", currency: "usd", duration: "once", months: "3", startsOn: "", endsOn: "", maxRedemptions: "", products: [] });

const day = (moment: string | null) => (moment ? moment.slice(0, 10) : "");
const isCurrency = (currency: string): currency is DiscountForm["currency"] => (CURRENCIES as readonly string[]).includes(currency);

/** The form filled with a discount's terms, for editing it. */
export function discountFormOf(discount: Discount): DiscountForm {
  return {
    ...emptyDiscountForm(),
    name: discount.name,
    code: discount.code ?? "",
    type: discount.type,
    percent: discount.type === "percentage" ? String(discount.basis_points / 100) : "",
    amount: discount.type === "fixed" ? String(discount.amount / 100) : "",
    currency: discount.type === "fixed" && isCurrency(discount.currency) ? discount.currency : "usd",
    duration: discount.duration,
    months: discount.duration === "repeating" ? String(discount.duration_in_months) : "3",
    startsOn: day(discount.starts_at),
    endsOn: day(discount.ends_at),
    maxRedemptions: discount.max_redemptions === null ? "" : String(discount.max_redemptions),
    products: discount.products.map((product) => product.id),
  };
}

/** Polar's DiscountCreate (and update) for what the form holds; days start at midnight UTC. */
export function discountChangeOf(form: DiscountForm): DiscountChange {
  const common = {
    name: form.name,
    code: form.code || null,
    starts_at: form.startsOn ? `${form.startsOn}T00:00:00Z` : null,
    ends_at: form.endsOn ? `${form.endsOn}T00:00:00Z` : null,
    max_redemptions: form.maxRedemptions.trim() ? Number(form.maxRedemptions) : null,
    products: form.products,
    duration: form.duration,
    ...(form.duration === "repeating" ? { duration_in_months: Number(form.months) } : {}),
  };
  return form.type === "percentage" ? { ...common, type: "percentage", basis_points: basisPoints(form.percent) } : { ...common, type: "fixed", amount: minorUnits(form.amount), currency: form.currency };
}
