import type { Knex } from "@tollgate/kit";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { findUserByUsername } from "./users.sql.js";

const MIN_LENGTH = 3;
const MAX_LENGTH = 30;

/** Why a username is refused (length, or characters other than letters, digits, `_` and `.`); null if fine. */
export function usernameProblem(username: string): AuthErrorCode | null {
  if (username.length < MIN_LENGTH) return "USERNAME_TOO_SHORT";
  if (username.length > MAX_LENGTH) return "USERNAME_TOO_LONG";
  if (!/^[a-zA-Z0-9_.]+$/.test(username)) return "INVALID_USERNAME";
  return null;
}

/** Usernames are unique case-insensitively: stored lower-cased, the original kept as the display name. */
export const normalizeUsername = (username: string) => username.toLowerCase();

/** Checks a username a user wants (on sign-up or update); `self` may keep their own. */
export async function assertUsernameAvailable(db: Knex, username: string, self?: string): Promise<void> {
  const problem = usernameProblem(username);
  if (problem) throw authError(400, problem);
  const holder = await findUserByUsername(db, normalizeUsername(username));
  if (holder && holder.id !== self) throw authError(400, "USERNAME_IS_ALREADY_TAKEN");
}
