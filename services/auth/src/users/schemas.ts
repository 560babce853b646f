import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { LocaleTag } from "../i18n/locales.js";

/** better-auth's User, with the username, admin and two-factor plugins' fields and Tollgate's `locale` (an additional field): every one is sent, null when unset. */
export const User = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    image: z.string().nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
    username: z.string().nullable(),
    displayUsername: z.string().nullable(),
    role: z.string().meta({ description: "Comma-separated when the user has several roles" }),
    banned: z.boolean(),
    banReason: z.string().nullable(),
    banExpires: isoTimestamp().nullable(),
    locale: LocaleTag.nullable().meta({ description: "The language the user chose for the app and their mail; null until they choose" }),
    twoFactorEnabled: z.boolean().meta({ description: "Whether password sign-ins ask for a second factor (the two-factor plugin's field)" }),
  })
  .meta({ id: "User" });

/** What delete-user and its e-mailed link answer once the account is gone, or the mail is on its way. */
export const UserDeletion = z.strictObject({ success: z.boolean(), message: z.string() });

export const UsernameAvailability = z.strictObject({ available: z.boolean() });

/** update-user's fields; `email` is there only to be refused. */
export const ProfileChange = z.object({
  name: z.string().optional(),
  image: z.string().nullable().optional(),
  username: z.string().optional(),
  displayUsername: z.string().optional(),
  // Null gives the choice back to the browser's languages.
  locale: LocaleTag.nullable().optional(),
  email: z.unknown().optional(),
});

export const UsernameQuestion = z.object({ username: z.string() });

/** delete-user: the password, or a fresh session, or the token of a confirmation mail. */
export const DeletionRequest = z.object({ password: z.string().optional(), token: z.string().optional(), callbackURL: z.string().optional() });

/** The link in a deletion mail. */
export const DeletionConfirmation = z.object({ token: z.string(), callbackURL: z.string().optional() });

export const EmailChange = z.object({ newEmail: z.email(), callbackURL: z.string().optional() });
