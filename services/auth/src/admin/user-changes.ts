import type { Knex } from "@tollgate/kit";
import { userBanned, userUpdated } from "@tollgate/proto";
import { authError, type AuthErrorCode } from "../http/errors.js";
import type { Parts } from "../parts.js";
import type { CurrentSession } from "../sessions/current-session.js";
import { revokeSessions } from "../sessions/issuance.js";
import { userEventData } from "../users/output.js";
import { findUserById, updateUser, type UserChanges, type UserRow } from "../users/users.sql.js";
import { endDisallowedImpersonations } from "./impersonation.js";
import { knownRole, mayActAs, type AdminSettings } from "./permissions.js";

/** The user an admin endpoint is about; 404 when there is none. */
export async function existingUser(db: Knex, id: string): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw authError(404, "USER_NOT_FOUND");
  return user;
}

/** A role or list of roles as stored: comma-separated, each one a role that exists. */
export function rolesToStore(value: unknown): string {
  const names: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
  for (const name of names) {
    if (typeof name !== "string") throw authError(400, "INVALID_ROLE_TYPE");
    if (!knownRole(name)) throw authError(400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }
  return names.join(",");
}

/**
 * A password or an address (where password resets go) is a way into an account: an admin may set
 * another admin's only if they may act as them, or one admin could take over another.
 */
export function assertMayChangeWayIn(config: AdminSettings, current: CurrentSession, target: UserRow, refusal: AuthErrorCode): void {
  if (target.id !== current.user.id && !mayActAs(config, current.user, target)) throw authError(403, refusal);
}

/**
 * Changes a user and announces it, in one transaction: a ban also ends every session of theirs, and
 * a new role or a ban ends the impersonations it no longer allows.
 */
export async function changeUser({ config, units }: Pick<Parts, "config" | "units">, id: string, changes: UserChanges): Promise<UserRow> {
  return units.run(async (unit) => {
    const user = await updateUser(unit.db, id, changes);
    if (!user) throw authError(404, "USER_NOT_FOUND");
    unit.announce(userUpdated, userEventData(user));
    if (changes.banned === true) {
      await revokeSessions(unit, { userId: id });
      unit.announce(userBanned, { id, reason: user.ban_reason, expires_at: user.ban_expires?.toISOString() ?? null });
    }
    if (changes.role !== undefined || changes.banned === true) await endDisallowedImpersonations(config, unit, id);
    return user;
  });
}
