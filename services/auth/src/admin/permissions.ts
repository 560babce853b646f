import type { AuthConfig } from "../auth.js";
import type { UserRow } from "../users/users.sql.js";

/** better-auth's default access-control statements: what can be done to what. */
export type Permissions = Partial<Record<"user" | "session", string[]>>;

const ADMIN_ROLE: Required<Permissions> = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "set-email", "set-phone", "get", "update"],
  session: ["list", "revoke", "delete"],
};

/** The roles the admin plugin knows by default; any other role grants nothing. */
const ROLES: Record<string, Required<Permissions>> = { admin: ADMIN_ROLE, user: { user: [], session: [] } };

const rolesOf = (role: string | null | undefined) => (role || "user").split(",").map((name) => name.trim());

/**
 * Whether a user may do all of `wanted`: a user id in ADMIN_USER_IDS may do anything, otherwise
 * one of their (comma-separated) roles must allow every action asked for.
 */
export function hasPermission(config: AuthConfig, user: Pick<UserRow, "id" | "role">, wanted: Permissions): boolean {
  if (config.ADMIN_USER_IDS.includes(user.id)) return true;
  return rolesOf(user.role).some((role) => {
    const granted = ROLES[role];
    return Boolean(granted) && Object.entries(wanted).every(([resource, actions]) => actions.every((action) => granted?.[resource as keyof Permissions].includes(action)));
  });
}

export const isAdminUser = (config: AuthConfig, user: Pick<UserRow, "id" | "role">) =>
  config.ADMIN_USER_IDS.includes(user.id) || rolesOf(user.role).includes("admin");

export const knownRole = (role: string) => role in ROLES;
