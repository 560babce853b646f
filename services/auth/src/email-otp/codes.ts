import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { countWrongTry, deleteCode, lockCode, replaceCode } from "../verification/verifications.sql.js";
import type { CodePurpose } from "./schemas.js";

/** better-auth's e-mail OTP: six digits, alive for five minutes. */
const CODE_DIGITS = 6;
export const CODE_SECONDS = 300;
/** Wrong tries a code survives; the next try, right or wrong, finds it dead (better-auth's TOO_MANY_ATTEMPTS). */
const ALLOWED_WRONG_TRIES = 5;

/** One live code per address and purpose: a new one replaces the last. */
const identifierOf = (purpose: CodePurpose, email: string) => `email-otp:${purpose}:${email}`;

/**
 * Codes are kept only as digests, keyed with the service's secret: six digits are too few for a plain
 * hash to hide them from whoever reads the table.
 */
const digestOf = (secret: string, identifier: string, code: string) => createHmac("sha256", secret).update(`${identifier}\n${code}`).digest();

/** A new code for the address and purpose, stored in the caller's unit of work; the code itself is returned once, for the mail. */
export async function issueCode(auth: Pick<Parts, "config">, unit: UnitOfWork, purpose: CodePurpose, email: string): Promise<string> {
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  const identifier = identifierOf(purpose, email);
  await replaceCode(unit.db, identifier, digestOf(auth.config.AUTH_SECRET, identifier, code).toString("hex"), CODE_SECONDS);
  return code;
}

type Verdict = "right" | "OTP_EXPIRED" | "INVALID_OTP" | "TOO_MANY_ATTEMPTS";

/** Judges a try at the code with its row locked: a wrong one is counted, a dead or expired one deleted, a right one spent unless kept. */
async function judgeTry(auth: Pick<Parts, "config">, unit: UnitOfWork, identifier: string, code: string, keep: boolean): Promise<Verdict> {
  const row = await lockCode(unit.db, identifier);
  if (!row) return "INVALID_OTP";
  if (row.expires_at <= new Date()) {
    await deleteCode(unit.db, row.id);
    return "OTP_EXPIRED";
  }
  if (row.attempts >= ALLOWED_WRONG_TRIES) {
    await deleteCode(unit.db, row.id);
    return "TOO_MANY_ATTEMPTS";
  }
  const stored = Buffer.from(row.value, "hex");
  const given = digestOf(auth.config.AUTH_SECRET, identifier, code);
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) {
    await countWrongTry(unit.db, row.id);
    return "INVALID_OTP";
  }
  if (!keep) await deleteCode(unit.db, row.id);
  return "right";
}

/**
 * Runs `use` in one unit of work with the code, when the code is right: spent with what it allows, so
 * a failure of either leaves both undone. A wrong try is counted and committed before it is refused.
 * `keep` leaves a right code usable, for checking it before the step that spends it.
 */
export async function withCode<T>(
  auth: Pick<Parts, "config" | "units">,
  attempt: { purpose: CodePurpose; email: string; code: string; keep?: boolean },
  use: (unit: UnitOfWork) => Promise<T>,
): Promise<T> {
  const identifier = identifierOf(attempt.purpose, attempt.email);
  const outcome = await auth.units.run(async (unit): Promise<{ refused: Exclude<Verdict, "right"> } | { done: T }> => {
    const verdict = await judgeTry(auth, unit, identifier, attempt.code, attempt.keep ?? false);
    return verdict === "right" ? { done: await use(unit) } : { refused: verdict };
  });
  if ("refused" in outcome) throw authError(outcome.refused === "TOO_MANY_ATTEMPTS" ? 403 : 400, outcome.refused);
  return outcome.done;
}
