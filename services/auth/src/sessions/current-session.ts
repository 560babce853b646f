import type { Request } from "express";
import { SESSION_TOKEN_HEADER, type IdentityClaims } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { findUserById, type UserRow } from "../users/users.sql.js";
import { findSessionById, type SessionRow } from "./sessions.sql.js";

export interface CurrentSession {
  session: SessionRow;
  user: UserRow;
  /** The raw token, forwarded by the gateway; null when the request did not come with the cookie. */
  token: string | null;
}

/** The caller's live session, from the identity the gateway resolved; null when signed out. */
export async function findCurrentSession(auth: Parts, identity: IdentityClaims, req: Request): Promise<CurrentSession | null> {
  if (identity.kind !== "user") return null;
  const session = await findSessionById(auth.db, identity.session_id);
  if (!session || session.expires_at <= new Date()) return null;
  const user = await findUserById(auth.db, session.user_id);
  if (!user) return null;
  return { session, user, token: req.get(SESSION_TOKEN_HEADER) ?? null };
}

export async function requireSession(auth: Parts, identity: IdentityClaims, req: Request): Promise<CurrentSession> {
  const current = await findCurrentSession(auth, identity, req);
  if (!current) throw authError(401, "UNAUTHORIZED");
  return current;
}

/** Sensitive actions need a session signed in recently, not one kept alive for days. */
export async function requireFreshSession(auth: Parts, identity: IdentityClaims, req: Request): Promise<CurrentSession> {
  const current = await requireSession(auth, identity, req);
  const freshAgeMs = auth.config.SESSION_FRESH_AGE_SECONDS * 1000;
  if (freshAgeMs > 0 && Date.now() - current.session.created_at.getTime() >= freshAgeMs) throw authError(403, "SESSION_NOT_FRESH");
  return current;
}
