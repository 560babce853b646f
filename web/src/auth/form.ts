import type { FieldErrors, Resolver } from "react-hook-form";
import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";
import { EMAIL_PATTERN, USERNAME_LENGTH, USERNAME_PATTERN } from "../forms/account-limits";

/**
 * The sign-in form's check. Written without zod: the sign-in page is the first most people load, and
 * zod's core alone would be a sixth of it.
 */

const messages = defineMessages({
  identifierMissing: { id: "forms.identifier.missing", defaultMessage: "Enter your e-mail address or username" },
  identifierInvalid: { id: "forms.identifier.invalid", defaultMessage: "Enter an e-mail address or a username" },
  passwordMissing: { id: "forms.password.missing", defaultMessage: "Enter your password" },
});

/** An e-mailed one-time code: better-auth's six digits. */
export const ONE_TIME_CODE = /^\d{6}$/;
export const oneTimeCodeMessages = defineMessages({
  invalid: { id: "forms.oneTimeCode.invalid", defaultMessage: "Enter the 6 digits from the e-mail" },
});

export interface SignInForm {
  /** An e-mail address, or a username for people who sign in with one. */
  identifier: string;
  password: string;
  rememberMe: boolean;
}

export const isEmailIdentifier = (identifier: string) => identifier.includes("@");

const isUsername = (text: string) => text.length >= USERNAME_LENGTH.min && text.length <= USERNAME_LENGTH.max && USERNAME_PATTERN.test(text);

/** What is wrong with a sign-in as typed, field by field, in the active language. */
export function signInProblems({ identifier, password }: SignInForm): Partial<Record<keyof SignInForm, string>> {
  const given = identifier.trim();
  const problems: Partial<Record<keyof SignInForm, string>> = {};
  if (!given) problems.identifier = t(messages.identifierMissing);
  else if (!(isEmailIdentifier(given) ? EMAIL_PATTERN.test(given) : isUsername(given))) problems.identifier = t(messages.identifierInvalid);
  if (!password) problems.password = t(messages.passwordMissing);
  return problems;
}

/** react-hook-form's resolver for the sign-in form: its problems, or the values with the identifier trimmed. */
export const signInResolver: Resolver<SignInForm> = (values) => {
  const problems = Object.entries(signInProblems(values));
  if (problems.length === 0) return { values: { ...values, identifier: values.identifier.trim() }, errors: {} };
  const errors: FieldErrors<SignInForm> = Object.fromEntries(problems.map(([field, message]) => [field, { type: "validate", message }]));
  return { values: {}, errors };
};
