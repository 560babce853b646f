import type { Knex } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { authUrl } from "../mail/links.js";
import { verificationMail } from "../mail/messages.js";
import type { UserRow } from "../users/users.sql.js";
import { signVerificationToken } from "./tokens.js";

/** The verify-email link for a token, returning to `callbackURL` (the site's root by default), as better-auth builds it. */
export const verifyEmailUrl = (auth: Auth, token: string, callbackURL: string | undefined) =>
  authUrl(auth.config, `/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL || "/")}`);

/** Queues a verification mail for the user's current address inside the caller's transaction. */
export async function queueVerificationMail(auth: Auth, trx: Knex, user: Pick<UserRow, "id" | "email">, callbackURL?: string): Promise<void> {
  const token = signVerificationToken(auth.config.AUTH_SECRET, { email: user.email, userId: user.id });
  await auth.mail.queue(trx, verificationMail(user.email, verifyEmailUrl(auth, token, callbackURL)));
}
