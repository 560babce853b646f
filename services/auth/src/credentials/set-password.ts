import { ReplyError } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { AUTH_ERRORS } from "../http/errors.js";
import { findUserById } from "../users/users.sql.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "./credentials.sql.js";

/** Sets a first password; a user who already has one must change it with the current one instead. */
export async function setFirstPassword(auth: Auth, userId: string, newPassword: string): Promise<{ status: true }> {
  const { config } = auth;
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
