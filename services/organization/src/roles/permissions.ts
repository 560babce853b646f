/** better-auth's organization access control: what each default role may do. */
type Statements = Partial<Record<"organization" | "member" | "invitation" | "team", string[]>>;

const MANAGE = { member: ["create", "update", "delete"], invitation: ["create", "cancel"], team: ["create", "update", "delete"] };

const ROLES: Record<string, Required<Statements>> = {
  owner: { organization: ["update", "delete"], ...MANAGE },
  admin: { organization: ["update"], ...MANAGE },
  member: { organization: [], member: [], invitation: [], team: [] },
};

export const CREATOR_ROLE = "owner";

/** A stored role value (comma-separated) or one given as a list, as trimmed role names. */
export const roleList = (roles: string | string[]) =>
  (Array.isArray(roles) ? roles : [roles])
    .flatMap((role) => role.split(","))
    .map((role) => role.trim())
    .filter(Boolean);

export const roleText = (roles: string | string[]) => roleList(roles).join(",");

export const unknownRoles = (roles: string | string[]) => roleList(roles).filter((role) => !(role in ROLES));

export const isOwner = (role: string) => roleList(role).includes(CREATOR_ROLE);

/** Whether any of a member's roles allows every action asked for. */
export function hasPermission(role: string, wanted: Statements): boolean {
  return roleList(role).some((name) => {
    const granted = ROLES[name];
    return Boolean(granted) && Object.entries(wanted).every(([resource, actions]) => actions.every((action) => granted?.[resource as keyof Statements].includes(action)));
  });
}
