import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../i18n/translate";
import { email, password, says, someName, trimmed } from "../forms/schemas";

/** The platform admin's forms: a new user, a ban, a password set for someone. */

const messages = defineMessages({
  banReasonLength: { id: "forms.ban.reasonTooLong", defaultMessage: "Keep the reason under 500 characters" },
  banDaysWhole: { id: "forms.ban.daysNotWhole", defaultMessage: "Enter a whole number of days" },
  banDaysMinimum: { id: "forms.ban.daysTooFew", defaultMessage: "Enter at least 1 day" },
});

export const createUserForm = z.object({ name: someName, email, password, role: z.enum(["user", "admin"]) });

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
