import type { AuthConfig } from "../config.js";
import { authError } from "../http/errors.js";

export function assertPasswordLength(config: AuthConfig, password: string, check: "both" | "max" = "both"): void {
  if (check === "both" && password.length < config.PASSWORD_MIN_LENGTH) throw authError(400, "PASSWORD_TOO_SHORT");
  if (password.length > config.PASSWORD_MAX_LENGTH) throw authError(400, "PASSWORD_TOO_LONG");
}
