import type { Parts } from "../parts.js";
import type { AuthConfig } from "../config.js";
import { authError } from "../http/errors.js";
import { findCredentialAccount } from "./credentials.sql.js";

export function assertPasswordLength(config: AuthConfig, password: string, check: "both" | "max" = "both"): void {
  if (check === "both" && password.length < config.PASSWORD_MIN_LENGTH) throw authError(400, "PASSWORD_TOO_SHORT");
  if (password.length > config.PASSWORD_MAX_LENGTH) throw authError(400, "PASSWORD_TOO_LONG");
}

/** Sensitive changes ask for the password again; a user without one (social sign-in only) cannot confirm this way. */
export async function assertCurrentPassword(auth: Pick<Parts, "config" | "db" | "passwords">, userId: string, password: string): Promise<void> {
  assertPasswordLength(auth.config, password, "max");
  const account = await findCredentialAccount(auth.db, userId);
  if (!account?.password || !(await auth.passwords.verify(password, account.password))) throw authError(400, "INVALID_PASSWORD");
}
