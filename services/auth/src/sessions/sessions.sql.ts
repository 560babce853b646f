import { createHash } from "node:crypto";
import { randomId, type Knex } from "@tollgate/kit";

export interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  expires_at: Date;
  ip_address: string | null;
  user_agent: string | null;
  impersonated_by: string | null;
  impersonator_session_id: string | null;
  active_organization_id: string | null;
  active_team_id: string | null;
  persistent: boolean;
  created_at: Date;
  updated_at: Date;
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface NewSession {
  userId: string;
  expiresAt: Date;
  persistent: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy?: string | null;
  impersonatorSessionId?: string | null;
}

/** A new session token: the token goes to the browser once, only its digest is stored. */
function newToken(): { token: string; token_hash: string } {
  const token = randomId(32);
  return { token, token_hash: hashToken(token) };
}

/** Creates a session with a fresh token; the token is returned once and stored only as a digest. */
export async function insertSession(db: Knex, session: NewSession): Promise<{ row: SessionRow; token: string }> {
  const { token, token_hash } = newToken();
  const [row] = await db<SessionRow>("sessions")
    .insert({
      id: randomId(32),
      token_hash,
      user_id: session.userId,
      expires_at: session.expiresAt,
      persistent: session.persistent,
      ip_address: session.ipAddress,
      user_agent: session.userAgent,
      impersonated_by: session.impersonatedBy ?? null,
      impersonator_session_id: session.impersonatorSessionId ?? null,
    })
    .returning("*");
  if (!row) throw new Error("insert into sessions returned no row");
  return { row, token };
}

export const findSessionById = (db: Knex, id: string) => db<SessionRow>("sessions").where({ id }).first();

/**
 * Gives a session a new token, everything else kept: how a browser gets back a session whose token
 * it no longer holds, since the old token cannot be recovered from its digest.
 */
export async function rekeySession(db: Knex, id: string): Promise<{ row: SessionRow; token: string } | undefined> {
  const { token, token_hash } = newToken();
  const [row] = await db<SessionRow>("sessions").where({ id }).update({ token_hash, updated_at: new Date() }).returning("*");
  return row && { row, token };
}

export const findSessionByTokenHash = (db: Knex, tokenHash: string) =>
  db<SessionRow>("sessions").where({ token_hash: tokenHash }).first();

export const listUserSessions = (db: Knex, userId: string) =>
  db<SessionRow>("sessions").where({ user_id: userId }).where("expires_at", ">", new Date()).orderBy("created_at");

export async function extendSession(db: Knex, id: string, expiresAt: Date): Promise<SessionRow | undefined> {
  const [row] = await db<SessionRow>("sessions").where({ id }).update({ expires_at: expiresAt, updated_at: new Date() }).returning("*");
  return row;
}

/** A session in which an admin acts as its user. */
export type ImpersonationRow = SessionRow & { impersonated_by: string };

/** The impersonations begun from any of these sessions. */
export const listImpersonationsFrom = (db: Knex, sessionIds: string[]) =>
  db<SessionRow>("sessions").whereIn("impersonator_session_id", sessionIds).select<ImpersonationRow[]>("*");

/** The impersonations a user takes part in: begun by them, or acting as them. */
export const listImpersonationsInvolving = (db: Knex, userId: string) =>
  db<SessionRow>("sessions")
    .whereNotNull("impersonated_by")
    .where((query) => void query.where({ impersonated_by: userId }).orWhere({ user_id: userId }))
    .select<ImpersonationRow[]>("*");

export type RevokedSession = Pick<SessionRow, "id" | "token_hash">;

/** Deletes a user's sessions (all, the listed ones, or all but one) and returns what it deleted. */
export async function deleteSessions(
  db: Knex,
  filter: { userId: string; ids?: string[]; except?: string },
): Promise<RevokedSession[]> {
  const query = db<SessionRow>("sessions").where({ user_id: filter.userId });
  if (filter.ids) void query.whereIn("id", filter.ids);
  if (filter.except) void query.whereNot({ id: filter.except });
  return query.delete().returning<RevokedSession[]>(["id", "token_hash"]);
}

/** Sets a session's active organization, and its active team when one is given; clearing the organization clears the team. */
export const setActiveOrganizationOf = (db: Knex, sessionId: string, organizationId: string | null, teamId: string | null | undefined) =>
  db<SessionRow>("sessions")
    .where({ id: sessionId })
    .update({ active_organization_id: organizationId, ...(teamId !== undefined && { active_team_id: teamId }), ...(organizationId === null && { active_team_id: null }) });

/** Clears an organization (or only one of its teams) from every session of a user where it is active: how many sessions changed. */
export function clearActiveOrganizationOf(db: Knex, userId: string, organizationId: string, teamId?: string): Promise<number> {
  const query = db<SessionRow>("sessions").where({ user_id: userId, active_organization_id: organizationId });
  return teamId ? query.where({ active_team_id: teamId }).update({ active_team_id: null }) : query.update({ active_organization_id: null, active_team_id: null });
}
