import type { Response } from "express";
import { userUpdated } from "@tollgate/proto";
import type { UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import type { CurrentSession } from "../sessions/current-session.js";
import { sessionCacheOf } from "../sessions/output.js";
import { userEventData } from "../users/output.js";
import { updateUser, type UserRow } from "../users/users.sql.js";

/**
 * Turns the user's two-factor flag on or off in the caller's unit of work, announced so the gateway drops
 * the user's cached sessions (they show the flag); returns the user as changed.
 */
export async function setTwoFactorEnabled(unit: UnitOfWork, user: UserRow, enabled: boolean): Promise<UserRow> {
  const updated = (await updateUser(unit.db, user.id, { two_factor_enabled: enabled })) ?? user;
  unit.announce(userUpdated, userEventData(updated));
  return updated;
}

/** The caller's cookie cache must not go on showing the old flag for its remaining seconds. */
export function refreshCookieCache(auth: Pick<Parts, "cookies">, res: Response, current: CurrentSession, user: UserRow): void {
  if (current.token) auth.cookies.issueCache(res, sessionCacheOf(current.session, current.token, user));
}
