import { defineMessages, type MessageDescriptor } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";

/**
 * What every form checks before it sends anything: the same limits the server enforces (which
 * still has the last word), so most mistakes are shown next to their field at once. Written with
 * zod's mini build, whose checks are loaded only as used: the sign-in page stays small.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// Messages are looked up when a form is checked (zod calls `error` then), so they follow the active language.
const messages = defineMessages({
  email: { id: "forms.email.invalid", defaultMessage: "Enter an e-mail address such as ada@example.com" },
  atLeast: { id: "forms.length.atLeast", defaultMessage: "{count, plural, one {Use at least # character} other {Use at least # characters}}" },
  atMost: { id: "forms.length.atMost", defaultMessage: "{count, plural, one {Use at most # character} other {Use at most # characters}}" },
  yourName: { id: "forms.required.yourName", defaultMessage: "Enter your name" },
  aName: { id: "forms.required.aName", defaultMessage: "Enter a name" },
  aTeamName: { id: "forms.required.aTeamName", defaultMessage: "Enter a team name" },
  usernameCharacters: { id: "forms.username.characters", defaultMessage: "Use only letters, digits, _ and ." },
  webAddress: { id: "forms.url.invalid", defaultMessage: "Enter a web address starting with https://" },
  passwordsDiffer: { id: "forms.password.mismatch", defaultMessage: "The passwords do not match" },
  identifierMissing: { id: "forms.identifier.missing", defaultMessage: "Enter your e-mail address or username" },
  identifierInvalid: { id: "forms.identifier.invalid", defaultMessage: "Enter an e-mail address or a username" },
  passwordMissing: { id: "forms.password.missing", defaultMessage: "Enter your password" },
  currentPasswordMissing: { id: "forms.currentPassword.missing", defaultMessage: "Enter your current password" },
  slugCharacters: { id: "forms.slug.characters", defaultMessage: "Use lower-case letters, digits and single hyphens" },
  metadata: { id: "forms.metadata.invalid", defaultMessage: "Enter a JSON object such as {example}, or nothing" },
  banReasonLength: { id: "forms.ban.reasonTooLong", defaultMessage: "Keep the reason under 500 characters" },
  banDaysWhole: { id: "forms.ban.daysNotWhole", defaultMessage: "Enter a whole number of days" },
  banDaysMinimum: { id: "forms.ban.daysTooFew", defaultMessage: "Enter at least 1 day" },
  country: { id: "forms.country.invalid", defaultMessage: "Enter the country's two-letter code, such as {example}" },
  countryForAddress: { id: "forms.country.missingForAddress", defaultMessage: "Enter the country, or clear the address" },
});

export const atLeast = (count: number) => ({ error: () => t(messages.atLeast, { count }) });
export const atMost = (count: number) => ({ error: () => t(messages.atMost, { count }) });
export const says = (message: MessageDescriptor) => ({ error: () => t(message) });

export const email = z.email(says(messages.email));
const password = z.string().check(z.minLength(PASSWORD_MIN, atLeast(PASSWORD_MIN)), z.maxLength(PASSWORD_MAX, atMost(PASSWORD_MAX)));
export const trimmed = (...checks: z.core.$ZodCheck<string>[]) => z.string().check(z.trim(), ...checks);
export const required = (message: MessageDescriptor) => trimmed(z.minLength(1, says(message)));
/** A name that must be given, of at most `most` characters. */
export const aName = (most: number) => trimmed(z.minLength(1, says(messages.aName)), z.maxLength(most, atMost(most)));

/** better-auth's username rule: 3–30 letters, digits, underscores and dots. */
export const username = trimmed(z.minLength(3, atLeast(3)), z.maxLength(30, atMost(30)), z.regex(/^[a-zA-Z0-9_.]+$/, says(messages.usernameCharacters)));

const optionalUsername = z.union([z.literal(""), username]);
export const optionalUrl = z.union([z.literal(""), z.url({ protocol: /^https?$/, ...says(messages.webAddress) })]);

/** A new password typed twice must be typed the same. */
const typedTwice = { check: (form: { password: string; confirm: string }) => form.password === form.confirm, error: { ...says(messages.passwordsDiffer), path: ["confirm"] } };

export const signUpForm = z
  .object({ name: required(messages.yourName), email, username: optionalUsername, password, confirm: z.string() })
  .check(z.refine(typedTwice.check, typedTwice.error));
export type SignUpForm = z.infer<typeof signUpForm>;

/** An e-mail address, or a username for people who sign in with one. */
export const signInForm = z.object({
  identifier: trimmed(
    z.minLength(1, says(messages.identifierMissing)),
    z.refine((value) => (value.includes("@") ? email.safeParse(value).success : username.safeParse(value).success), says(messages.identifierInvalid)),
  ),
  password: z.string().check(z.minLength(1, says(messages.passwordMissing))),
  rememberMe: z.boolean(),
});
export type SignInForm = z.infer<typeof signInForm>;
export const isEmailIdentifier = (identifier: string) => identifier.includes("@");

export const forgotPasswordForm = z.object({ email });
export const resetPasswordForm = z.object({ password, confirm: z.string() }).check(z.refine(typedTwice.check, typedTwice.error));

export const profileForm = z.object({ name: required(messages.yourName), image: optionalUrl, username: optionalUsername });
export type ProfileForm = z.infer<typeof profileForm>;

export const changeEmailForm = z.object({ newEmail: email });

export const changePasswordForm = z
  .object({ currentPassword: z.string().check(z.minLength(1, says(messages.currentPasswordMissing))), password, confirm: z.string(), revokeOtherSessions: z.boolean() })
  .check(z.refine(typedTwice.check, typedTwice.error));

/** better-auth's organization slugs: lower-case letters, digits and hyphens. */
export const slug = trimmed(z.minLength(2, atLeast(2)), z.maxLength(48, atMost(48)), z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, says(messages.slugCharacters)));

/** A slug suggested from a name: "Acme Rockets, Inc." → "acme-rockets-inc". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
}

/** Metadata typed as JSON: empty, or one object. */
export const metadataText = z.string().check(
  z.refine(
  (text) => {
    if (!text.trim()) return true;
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "object" && value !== null && !Array.isArray(value);
    } catch {
      return false;
    }
  },
  { error: () => t(messages.metadata, { example: '{"plan": "pro"}' }) },
  ),
);
export const parseMetadata = (text: string): Record<string, unknown> | undefined => (text.trim() ? (JSON.parse(text) as Record<string, unknown>) : undefined);

export const organizationForm = z.object({ name: required(messages.aName), slug, logo: optionalUrl, metadata: metadataText });
export type OrganizationForm = z.infer<typeof organizationForm>;

export const ROLES = ["member", "admin", "owner"] as const;
export const inviteForm = z.object({ email, role: z.enum(ROLES), teamId: z.string() });
export const teamForm = z.object({ name: required(messages.aTeamName) });

export const createUserForm = z.object({ name: required(messages.aName), email, password, role: z.enum(["user", "admin"]) });

/** A ban: a reason, and how many days it lasts (empty for good). */
export const banForm = z.object({
  reason: trimmed(z.maxLength(500, says(messages.banReasonLength))),
  days: z.string().check(
    z.superRefine((value, context) => {
      if (value === "") return;
      if (!/^\d+$/.test(value)) context.addIssue({ code: "custom", message: t(messages.banDaysWhole) });
      else if (Number(value) < 1) context.addIssue({ code: "custom", message: t(messages.banDaysMinimum) });
    }),
  ),
});
/** better-auth's banExpiresIn, in seconds; undefined bans for good. */
export const banExpiresIn = (days: string) => (days ? Number(days) * 24 * 3600 : undefined);

export const setPasswordForm = z.object({ password });

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
