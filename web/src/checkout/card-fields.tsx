import type { ChangeEvent } from "react";
import type { FieldErrors, FieldPath, PathValue, UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { CardEntry } from "./form";
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

type CardField = keyof CardEntry;

/**
 * The card's number, expiry and CVC, each formatted as it is typed, in any form that holds them (the
 * checkout's, the portal's). Registered inputs rather than controlled ones: react-hook-form's
 * Controller would add to every page with a form, sign-in included.
 */
export function CardFields<Form extends CardEntry, Values>({ form }: { form: UseFormReturn<Form, unknown, Values> }) {
  const { formatMessage } = useIntl();
  // react-hook-form cannot see that a form holding a CardEntry has its three paths, so they are named so here.
  const path = (name: CardField) => name as FieldPath<Form>;
  const errors = form.formState.errors as FieldErrors<CardEntry>;
  const brand = cardBrandOf(String(form.watch(path("cardNumber"))));
  const formatted = (name: CardField, format: (typed: string) => string) =>
    form.register(path(name), { onChange: (event: ChangeEvent<HTMLInputElement>) => form.setValue(path(name), format(event.target.value) as PathValue<Form, FieldPath<Form>>) });
  return (
    <div className="card-fields">
      <Field label={formatMessage(messages.cardNumber)} hint={formatMessage(messages.cardNumberHint, { card: "4242 4242 4242 4242" })} error={errors.cardNumber?.message}>
        {(ids) => (
          <div className="card-number">
            <input {...ids} {...formatted("cardNumber", formatCardNumber)} inputMode="numeric" autoComplete="cc-number" />
            {/* A network's name is its own in every language. */}
            <span className="card-brand" translate="no" aria-live="polite">
              {brand}
            </span>
          </div>
        )}
      </Field>
      <div className="field-row">
        <Field label={formatMessage(messages.expiry)} error={errors.expiry?.message}>
          {(ids) => <input {...ids} {...formatted("expiry", formatExpiry)} inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" />}
        </Field>
        <Field label={formatMessage(messages.cvc)} error={errors.cvc?.message}>
          {(ids) => <input {...ids} {...formatted("cvc", (typed) => digitsOf(typed).slice(0, 4))} inputMode="numeric" autoComplete="cc-csc" />}
        </Field>
      </div>
    </div>
  );
}
