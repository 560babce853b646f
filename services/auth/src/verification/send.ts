import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authUrl } from "../mail/links.js";
import type { Locale } from "../i18n/locales.js";
import { accountLinkMail } from "../mail/messages.js";
import type { UserRow } from "../users/users.sql.js";
import { signVerificationToken, VERIFICATION_TTL_SECONDS } from "./tokens.js";

/** The verify-email link for a token, returning to `callbackURL` (the site's root by default), as better-auth builds it. */
export const verifyEmailUrl = (auth: Parts, token: string, callbackURL: string | undefined) =>
  authUrl(auth.config, `/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL || "/")}`);

/** Queues a verification mail, in `locale`, for the user's current address in the caller's unit of work. */
export function queueVerificationMail(auth: Parts, unit: UnitOfWork, user: Pick<UserRow, "id" | "email">, locale: Locale, callbackURL?: string): void {
  const token = signVerificationToken(auth.config.AUTH_SECRET, { email: user.email, userId: user.id });
  auth.mail.queue(unit, accountLinkMail("verifyEmail", { email: user.email, locale }, verifyEmailUrl(auth, token, callbackURL), VERIFICATION_TTL_SECONDS));
}

/** Sends a verification mail on its own: a unit of one statement, delivered as soon as it is written. */
export function sendVerificationMail(auth: Parts, user: Pick<UserRow, "id" | "email">, locale: Locale, callbackURL?: string): Promise<void> {
  return auth.units.run(
    (unit) => {
      queueVerificationMail(auth, unit, user, locale, callbackURL);
      return Promise.resolve();
    },
    { transaction: false },
  );
}
