import type { SessionCache } from "@tollgate/kit";
import { userJson } from "../users/output.js";
import type { UserRow } from "../users/users.sql.js";
import type { SessionRow } from "./sessions.sql.js";

/**
 * A session as better-auth returns it. Only digests of tokens are stored, so `token` is the real
 * token for the caller's own session and, for the others, the digest: a handle revoke-session
 * accepts, useless as a cookie.
 */
export function sessionJson(session: SessionRow, token: string | null) {
  return {
    id: session.id,
    token: token ?? session.token_hash,
    userId: session.user_id,
    expiresAt: session.expires_at,
    createdAt: session.created_at,
    updatedAt: session.updated_at,
    ipAddress: session.ip_address,
    userAgent: session.user_agent,
    impersonatedBy: session.impersonated_by,
    activeOrganizationId: session.active_organization_id,
    activeTeamId: session.active_team_id,
  };
}

/** What get-session answers, as the session_data cookie cache keeps it. */
export function sessionCacheOf(session: SessionRow, token: string, user: UserRow): SessionCache {
  return { session: sessionJson(session, token), user: userJson(user), updatedAt: Date.now(), version: "1" };
}
