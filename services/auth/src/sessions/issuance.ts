import type { Request, Response } from "express";
import { sessionRevoked } from "@tollgate/proto";
import type { Knex, UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import type { UserRow } from "../users/users.sql.js";
import { sessionCacheOf } from "./output.js";
import { deleteSessions, insertSession, listImpersonationsFrom, type SessionRow } from "./sessions.sql.js";

/** better-auth's lifetime for a session that should end with the browser session. */
const BROWSER_SESSION_SECONDS = 24 * 3600;

/**
 * Signs the user in: a new session with a new token (a presented token is never reused), and its
 * cookie on the response.
 */
export async function startSession(
  auth: Parts,
  db: Knex,
  res: Response,
  user: UserRow,
  options: { req: Request; persistent: boolean; impersonation?: { by: string; sessionId: string; expiresAt: Date } },
): Promise<{ session: SessionRow; token: string }> {
  const lifetime = options.persistent ? auth.config.SESSION_EXPIRES_IN_SECONDS : BROWSER_SESSION_SECONDS;
  const { row, token } = await insertSession(db, {
    userId: user.id,
    expiresAt: options.impersonation?.expiresAt ?? new Date(Date.now() + lifetime * 1000),
    persistent: options.persistent,
    ipAddress: options.req.clientAddress ?? null,
    userAgent: options.req.get("user-agent") ?? null,
    impersonatedBy: options.impersonation?.by ?? null,
    impersonatorSessionId: options.impersonation?.sessionId ?? null,
  });
  auth.cookies.issue(res, token, options.persistent);
  auth.cookies.issueCache(res, sessionCacheOf(row, token, user));
  return { session: row, token };
}

/**
 * Ends sessions in the caller's unit of work and announces it, so the gateway drops them from its
 * cache at once instead of when their cache entries expire. An impersonation acts on the authority of
 * the admin's session it was begun from, so it ends with that session.
 */
export async function revokeSessions(unit: UnitOfWork, filter: { userId: string; ids?: string[]; except?: string }): Promise<void> {
  const revoked = await deleteSessions(unit.db, filter);
  if (revoked.length === 0) return;
  unit.announce(sessionRevoked, {
    user_id: filter.userId,
    sessions: revoked.map((session) => ({ id: session.id, token_hash: session.token_hash })),
  });
  for (const impersonation of await listImpersonationsFrom(unit.db, revoked.map((session) => session.id))) {
    await revokeSessions(unit, { userId: impersonation.user_id, ids: [impersonation.id] });
  }
}
