import { ReplyError } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { AUTH_ERRORS } from "../http/errors.js";
import { findSessionById } from "../sessions/sessions.sql.js";
import { findUserById } from "../users/users.sql.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "./credentials.sql.js";

/**
 * Sets a first password for the signed-in user an identity token names; a user who already has one must
 * change it with the current one instead. The token must be the gateway's and its session still live,
 * as better-auth's set-password asks for a session.
 */
export async function setFirstPassword(auth: Parts, identityToken: string, newPassword: string): Promise<{ status: true }> {
  const { config } = auth;
  const identity = auth.identity.verify(identityToken)?.claims;
  const session = identity?.kind === "user" ? await findSessionById(auth.db, identity.session_id) : undefined;
  if (!session || session.expires_at <= new Date()) throw new ReplyError("UNAUTHORIZED", AUTH_ERRORS.UNAUTHORIZED);
  const userId = session.user_id;
  if (newPassword.length < config.PASSWORD_MIN_LENGTH) throw new ReplyError("PASSWORD_TOO_SHORT", AUTH_ERRORS.PASSWORD_TOO_SHORT);
  if (newPassword.length > config.PASSWORD_MAX_LENGTH) throw new ReplyError("PASSWORD_TOO_LONG", AUTH_ERRORS.PASSWORD_TOO_LONG);
  if (!(await findUserById(auth.db, userId))) throw new ReplyError("USER_NOT_FOUND", AUTH_ERRORS.USER_NOT_FOUND);
  const hash = await auth.passwords.hash(newPassword);
  const account = await findCredentialAccount(auth.db, userId);
  if (!account) await insertCredentialAccount(auth.db, userId, hash);
  else if (!account.password) await setAccountPassword(auth.db, account.id, hash);
  else throw new ReplyError("PASSWORD_ALREADY_SET", AUTH_ERRORS.PASSWORD_ALREADY_SET);
  return { status: true };
}
