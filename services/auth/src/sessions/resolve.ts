import type { z } from "zod";
import type { resolveSession } from "@tollgate/proto";
import type { Knex } from "@tollgate/kit";
import { findUserById } from "../users/users.sql.js";
import { deleteSessions, findSessionByTokenHash } from "./sessions.sql.js";

type Resolved = z.input<typeof resolveSession.response>;

/**
 * Answers the gateway's cache misses: the live session behind a token digest, if any. An expired
 * session is deleted when it is next presented, as better-auth does.
 */
export async function resolveSessionByTokenHash(db: Knex, tokenHash: string): Promise<Resolved> {
  const session = await findSessionByTokenHash(db, tokenHash);
  if (!session) return { session: null };
  if (session.expires_at <= new Date()) {
    await deleteSessions(db, { userId: session.user_id, ids: [session.id] });
    return { session: null };
  }
  const user = await findUserById(db, session.user_id);
  if (!user || user.banned) return { session: null };
  return {
    session: {
      id: session.id,
      user_id: session.user_id,
      expires_at: session.expires_at.toISOString(),
      impersonated_by: session.impersonated_by,
    },
  };
}
