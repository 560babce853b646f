import type { Request, Response } from "express";
import type { Parts } from "../parts.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { admitSignIn } from "../sessions/admission.js";
import { startSession } from "../sessions/issuance.js";
import { userJson } from "../users/output.js";
import type { UserRow } from "../users/users.sql.js";
import { beginPendingSignIn } from "../two-factor/second-factor.js";
import { signInOnTrustedDevice } from "../two-factor/trusted-device.js";
import { findCredentialAccount } from "./credentials.sql.js";

export interface SignInRequest {
  password: string;
  rememberMe?: boolean;
  callbackURL?: string;
}

/**
 * The part of signing in with a password that e-mail and username share. Every way of failing the
 * credential check gives the same error after the same bcrypt work, so neither the message nor the
 * timing tells whether the account exists.
 */
export async function signInWithPassword(
  auth: Parts,
  user: UserRow | undefined,
  body: SignInRequest,
  http: { req: Request; res: Response },
  invalid: AuthErrorCode,
) {
  const account = user ? await findCredentialAccount(auth.db, user.id) : undefined;
  const valid = account?.password ? await auth.passwords.verify(body.password, account.password) : await auth.passwords.verifyNothing(body.password);
  if (!user || !valid) throw authError(401, invalid);
  const active = await admitSignIn(auth, user, http.req, body.callbackURL);

  const persistent = body.rememberMe !== false;
  // Two-factor users give their second factor before any session exists, unless this browser is trusted.
  if (active.two_factor_enabled && !(await signInOnTrustedDevice(auth, http.req, http.res, active.id))) {
    return beginPendingSignIn(auth, http.res, active, persistent);
  }
  const { token } = await startSession(auth, auth.db, http.res, active, { req: http.req, persistent });
  if (body.callbackURL) http.res.setHeader("location", body.callbackURL);
  return { redirect: Boolean(body.callbackURL), token, url: body.callbackURL, user: userJson(active) };
}
