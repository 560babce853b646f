import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";

export const roleMessages = defineMessages({
  user: { id: "admin.role.user", defaultMessage: "user" },
  admin: { id: "admin.role.admin", defaultMessage: "admin" },
});

const isKnownRole = (role: string): role is keyof typeof roleMessages => Object.hasOwn(roleMessages, role);

/** A user's platform roles in words: better-auth keeps them as "admin,user" (none is "user"); a role the app does not know shows as it is. */
export const roleNames = (roles: string | null | undefined): string =>
  (roles || "user")
    .split(",")
    .map((role) => (isKnownRole(role) ? t(roleMessages[role]) : role))
    .join(", ");
