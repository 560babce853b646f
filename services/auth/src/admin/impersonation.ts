import { defineEndpoint, HttpError, type Endpoint, type UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { requireSession } from "../sessions/current-session.js";
import { revokeSessions, startSession } from "../sessions/issuance.js";
import { SessionWithUser } from "../sessions/schemas.js";
import { sessionCacheOf, sessionJson } from "../sessions/output.js";
import { findSessionById, listImpersonationsInvolving, rekeySession } from "../sessions/sessions.sql.js";
import { userJson } from "../users/output.js";
import { findUserById, liftExpiredBan, type UserRow } from "../users/users.sql.js";
import { hasPermission, mayActAs, requirePermission, type AdminSettings } from "./permissions.js";
import { ImpersonationRequest } from "./schemas.js";

/** better-auth's default impersonationSessionDuration. */
const IMPERSONATION_SECONDS = 3600;

const adminSessionNotFound = () => new HttpError(500, "INTERNAL_SERVER_ERROR", "Failed to find admin session");

/** What impersonate-user asks of the admin and the user, asked again whenever either of them changes. */
const mayImpersonate = (config: AdminSettings, admin: UserRow, target: UserRow) =>
  !admin.banned && hasPermission(config, admin, { user: ["impersonate"] }) && mayActAs(config, admin, target);

/**
 * Ends the impersonations a change to a user no longer allows: those begun by them once they may not
 * impersonate (demoted, banned, removed), and those acting as them once they are an admin their
 * impersonator may not act as. An impersonation lasts no longer than the right it was begun with.
 */
export async function endDisallowedImpersonations(config: AdminSettings, unit: UnitOfWork, userId: string): Promise<void> {
  for (const impersonation of await listImpersonationsInvolving(unit.db, userId)) {
    const admin = await findUserById(unit.db, impersonation.impersonated_by);
    const target = await findUserById(unit.db, impersonation.user_id);
    if (!admin || !target || !mayImpersonate(config, admin, target)) {
      await revokeSessions(unit, { userId: impersonation.user_id, ids: [impersonation.id] });
    }
  }
}

/**
 * impersonate-user and stop-impersonating.
 *
 * better-auth keeps the admin's session token in an admin_session cookie and sets it again when
 * impersonation stops. The auth service reads no cookies and keeps tokens only as digests, so the
 * impersonation session names the admin's session instead (impersonator_session_id), and stopping
 * gives that same session a new token: the admin is back in their own session (its id, sign-in time,
 * expiry and active organization, as with better-auth), and no stored value can open a session.
 */
export function impersonationEndpoints(auth: Parts): Endpoint[] {
  const { config, cookies, db } = auth;
  return [
    defineEndpoint(
      "/admin/impersonate-user",
      { method: "POST", body: ImpersonationRequest, response: SessionWithUser, summary: "Act as a user in a new session of theirs, for an hour at most", tag: "Admin" },
      async ({ body, identity, req, res }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS");
        const found = await findUserById(db, body.userId);
        if (!found) throw authError(404, "USER_NOT_FOUND");
        if (!mayActAs(config, admin.user, found)) throw authError(403, "YOU_CANNOT_IMPERSONATE_ADMINS");
        // better-auth refuses every new session of a banned user, this one included.
        const target = await liftExpiredBan(db, found);
        if (target.banned) throw authError(403, "BANNED_USER");
        // It acts on the authority of the admin's own session, so it never outlasts that session.
        const expiresAt = new Date(Math.min(Date.now() + IMPERSONATION_SECONDS * 1000, admin.session.expires_at.getTime()));
        // Like better-auth's, the impersonation cookie ends with the browser session.
        const { session, token } = await startSession(auth, db, res, target, {
          req,
          persistent: false,
          impersonation: { by: admin.user.id, sessionId: admin.session.id, expiresAt },
        });
        return { session: sessionJson(session, token), user: userJson(target) };
      },
    ),

    defineEndpoint(
      "/admin/stop-impersonating",
      { method: "POST", response: SessionWithUser, summary: "End an impersonation and return to the admin's own session", tag: "Admin" },
      async ({ identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        const { impersonated_by: adminId, impersonator_session_id: adminSessionId } = current.session;
        if (!adminId) throw new HttpError(400, "BAD_REQUEST", "You are not impersonating anyone");
        const admin = await findUserById(db, adminId);
        if (!admin) throw new HttpError(500, "INTERNAL_SERVER_ERROR", "Failed to find user");
        const own = adminSessionId ? await findSessionById(db, adminSessionId) : undefined;
        if (!own || own.user_id !== admin.id || own.expires_at <= new Date()) throw adminSessionNotFound();
        // The old token left the browser when impersonation began; only a copy of it could still be in
        // the gateway's session cache, and only for that cache's short lifetime.
        const resumed = await auth.units.run(async (unit) => {
          await revokeSessions(unit, { userId: current.user.id, ids: [current.session.id] });
          const rekeyed = await rekeySession(unit.db, own.id);
          if (!rekeyed) throw adminSessionNotFound();
          return rekeyed;
        });
        cookies.restore(res, resumed.token, resumed.row.persistent);
        cookies.issueCache(res, sessionCacheOf(resumed.row, resumed.token, admin));
        return { session: sessionJson(resumed.row, resumed.token), user: userJson(admin) };
      },
    ),
  ];
}
