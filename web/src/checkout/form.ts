import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";
import type { AttachedCustomField } from "../api/wire";
import { atLeast, atMost, email, says, trimmed } from "../forms/schemas";

/**
 * The hosted checkout page's form: who pays, where (for tax), the seller's questions (Polar's
 * attached custom fields) and the card, checked as the server will. Its own module: only the
 * checkout loads it.
 */

const messages = defineMessages({
  cardNumber: { id: "forms.card.number", defaultMessage: "Enter the card number's 12 to 19 digits" },
  expiry: { id: "forms.card.expiry", defaultMessage: "Enter the expiry as MM/YY" },
  cvc: { id: "forms.card.cvc", defaultMessage: "Enter the 3 or 4 digits on the back" },
  checkField: { id: "forms.card.checkField", defaultMessage: "Check this field" },
  state: { id: "forms.state.missing", defaultMessage: "Enter the state or province" },
  postalCode: { id: "forms.postalCode.missing", defaultMessage: "Enter the postal code" },
  companyName: { id: "forms.companyName.missing", defaultMessage: "Enter the company's name" },
  line1: { id: "forms.line1.missing", defaultMessage: "Enter the street address" },
  city: { id: "forms.city.missing", defaultMessage: "Enter the city" },
  countryChoice: { id: "forms.country.choose", defaultMessage: "Choose your country from the list" },
  answer: { id: "forms.answer.missing", defaultMessage: "Answer this question" },
  tick: { id: "forms.answer.tick", defaultMessage: "Tick this box to go on" },
  whole: { id: "forms.answer.whole", defaultMessage: "Enter a whole number" },
  atLeast: { id: "forms.answer.atLeast", defaultMessage: "Enter {min, number} or more" },
  atMost: { id: "forms.answer.atMost", defaultMessage: "Enter {max, number} or less" },
});

/** Countries whose addresses need a state and postal code to be taxed; the checkout asks for them there. */
export const STATE_COUNTRIES = new Set(["US", "CA"]);

/** A question the checkout asks: Polar's AttachedCustomField. */
export type CheckoutQuestion = AttachedCustomField;

/** An answer as the form holds it: what was typed or chosen, or whether the box is ticked. */
export type Answer = string | boolean;

const isBlank = (answer: Answer | undefined) => answer === undefined || answer === false || (typeof answer === "string" && answer.trim() === "");

/** What is wrong with the answer to `question`, in words, or undefined when it may be sent. */
export function answerProblem(question: CheckoutQuestion, answer: Answer | undefined): string | undefined {
  const { type, properties } = question.custom_field;
  if (isBlank(answer)) return question.required ? t(type === "checkbox" ? messages.tick : messages.answer) : undefined;
  if (typeof answer !== "string") return undefined;
  const given = answer.trim();
  if (type === "number") {
    if (!/^-?\d+$/.test(given)) return t(messages.whole);
    if (properties.ge !== undefined && Number(given) < properties.ge) return t(messages.atLeast, { min: properties.ge });
    if (properties.le !== undefined && Number(given) > properties.le) return t(messages.atMost, { max: properties.le });
  }
  if (type === "text") {
    if (properties.min_length !== undefined && given.length < properties.min_length) return atLeast(properties.min_length).error();
    if (properties.max_length !== undefined && given.length > properties.max_length) return atMost(properties.max_length).error();
  }
  return undefined;
}

/** The answers as Polar's `custom_field_data`: numbers as numbers, a box as ticked or not, blanks as null. */
export function customFieldData(questions: CheckoutQuestion[], answers: Record<string, Answer>): Record<string, string | number | boolean | null> {
  const sent = (type: CheckoutQuestion["custom_field"]["type"], answer: Answer | undefined): string | number | boolean | null => {
    if (type === "checkbox") return answer === true;
    if (isBlank(answer) || typeof answer !== "string") return null;
    return type === "number" ? Number(answer.trim()) : answer.trim();
  };
  return Object.fromEntries(questions.map(({ custom_field: { slug, type } }) => [slug, sent(type, answers[slug])]));
}

const digitsOnly = (value: string) => value.replace(/[\s-]/g, "");
const cardNumber = z.string().check(z.refine((value) => /^\d{12,19}$/.test(digitsOnly(value)), says(messages.cardNumber)));
const expiry = z.string().check(z.regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, says(messages.expiry)));
const cvc = z.string().check(z.regex(/^\d{3,4}$/, says(messages.cvc)));

/** A card typed into the sandbox's fields, on its own: the portal keeps one this way. */
export const cardForm = z.pipe(
  z.object({ cardNumber, expiry, cvc }),
  z.transform((card) => ({ ...card, cardNumber: digitsOnly(card.cardNumber) })),
);
/** The sandbox's card fields as a form holds them while they are typed. */
export type CardEntry = z.input<typeof cardForm>;

/**
 * The form for a checkout that asks `questions`. `needsCard` comes from the checkout: a free one
 * asks for no card and no tax address.
 */
export const checkoutFormFor = (questions: CheckoutQuestion[]) =>
  z.pipe(
    z
      .object({
        needsCard: z.boolean(),
        email,
        name: trimmed(z.maxLength(256)),
        // The country select gives the code of the country picked by its name.
        country: trimmed(z.regex(/^[A-Za-z]{2}$/, says(messages.countryChoice)), z.toUpperCase()),
        state: trimmed(z.maxLength(64)),
        postalCode: trimmed(z.maxLength(32)),
        // A business is invoiced: its name and address in full, and its tax ID when it has one.
        business: z.boolean(),
        billingName: trimmed(z.maxLength(256)),
        line1: trimmed(z.maxLength(256)),
        city: trimmed(z.maxLength(128)),
        taxId: trimmed(z.maxLength(64)),
        answers: z.record(z.string(), z.union([z.string(), z.boolean()])),
        cardNumber: z.string(),
        expiry: z.string(),
        cvc: z.string(),
      })
      .check(
        z.superRefine((form, context) => {
          for (const question of questions) {
            const problem = answerProblem(question, form.answers[question.custom_field.slug]);
            if (problem) context.addIssue({ code: "custom", path: ["answers", question.custom_field.slug], message: problem });
          }
          if (form.business) {
            for (const [path, message] of [
              ["billingName", messages.companyName],
              ["line1", messages.line1],
              ["city", messages.city],
              ["postalCode", messages.postalCode],
            ] as const) {
              if (!form[path]) context.addIssue({ code: "custom", path: [path], message: t(message) });
            }
          }
          if (!form.needsCard) return;
          for (const [path, rule] of [
            ["cardNumber", cardNumber],
            ["expiry", expiry],
            ["cvc", cvc],
          ] as const) {
            const checked = rule.safeParse(form[path]);
            if (!checked.success) context.addIssue({ code: "custom", path: [path], message: checked.error.issues[0]?.message ?? t(messages.checkField) });
          }
          if (STATE_COUNTRIES.has(form.country)) {
            if (!form.state) context.addIssue({ code: "custom", path: ["state"], message: t(messages.state) });
            if (!form.postalCode && !form.business) context.addIssue({ code: "custom", path: ["postalCode"], message: t(messages.postalCode) });
          }
        }),
      ),
    z.transform((form) => ({ ...form, cardNumber: digitsOnly(form.cardNumber) })),
  );
export type CheckoutForm = z.input<ReturnType<typeof checkoutFormFor>>;
export type CheckoutValues = z.output<ReturnType<typeof checkoutFormFor>>;
