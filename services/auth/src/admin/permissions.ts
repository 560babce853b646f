import type { IdentityClaims } from "@tollgate/proto";
import type { Request } from "express";
import type { Parts } from "../parts.js";
import type { AuthConfig } from "../config.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { requireSession, type CurrentSession } from "../sessions/current-session.js";
import type { UserRow } from "../users/users.sql.js";

/** An access-control request as better-auth takes it: actions wanted, by resource (`{ user: ["ban"] }`). */
export type Permissions = Record<string, string[]>;

type Statements = Readonly<Record<string, readonly string[]>>;

/**
 * better-auth's default roles. `impersonate-admins` is a statement no role grants: only the users in
 * ADMIN_USER_IDS, who may do anything, can impersonate an admin.
 */
const ROLES: Readonly<Record<string, Statements>> = {
  admin: {
    user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "set-email", "set-phone", "get", "update"],
    session: ["list", "revoke", "delete"],
  },
  user: { user: [], session: [] },
};

/** A user's roles: comma-separated, split as better-auth splits them (no trimming); none means `user`. */
const rolesOf = (role: string) => (role || "user").split(",");

const statementsOf = (role: string): Statements | undefined => (Object.hasOwn(ROLES, role) ? ROLES[role] : undefined);

/**
 * better-auth's `authorize`: something must be asked, and every resource asked must be one the role
 * has statements for, with every action asked (at least one) among them.
 */
function allows(statements: Statements, wanted: Permissions): boolean {
  const asked = Object.entries(wanted);
  return (
    asked.length > 0 &&
    asked.every(([resource, actions]) => {
      const allowed = Object.hasOwn(statements, resource) ? statements[resource] : undefined;
      return allowed !== undefined && actions.length > 0 && actions.every((action) => allowed.includes(action));
    })
  );
}

/** What the rules below read of the settings; the admin command line has no more. */
export type AdminSettings = Pick<AuthConfig, "ADMIN_USER_IDS">;

/** Whether a user may do all of `wanted`: anything for a user id in ADMIN_USER_IDS, else what one of their roles allows. */
export function hasPermission(config: AdminSettings, user: Pick<UserRow, "id" | "role">, wanted: Permissions): boolean {
  if (config.ADMIN_USER_IDS.includes(user.id)) return true;
  return rolesOf(user.role).some((role) => {
    const statements = statementsOf(role);
    return statements !== undefined && allows(statements, wanted);
  });
}

/** An admin, as impersonation sees one: the `admin` role among theirs, or listed in ADMIN_USER_IDS. */
export const isAdminUser = (config: AdminSettings, user: Pick<UserRow, "id" | "role">) =>
  config.ADMIN_USER_IDS.includes(user.id) || rolesOf(user.role).includes("admin");

/**
 * Whether `actor` may act as `target`: impersonate them, or set how they sign in. Anyone may be acted
 * as but an admin, whom only those allowed to impersonate admins may act as; otherwise one admin could
 * take over another's account and rights.
 */
export const mayActAs = (config: AdminSettings, actor: Pick<UserRow, "id" | "role">, target: Pick<UserRow, "id" | "role">) =>
  !isAdminUser(config, target) || hasPermission(config, actor, { user: ["impersonate-admins"] });

export const knownRole = (role: string) => statementsOf(role) !== undefined;

/** The signed-in caller, if allowed `wanted`; else 401, or 403 with the admin plugin's code for the action. */
export async function requirePermission(
  auth: Parts,
  identity: IdentityClaims,
  req: Request,
  wanted: Permissions,
  refusal: AuthErrorCode,
): Promise<CurrentSession> {
  const current = await requireSession(auth, identity, req);
  if (!hasPermission(auth.config, current.user, wanted)) throw authError(403, refusal);
  return current;
}
