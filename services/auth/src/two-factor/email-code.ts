import { randomInt, timingSafeEqual } from "node:crypto";
import type { Request } from "express";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { preferredLocale } from "../i18n/locales.js";
import { twoFactorCodeMail } from "../mail/messages.js";
import { hashToken } from "../sessions/sessions.sql.js";
import { putVerification, takeVerification } from "../verification/verifications.sql.js";
import type { Challenge } from "./second-factor.js";

/** better-auth's OTP period: an e-mailed code works for 3 minutes. */
const CODE_SECONDS = 180;
/** Wrong guesses one e-mailed code takes before a new one must be asked for. */
const ALLOWED_GUESSES = 5;

/** Kept as `digest:wrong guesses`: the code itself is never stored. */
const storedCode = (digest: string, guesses: number) => `${digest}:${guesses}`;

/** E-mails a new 6-digit code for the challenge, in the user's language; it replaces one sent before. */
export async function sendEmailCode(auth: Parts, challenge: Challenge, req: Request): Promise<void> {
  const code = String(randomInt(1_000_000)).padStart(6, "0");
  const { user } = challenge;
  await auth.units.run(async (unit) => {
    await putVerification(unit.db, "two-factor-otp", challenge.key, storedCode(hashToken(code), 0), new Date(Date.now() + CODE_SECONDS * 1000));
    auth.mail.queue(unit, twoFactorCodeMail({ email: user.email, locale: preferredLocale(user, req) }, code, auth.config.PUBLIC_URL, CODE_SECONDS));
  });
}

/** Whether `code` is the one e-mailed for the challenge. A right code is used up; a wrong one counts against it. */
export async function checkEmailCode(auth: Parts, challenge: Challenge, code: string): Promise<boolean> {
  const taken = await takeVerification(auth.db, "two-factor-otp", challenge.key);
  if (!taken) throw authError(400, "OTP_HAS_EXPIRED");
  const [digest = "", guesses = "0"] = taken.value.split(":");
  if (Number(guesses) >= ALLOWED_GUESSES) throw authError(400, "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
  const given = Buffer.from(hashToken(code));
  if (given.length === digest.length && timingSafeEqual(given, Buffer.from(digest))) return true;
  await putVerification(auth.db, "two-factor-otp", challenge.key, storedCode(digest, Number(guesses) + 1), taken.expires_at);
  return false;
}
