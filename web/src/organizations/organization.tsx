import type { ReactNode } from "react";
import { defineMessages, useIntl } from "react-intl";
import { permission, type OrganizationAction } from "./permissions";

/** What the organization's cards share: gated controls and its roles' names (its query and actions are in queries.ts). */

/** A control someone's role does not allow: disabled, with the reason beside it. */
export function Gated({ role, action, children }: { role: string | undefined; action: OrganizationAction; children: (disabled: boolean) => ReactNode }) {
  const check = permission(role, action);
  return (
    <>
      {children(!check.allowed)}
      {!check.allowed && <p className="hint">{check.reason}</p>}
    </>
  );
}

/** better-auth's role names, shown translated; a role the app does not know is shown as stored. */
export const ROLE_NAMES = defineMessages({
  member: { id: "organizations.role.member", defaultMessage: "member" },
  admin: { id: "organizations.role.admin", defaultMessage: "admin" },
  owner: { id: "organizations.role.owner", defaultMessage: "owner" },
});

const isKnownRole = (role: string): role is keyof typeof ROLE_NAMES => Object.hasOwn(ROLE_NAMES, role);

/** A role in the reader's language; one the app does not know, as stored. */
export function useRoleName() {
  const { formatMessage } = useIntl();
  return (role: string) => (isKnownRole(role) ? formatMessage(ROLE_NAMES[role]) : role);
}

export const organizationMessages = defineMessages({
  email: { id: "organizations.field.email", defaultMessage: "E-mail" },
  role: { id: "organizations.field.role", defaultMessage: "Role" },
  cancel: { id: "organizations.cancel", defaultMessage: "Cancel" },
  remove: { id: "organizations.remove", defaultMessage: "Remove" },
});
