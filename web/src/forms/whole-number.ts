import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";

// Its own module, not schemas.ts: only the console's forms use it, and the sign-in page stays small.
const messages = defineMessages({
  wholeNumber: { id: "forms.number.whole", defaultMessage: "Enter a whole number from {min, number} to {max, number}" },
});

/** A whole number typed in a form, within what the API takes. */
export const isWholeNumber = (text: string, min: number, max: number) => /^-?\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

/** Says that a field wants a whole number from `min` to `max`. */
export const wholeNumberMessage = (min: number, max: number) => t(messages.wholeNumber, { min, max });
