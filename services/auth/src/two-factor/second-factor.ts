import type { Request, Response } from "express";
import { z } from "zod";
import { TWO_FACTOR_HEADER, type IdentityClaims } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { findCurrentSession, type CurrentSession } from "../sessions/current-session.js";
import { startSession } from "../sessions/issuance.js";
import { userJson } from "../users/output.js";
import { findUserById, type UserRow } from "../users/users.sql.js";
import { createVerification, peekVerification, putVerification, takeVerification } from "../verification/verifications.sql.js";
import { findTwoFactor } from "./two-factor.sql.js";
import { trustDevice } from "./trusted-device.js";

/** better-auth's twoFactorCookieMaxAge: the second factor must follow the password within 10 minutes. */
const PENDING_SIGN_IN_SECONDS = 600;
/** Wrong codes a pending sign-in takes; the next attempt ends it, so codes cannot be guessed through it. */
const ALLOWED_ATTEMPTS = 5;

/** A password sign-in waiting for its second factor: whose, whether it is remembered, and the wrong codes given so far. */
const PendingSignIn = z.object({ userId: z.string(), persistent: z.boolean(), attempts: z.number().int().min(0) });
type PendingSignIn = z.output<typeof PendingSignIn>;

export type TwoFactorMethod = "totp" | "otp";

/**
 * Holds a password sign-in back until its second factor: no session yet, only a record of it named by a
 * signed cookie. TOTP is offered once an authenticator was confirmed; a code by e-mail always is.
 */
export async function beginPendingSignIn(auth: Parts, res: Response, user: UserRow, persistent: boolean) {
  const pending: PendingSignIn = { userId: user.id, persistent, attempts: 0 };
  const token = await createVerification(auth.db, "two-factor-sign-in", JSON.stringify(pending), PENDING_SIGN_IN_SECONDS, 32);
  auth.cookies.issuePendingSignIn(res, token, PENDING_SIGN_IN_SECONDS);
  const authenticator = await findTwoFactor(auth.db, user.id);
  const twoFactorMethods: TwoFactorMethod[] = authenticator?.verified ? ["totp", "otp"] : ["otp"];
  return { twoFactorRedirect: true as const, twoFactorMethods };
}

/**
 * Who is giving a second factor: a signed-in user (confirming an authenticator, or a code asked for while
 * signed in), or a browser midway through signing in. `key` names what an e-mailed code belongs to.
 */
export type Challenge = { user: UserRow; key: string } & ({ kind: "session"; current: CurrentSession } | { kind: "sign-in"; token: string });

export async function challengeOf(auth: Parts, identity: IdentityClaims, req: Request): Promise<Challenge> {
  const current = await findCurrentSession(auth, identity, req);
  if (current) return { kind: "session", current, user: current.user, key: `${current.user.id}!${current.session.id}` };
  const token = req.get(TWO_FACTOR_HEADER);
  const stored = token ? await peekVerification(auth.db, "two-factor-sign-in", token) : null;
  const pending = stored === null ? null : PendingSignIn.safeParse(JSON.parse(stored));
  const user = pending?.success ? await findUserById(auth.db, pending.data.userId) : undefined;
  if (!token || !user) throw authError(401, "INVALID_TWO_FACTOR_COOKIE");
  return { kind: "sign-in", token, user, key: token };
}

/** What a verified second factor answers: the session's token and the user, as a sign-in does. */
export interface Verified {
  token: string | null;
  user: ReturnType<typeof userJson>;
}

/**
 * Checks a second factor. Signed in, `check` alone decides. Signing in, the pending sign-in is taken for
 * the attempt, so attempts racing each other cannot all count as the first: a wrong code puts it back with
 * one more attempt counted, and a right one turns it into a session (remembered as the password sign-in
 * asked), trusting this browser too if asked.
 */
export async function verifySecondFactor(
  auth: Parts,
  challenge: Challenge,
  http: { req: Request; res: Response },
  options: { trustDevice?: boolean; failure: AuthErrorCode },
  check: () => Promise<boolean>,
): Promise<Verified> {
  if (challenge.kind === "session") {
    if (!(await check())) throw authError(401, options.failure);
    return { token: challenge.current.token, user: userJson(challenge.current.user) };
  }
  const taken = await takeVerification(auth.db, "two-factor-sign-in", challenge.token);
  const pending = taken ? PendingSignIn.safeParse(JSON.parse(taken.value)) : null;
  if (!taken || !pending?.success || pending.data.userId !== challenge.user.id) {
    auth.cookies.clearPendingSignIn(http.res);
    throw authError(401, "INVALID_TWO_FACTOR_COOKIE");
  }
  if (pending.data.attempts >= ALLOWED_ATTEMPTS) {
    auth.cookies.clearPendingSignIn(http.res);
    throw authError(400, "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
  }
  const putBack = (attempts: number) =>
    putVerification(auth.db, "two-factor-sign-in", challenge.token, JSON.stringify({ ...pending.data, attempts }), taken.expires_at);
  let passed: boolean;
  try {
    passed = await check();
  } catch (error) {
    // Not a wrong code (an expired e-mailed one, say): the attempt does not count.
    await putBack(pending.data.attempts);
    throw error;
  }
  if (!passed) {
    await putBack(pending.data.attempts + 1);
    throw authError(401, options.failure);
  }
  const { req, res } = http;
  const { user } = challenge;
  const { token } = await auth.units.run(async (unit) => {
    if (options.trustDevice) await trustDevice(auth, unit.db, res, user.id);
    return startSession(auth, unit.db, res, user, { req, persistent: pending.data.persistent });
  });
  auth.cookies.clearPendingSignIn(res);
  return { token, user: userJson(user) };
}
