import type { FieldErrors, Resolver } from "react-hook-form";
import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";

/**
 * The sign-in form's check, and the account limits every form shares (forms/schemas.ts builds its
 * zod rules from these). Written without zod: the sign-in page is the first most people load, and
 * zod's core alone would be a sixth of it.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** better-auth's username rule: 3–30 letters, digits, underscores and dots. */
export const USERNAME_LENGTH = { min: 3, max: 30 } as const;
export const USERNAME_PATTERN = /^[a-zA-Z0-9_.]+$/;
/** An e-mail address as the forms accept it (zod's own rule, given to z.email in schemas.ts). */
export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

const messages = defineMessages({
  identifierMissing: { id: "forms.identifier.missing", defaultMessage: "Enter your e-mail address or username" },
  identifierInvalid: { id: "forms.identifier.invalid", defaultMessage: "Enter an e-mail address or a username" },
  passwordMissing: { id: "forms.password.missing", defaultMessage: "Enter your password" },
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
