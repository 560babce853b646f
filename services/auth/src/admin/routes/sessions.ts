import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { SuccessAnswer } from "../../http/schemas.js";
import type { Parts } from "../../parts.js";
import { revokeSessions } from "../../sessions/issuance.js";
import { sessionJson } from "../../sessions/output.js";
import { findSessionByTokenHash, hashToken, listUserSessions } from "../../sessions/sessions.sql.js";
import { requirePermission } from "../permissions.js";
import { SessionRevocation, UserIdBody, UserSessions } from "../schemas.js";

/** Admin endpoints that list a user's sessions and end them. */
export function adminSessionEndpoints(auth: Parts): Endpoint[] {
  const { db, units } = auth;
  return [
    defineEndpoint(
      "/admin/list-user-sessions",
      { method: "POST", body: UserIdBody, response: UserSessions, summary: "List a user's sessions", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
        return { sessions: (await listUserSessions(db, body.userId)).map((session) => sessionJson(session, null)) };
      },
    ),

    defineEndpoint(
      "/admin/revoke-user-session",
      { method: "POST", body: SessionRevocation, response: SuccessAnswer, summary: "End one session of a user", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
        // The token as the user holds it, or the digest list-user-sessions shows in its place.
        const digest = /^[0-9a-f]{64}$/.test(body.sessionToken) ? body.sessionToken : hashToken(body.sessionToken);
        const session = await findSessionByTokenHash(db, digest);
        if (session) await units.run((unit) => revokeSessions(unit, { userId: session.user_id, ids: [session.id] }));
        return { success: true };
      },
    ),

    defineEndpoint(
      "/admin/revoke-user-sessions",
      { method: "POST", body: UserIdBody, response: SuccessAnswer, summary: "End every session of a user", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
        await units.run((unit) => revokeSessions(unit, { userId: body.userId }));
        return { success: true };
      },
    ),
  ];
}
