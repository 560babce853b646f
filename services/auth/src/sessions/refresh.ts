import type { AuthConfig } from "../config.js";
import type { SessionRow } from "./sessions.sql.js";

/**
 * When get-session should slide a session's expiry forward: once it is older than the update age.
 * Sessions that end with the browser session never slide.
 */
export function refreshDueAt(config: AuthConfig, session: Pick<SessionRow, "expires_at" | "persistent">): Date | null {
  if (!session.persistent) return null;
  return new Date(session.expires_at.getTime() - (config.SESSION_EXPIRES_IN_SECONDS - config.SESSION_UPDATE_AGE_SECONDS) * 1000);
}
