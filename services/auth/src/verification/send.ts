import type { Knex } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { verificationMail } from "../mail/messages.js";
import type { UserRow } from "../users/users.sql.js";
import { signVerificationToken } from "./tokens.js";

/** Links in mails lead back to this service's endpoints under the site's public address. */
export const authUrl = (auth: Auth, path: string) => `${auth.config.PUBLIC_URL.replace(/\/$/, "")}/api/auth${path}`;

/** Queues a verification mail for the user's current address inside the caller's transaction. */
export async function queueVerificationMail(auth: Auth, trx: Knex, user: Pick<UserRow, "id" | "email">, callbackURL = "/"): Promise<void> {
  const token = signVerificationToken(auth.config.AUTH_SECRET, { email: user.email, userId: user.id });
  const url = authUrl(auth, `/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL)}`);
  await auth.mail.queue(trx, verificationMail(user.email, url));
}

/** Runs a transaction that may queue mail, and hands the mail to the worker once it has committed. */
export async function withMail<T>(auth: Auth, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const result = await auth.db.transaction(work);
  auth.mail.wake();
  return result;
}
