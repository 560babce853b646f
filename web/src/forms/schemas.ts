import { defineMessages, type MessageDescriptor } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";
import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN, USERNAME_LENGTH, USERNAME_PATTERN } from "./account-limits";

/**
 * What every form checks before it sends anything: the same limits the server enforces (which
 * still has the last word), so most mistakes are shown next to their field at once. Written with
 * zod's mini build, whose checks are loaded only as used: the sign-in page stays small.
 */

// Messages are looked up when a form is checked (zod calls `error` then), so they follow the active language.
const messages = defineMessages({
  email: { id: "forms.email.invalid", defaultMessage: "Enter an e-mail address such as ada@example.com" },
  atLeast: { id: "forms.length.atLeast", defaultMessage: "{count, plural, one {Use at least # character} other {Use at least # characters}}" },
  atMost: { id: "forms.length.atMost", defaultMessage: "{count, plural, one {Use at most # character} other {Use at most # characters}}" },
  yourName: { id: "forms.required.yourName", defaultMessage: "Enter your name" },
  aName: { id: "forms.required.aName", defaultMessage: "Enter a name" },
  usernameCharacters: { id: "forms.username.characters", defaultMessage: "Use only letters, digits, _ and ." },
  webAddress: { id: "forms.url.invalid", defaultMessage: "Enter a web address starting with https://" },
  passwordsDiffer: { id: "forms.password.mismatch", defaultMessage: "The passwords do not match" },
});

export const atLeast = (count: number) => ({ error: () => t(messages.atLeast, { count }) });
export const atMost = (count: number) => ({ error: () => t(messages.atMost, { count }) });
export const says = (message: MessageDescriptor) => ({ error: () => t(message) });

export const email = z.email({ pattern: EMAIL_PATTERN, ...says(messages.email) });
export const password = z.string().check(z.minLength(PASSWORD_MIN, atLeast(PASSWORD_MIN)), z.maxLength(PASSWORD_MAX, atMost(PASSWORD_MAX)));
export const trimmed = (...checks: z.core.$ZodCheck<string>[]) => z.string().check(z.trim(), ...checks);
export const required = (message: MessageDescriptor) => trimmed(z.minLength(1, says(message)));
/** A person's own name, which must be given. */
export const yourName = required(messages.yourName);
/** Something's name, which must be given. */
export const someName = required(messages.aName);
/** A name that must be given, of at most `most` characters. */
export const aName = (most: number) => trimmed(z.minLength(1, says(messages.aName)), z.maxLength(most, atMost(most)));

/** better-auth's username rule: 3–30 letters, digits, underscores and dots. */
export const username = trimmed(z.minLength(USERNAME_LENGTH.min, atLeast(USERNAME_LENGTH.min)), z.maxLength(USERNAME_LENGTH.max, atMost(USERNAME_LENGTH.max)), z.regex(USERNAME_PATTERN, says(messages.usernameCharacters)));

export const optionalUsername = z.union([z.literal(""), username]);
export const optionalUrl = z.union([z.literal(""), z.url({ protocol: /^https?$/, ...says(messages.webAddress) })]);

/** A new password typed twice must be typed the same. */
export const typedTwice = { check: (form: { password: string; confirm: string }) => form.password === form.confirm, error: { ...says(messages.passwordsDiffer), path: ["confirm"] } };
