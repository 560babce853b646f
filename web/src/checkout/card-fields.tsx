import { Controller, type Control, type FieldErrors } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { CheckoutForm } from "../forms/schemas";
import { Field } from "../ui/components";

const messages = defineMessages({
  cardNumber: { id: "checkout.cardNumber", defaultMessage: "Card number" },
  cardNumberHint: defineMessage<{ card: string }>({ id: "checkout.cardNumberHint", defaultMessage: "Sandbox: {card} pays; the README lists the other test cards" }),
  expiry: { id: "checkout.expiry", defaultMessage: "Expiry (MM/YY)" },
  cvc: { id: "checkout.cvc", defaultMessage: "CVC" },
});

/** Card networks by the first digits of their numbers (their IIN ranges), most specific first. */
const BRANDS: [brand: string, starts: RegExp][] = [
  ["American Express", /^3[47]/],
  ["Diners Club", /^3(0[0-5]|[689])/],
  ["JCB", /^35/],
  ["Discover", /^(6011|64[4-9]|65)/],
  ["UnionPay", /^62/],
  ["Mastercard", /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/],
  ["Visa", /^4/],
];

const digitsOf = (text: string) => text.replace(/\D/g, "");

/** The card's network, known from its first digits: shown beside the number as the buyer types. */
export const cardBrandOf = (number: string): string | undefined => BRANDS.find(([, starts]) => starts.test(digitsOf(number)))?.[0];

/** A card number as printed on the card: groups of four, or 4-6-5 on an American Express. */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text).slice(0, 19);
  const groups = cardBrandOf(digits) === "American Express" ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let start = 0;
  for (const size of groups) {
    if (start >= digits.length) break;
    parts.push(digits.slice(start, start + size));
    start += size;
  }
  return parts.join(" ");
}

/** An expiry as MM/YY: the slash comes by itself, and a first digit above 1 can only be a month 0X. */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** The card's number, expiry and CVC, each formatted as it is typed. */
export function CardFields({ control, errors }: { control: Control<CheckoutForm>; errors: FieldErrors<CheckoutForm> }) {
  const { formatMessage } = useIntl();
  return (
    <div className="card-fields">
      <Controller
        control={control}
        name="cardNumber"
        render={({ field: { value, onChange, onBlur, ref } }) => {
          const brand = cardBrandOf(value);
          return (
            <Field label={formatMessage(messages.cardNumber)} hint={formatMessage(messages.cardNumberHint, { card: "4242 4242 4242 4242" })} error={errors.cardNumber?.message}>
              {(ids) => (
                <div className="card-number">
                  <input {...ids} ref={ref} value={value} onBlur={onBlur} onChange={(event) => onChange(formatCardNumber(event.target.value))} inputMode="numeric" autoComplete="cc-number" />
                  {/* A network's name is its own in every language. */}
                  <span className="card-brand" translate="no" aria-live="polite">
                    {brand}
                  </span>
                </div>
              )}
            </Field>
          );
        }}
      />
      <div className="field-row">
        <Controller
          control={control}
          name="expiry"
          render={({ field: { value, onChange, onBlur, ref } }) => (
            <Field label={formatMessage(messages.expiry)} error={errors.expiry?.message}>
              {(ids) => <input {...ids} ref={ref} value={value} onBlur={onBlur} onChange={(event) => onChange(formatExpiry(event.target.value))} inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" />}
            </Field>
          )}
        />
        <Controller
          control={control}
          name="cvc"
          render={({ field: { value, onChange, onBlur, ref } }) => (
            <Field label={formatMessage(messages.cvc)} error={errors.cvc?.message}>
              {(ids) => <input {...ids} ref={ref} value={value} onBlur={onBlur} onChange={(event) => onChange(digitsOf(event.target.value).slice(0, 4))} inputMode="numeric" autoComplete="cc-csc" />}
            </Field>
          )}
        />
      </div>
    </div>
  );
}
