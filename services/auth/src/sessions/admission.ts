import type { Request } from "express";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { preferredLocale } from "../i18n/locales.js";
import { liftExpiredBan, type UserRow } from "../users/users.sql.js";
import { sendVerificationMail } from "../verification/send.js";

/**
 * What every sign-in checks once the user has proved who they are (a password, a passkey), before
 * a session starts: a banned user is refused, and so is an unverified address where verification is
 * required. Returns the user as they are now (a ban that has run out lifted).
 */
export async function admitSignIn(auth: Parts, user: UserRow, req: Request, callbackURL?: string): Promise<UserRow> {
  const active = await liftExpiredBan(auth.db, user);
  if (active.banned) throw authError(403, "BANNED_USER");
  if (auth.config.REQUIRE_EMAIL_VERIFICATION && !active.email_verified) {
    // The first mail may be lost or expired: each refused sign-in sends a fresh one.
    await sendVerificationMail(auth, active, preferredLocale(active, req), callbackURL);
    throw authError(403, "EMAIL_NOT_VERIFIED");
  }
  return active;
}
