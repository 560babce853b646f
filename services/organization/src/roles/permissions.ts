/** better-auth's organization access control: what each default role may do. */
type Statements = Partial<Record<"organization" | "member" | "invitation" | "team" | "apiKey", string[]>>;

/**
 * `apiKey` is the api-key plugin's statement for organization-owned keys. better-auth lets only the
 * creator role (owner) have it by default; Tollgate's admins manage an organization's keys too, as
 * they manage its members.
 */
const MANAGE = {
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  apiKey: ["create", "read", "update", "delete"],
};

const DEFAULT_ROLES: Record<"owner" | "admin" | "member", Statements> = {
  owner: { organization: ["update", "delete"], ...MANAGE },
  admin: { organization: ["update"], ...MANAGE },
  member: {},
};

/**
 * Roles and their statements as maps, looked up only by these names: a plain object would also answer
 * to "constructor", "__proto__" or "toString", accept them as roles, and fail every check after.
 */
const ROLES: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = new Map(
  Object.entries(DEFAULT_ROLES).map(([role, statements]) => [role, new Map(Object.entries(statements))]),
);

export const CREATOR_ROLE = "owner";

/** A stored role value (comma-separated) or one given as a list, as trimmed role names. */
export const roleList = (roles: string | string[]) =>
  (Array.isArray(roles) ? roles : [roles])
    .flatMap((role) => role.split(","))
    .map((role) => role.trim())
    .filter(Boolean);

export const roleText = (roles: string | string[]) => roleList(roles).join(",");

export const unknownRoles = (roles: string | string[]) => roleList(roles).filter((role) => !ROLES.has(role));

export const isOwner = (role: string) => roleList(role).includes(CREATOR_ROLE);

/** Whether any of a member's roles allows every action asked for; a resource no role knows allows nothing. */
export function hasPermission(role: string, wanted: Partial<Record<string, string[]>>): boolean {
  return roleList(role).some((name) => {
    const granted = ROLES.get(name);
    return granted !== undefined && Object.entries(wanted).every(([resource, actions = []]) => actions.every((action) => granted.get(resource)?.includes(action) === true));
  });
}
