import type { z } from "zod";
import type { resolveSession } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { userJson } from "../users/output.js";
import { findUserById } from "../users/users.sql.js";
import { refreshDueAt } from "./refresh.js";
import { sessionJson } from "./output.js";
import { deleteSessions, findSessionByTokenHash } from "./sessions.sql.js";

type Resolved = z.input<typeof resolveSession.response>;

/**
 * Answers the gateway's cache misses: the live session behind a token digest, if any, with the
 * get-session body the gateway may serve from its cache. An expired session is deleted when it is
 * next presented, as better-auth does.
 */
export async function resolveSessionByTokenHash(auth: Parts, tokenHash: string): Promise<Resolved> {
  const { db } = auth;
  const session = await findSessionByTokenHash(db, tokenHash);
  if (!session) return { session: null };
  if (session.expires_at <= new Date()) {
    await deleteSessions(db, { userId: session.user_id, ids: [session.id] });
    return { session: null };
  }
  const user = await findUserById(db, session.user_id);
  if (!user || user.banned) return { session: null };
  const { token: _token, ...view } = sessionJson(session, null);
  return {
    session: {
      id: session.id,
      user_id: session.user_id,
      expires_at: session.expires_at.toISOString(),
      impersonated_by: session.impersonated_by,
      refresh_at: refreshDueAt(auth.config, session)?.toISOString() ?? null,
      two_factor_enabled: user.two_factor_enabled,
      // Through JSON, as get-session would send it: dates become ISO strings.
      view: JSON.parse(JSON.stringify({ session: view, user: userJson(user) })) as { session: Record<string, unknown>; user: Record<string, unknown> },
    },
  };
}
