import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../../parts.js";
import { requireSession } from "../../sessions/current-session.js";
import { userJson } from "../../users/output.js";
import { hasPermission, requirePermission } from "../permissions.js";
import { PermissionCheck, PermissionQuestion, RoleChange, UserEnvelope } from "../schemas.js";
import { assertMayChangeWayIn, changeUser, existingUser, rolesToStore } from "../user-changes.js";

/** Admin endpoints that set a user's roles and tell what roles grant. */
export function adminRoleEndpoints(auth: Parts): Endpoint[] {
  const { config, db } = auth;
  return [
    defineEndpoint(
      "/admin/set-role",
      { method: "POST", body: RoleChange, response: UserEnvelope, summary: "Set a user's role or roles", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
        const role = rolesToStore(body.role);
        const target = await existingUser(db, body.userId);
        // Demoted first, another admin's password and address would be anyone's to set.
        if (role !== target.role) assertMayChangeWayIn(config, admin, target, "YOU_CANNOT_CHANGE_ADMINS_ROLE");
        return { user: userJson(await changeUser(auth, body.userId, { role })) };
      },
    ),

    defineEndpoint(
      "/admin/has-permission",
      { method: "POST", body: PermissionQuestion, response: PermissionCheck, summary: "Check whether the signed-in user's roles grant the given permissions", tag: "Admin" },
      async ({ body, identity, req }) => {
        // better-auth's schema takes either key, but the check reads only `permissions`.
        if (!("permissions" in body)) throw new HttpError(400, "BAD_REQUEST", "invalid permission check. no permission(s) were passed.");
        // Over HTTP the caller's own session decides; `userId` and `role` count only for server calls.
        const { user } = await requireSession(auth, identity, req);
        return { error: null, success: hasPermission(config, user, body.permissions) };
      },
    ),
  ];
}
