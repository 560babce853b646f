import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { email, optionalUrl, optionalUsername, password, says, typedTwice, yourName } from "../forms/schemas";

/** The account screen's forms: profile, e-mail and password. */

const messages = defineMessages({
  currentPasswordMissing: { id: "forms.currentPassword.missing", defaultMessage: "Enter your current password" },
});

export const profileForm = z.object({ name: yourName, image: optionalUrl, username: optionalUsername });
export type ProfileForm = z.infer<typeof profileForm>;

export const changeEmailForm = z.object({ newEmail: email });

export const changePasswordForm = z
  .object({ currentPassword: z.string().check(z.minLength(1, says(messages.currentPasswordMissing))), password, confirm: z.string(), revokeOtherSessions: z.boolean() })
  .check(z.refine(typedTwice.check, typedTwice.error));
