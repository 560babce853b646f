import { z } from "zod";
import { betterAuthErrors, defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import { STALE_SESSION_HEADER } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { StatusAnswer, SuccessAnswer } from "../http/schemas.js";
import { apiKeySession } from "../api-keys/key-session.js";
import { userJson } from "../users/output.js";
import { findCurrentSession, requireFreshSession, requireSession } from "./current-session.js";
import { revokeSessions } from "./issuance.js";
import { refreshDueAt } from "./refresh.js";
import { Session, SessionQuery, SessionRevocation, SessionWithUser } from "./schemas.js";
import { sessionCacheOf, sessionJson } from "./output.js";
import { extendSession, hashToken, listUserSessions } from "./sessions.sql.js";

export function sessionEndpoints(auth: Parts): Endpoint[] {
  const { config, cookies, db } = auth;
  return [
    defineEndpoint(
      "/get-session",
      {
        method: "GET",
        query: SessionQuery,
        response: SessionWithUser.nullable(),
        summary: "Get the signed-in session and its user (null when signed out)",
        tag: "Default",
      },
      async ({ query, identity, req, res }) => {
        res.set({ "cache-control": "no-store", pragma: "no-cache" });
        if (identity.kind === "user_api_key") return apiKeySession(auth, identity, req);
        const current = await findCurrentSession(auth, identity, req);
        if (!current) {
          // The cookie opens nothing (any more): better-auth clears it rather than let the browser keep sending it.
          if (identity.kind === "user" || req.get(STALE_SESSION_HEADER)) cookies.clear(res);
          return null;
        }
        let { session } = current;
        const refreshAt = refreshDueAt(config, session);
        if (refreshAt && !query.disableRefresh && refreshAt.getTime() <= Date.now()) {
          session = (await extendSession(db, session.id, new Date(Date.now() + config.SESSION_EXPIRES_IN_SECONDS * 1000))) ?? session;
          if (current.token) cookies.issue(res, current.token, true);
        }
        if (current.token) cookies.issueCache(res, sessionCacheOf(session, current.token, current.user));
        return { session: sessionJson(session, current.token), user: userJson(current.user) };
      },
    ),
    // better-auth accepts POST only with its deferred-refresh mode, which Tollgate does not use: it never succeeds, so its refusal is what it declares.
    defineEndpoint(
      "/get-session",
      { method: "POST", status: 405, response: betterAuthErrors.documented.error, summary: "Refused: read the session with GET", tag: "Default" },
      () => {
        throw new HttpError(405, "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED", "POST method requires deferSessionRefresh to be enabled in session config");
      },
    ),
    defineEndpoint("/list-sessions", { method: "GET", response: z.array(Session), summary: "List the signed-in user's sessions", tag: "Default" }, async ({ identity, req }) => {
      const current = await requireFreshSession(auth, identity, req);
      const sessions = await listUserSessions(db, current.user.id);
      // An admin acting as the user is not one of the user's devices (better-auth's admin plugin hides it too).
      return sessions
        .filter((session) => !session.impersonated_by)
        .map((session) => sessionJson(session, session.id === current.session.id ? current.token : null));
    }),
    defineEndpoint(
      "/revoke-session",
      { method: "POST", body: SessionRevocation, response: StatusAnswer, summary: "End one of the signed-in user's sessions", tag: "Default" },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        const sessions = await listUserSessions(db, current.user.id);
        // The caller's own token, or the handle list-sessions showed for another session.
        const target = sessions.find((session) => session.token_hash === hashToken(body.token) || session.token_hash === body.token);
        if (target) await auth.units.run((unit) => revokeSessions(unit, { userId: current.user.id, ids: [target.id] }));
        if (target?.id === current.session.id) cookies.clear(res);
        return { status: true };
      },
    ),
    defineEndpoint(
      "/revoke-sessions",
      { method: "POST", response: StatusAnswer, summary: "End every session of the signed-in user, this one included", tag: "Default" },
      async ({ identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        await auth.units.run((unit) => revokeSessions(unit, { userId: current.user.id }));
        cookies.clear(res);
        return { status: true };
      },
    ),
    defineEndpoint("/revoke-other-sessions", { method: "POST", response: StatusAnswer, summary: "End the signed-in user's sessions but this one", tag: "Default" }, async ({ identity, req }) => {
      const current = await requireSession(auth, identity, req);
      await auth.units.run((unit) => revokeSessions(unit, { userId: current.user.id, except: current.session.id }));
      return { status: true };
    }),
    defineEndpoint("/sign-out", { method: "POST", response: SuccessAnswer, summary: "Sign out: end this session and clear its cookie", tag: "Default" }, async ({ identity, req, res }) => {
      const current = await findCurrentSession(auth, identity, req);
      if (current) await auth.units.run((unit) => revokeSessions(unit, { userId: current.user.id, ids: [current.session.id] }));
      cookies.clear(res);
      return { success: true };
    }),
  ];
}

