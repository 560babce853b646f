import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";

/** What someone may do in an organization, by their role there (better-auth's default roles). */
export type OrganizationAction = "update" | "delete" | "invite" | "cancel-invitation" | "change-role" | "remove-member" | "manage-teams" | "sell" | "require-two-factor";

/** A map, not an object: a role stored as "constructor" or "toString" must allow nothing rather than break the page. */
const ALLOWED: ReadonlyMap<string, readonly OrganizationAction[]> = new Map([
  ["owner", ["update", "delete", "invite", "cancel-invitation", "change-role", "remove-member", "manage-teams", "sell", "require-two-factor"]],
  ["admin", ["update", "invite", "cancel-invitation", "change-role", "remove-member", "manage-teams", "sell"]],
  ["member", []],
]);

const WHO_MAY = defineMessages({
  update: { id: "organizations.permission.update", defaultMessage: "Only owners and admins can change the organization's settings." },
  delete: { id: "organizations.permission.delete", defaultMessage: "Only owners can delete the organization." },
  invite: { id: "organizations.permission.invite", defaultMessage: "Only owners and admins can invite people." },
  "cancel-invitation": { id: "organizations.permission.cancelInvitation", defaultMessage: "Only owners and admins can cancel invitations." },
  "change-role": { id: "organizations.permission.changeRole", defaultMessage: "Only owners and admins can change roles." },
  "remove-member": { id: "organizations.permission.removeMember", defaultMessage: "Only owners and admins can remove members." },
  "manage-teams": { id: "organizations.permission.manageTeams", defaultMessage: "Only owners and admins can manage teams." },
  sell: { id: "organizations.permission.sell", defaultMessage: "Only owners and admins can change what the organization sells." },
  "require-two-factor": { id: "organizations.permission.requireTwoFactor", defaultMessage: "Only owners can require two-factor authentication of the members." },
  owner: { id: "organizations.permission.owner", defaultMessage: "Only owners can change or remove an owner." },
});

const rolesOf = (role: string) => role.split(",").map((name) => name.trim());

/** Whether `role` (one or several, comma-separated) allows the action, and if not, why not. */
export function permission(role: string | undefined, action: OrganizationAction): { allowed: true } | { allowed: false; reason: string } {
  const allowed = role !== undefined && rolesOf(role).some((name) => ALLOWED.get(name)?.includes(action) === true);
  return allowed ? { allowed } : { allowed: false, reason: t(WHO_MAY[action]) };
}

/** Admins may not act on owners; only an owner may make someone an owner. */
export function mayManageMember(actorRole: string | undefined, memberRole: string): { allowed: true } | { allowed: false; reason: string } {
  const base = permission(actorRole, "change-role");
  if (!base.allowed) return base;
  if (rolesOf(memberRole).includes("owner") && !rolesOf(actorRole ?? "").includes("owner")) return { allowed: false, reason: t(WHO_MAY.owner) };
  return base;
}
