import type { UnitOfWork } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { authUrl } from "../mail/links.js";
import { verificationMail } from "../mail/messages.js";
import type { UserRow } from "../users/users.sql.js";
import { signVerificationToken } from "./tokens.js";

/** The verify-email link for a token, returning to `callbackURL` (the site's root by default), as better-auth builds it. */
export const verifyEmailUrl = (auth: Auth, token: string, callbackURL: string | undefined) =>
  authUrl(auth.config, `/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL || "/")}`);

/** Queues a verification mail for the user's current address in the caller's unit of work. */
export function queueVerificationMail(auth: Auth, unit: UnitOfWork, user: Pick<UserRow, "id" | "email">, callbackURL?: string): void {
  const token = signVerificationToken(auth.config.AUTH_SECRET, { email: user.email, userId: user.id });
  auth.mail.queue(unit, verificationMail(user.email, verifyEmailUrl(auth, token, callbackURL)));
}

/** Sends a verification mail on its own: a unit of one statement, delivered as soon as it is written. */
export function sendVerificationMail(auth: Auth, user: Pick<UserRow, "id" | "email">, callbackURL?: string): Promise<void> {
  return auth.units.run(
    (unit) => {
      queueVerificationMail(auth, unit, user, callbackURL);
      return Promise.resolve();
    },
    { transaction: false },
  );
}
