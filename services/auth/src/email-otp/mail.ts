import type { Request } from "express";
import type { Parts } from "../parts.js";
import { preferredLocale } from "../i18n/locales.js";
import { accountCodeMail, type AccountCodeKind } from "../mail/messages.js";
import { findUserByEmail } from "../users/users.sql.js";
import { CODE_SECONDS, issueCode } from "./codes.js";
import type { CodePurpose } from "./schemas.js";

/** Each purpose's mail, and the web app's page where its code is typed in. */
const MAILS: Record<CodePurpose, { kind: AccountCodeKind; page: string }> = {
  "sign-in": { kind: "signInCode", page: "/sign-in" },
  "email-verification": { kind: "verifyEmailCode", page: "/account" },
  "forget-password": { kind: "resetPasswordCode", page: "/forgot-password" },
};

/**
 * Mails a new code for `purpose` to `email` (lower-cased), replacing the one before. An address
 * without an account gets one only to sign in (which signs it up); for the rest nothing is sent, and
 * the caller answers the same either way, so the answer does not tell which addresses have accounts.
 */
export async function mailCode(auth: Parts, req: Request, purpose: CodePurpose, email: string): Promise<void> {
  const user = await findUserByEmail(auth.db, email);
  if (!user && purpose !== "sign-in") return;
  const { kind, page } = MAILS[purpose];
  await auth.units.run(async (unit) => {
    const code = await issueCode(auth, unit, purpose, email);
    const pageUrl = new URL(page, auth.config.PUBLIC_URL).href;
    auth.mail.queue(unit, accountCodeMail(kind, { email, locale: preferredLocale(user, req) }, code, pageUrl, CODE_SECONDS));
  });
}
