import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { authError } from "../../http/errors.js";
import type { Parts } from "../../parts.js";
import { userJson } from "../../users/output.js";
import { requirePermission } from "../permissions.js";
import { BanRequest, UserEnvelope, UserIdBody } from "../schemas.js";
import { changeUser, existingUser } from "../user-changes.js";

/** Admin endpoints that ban a user and lift the ban. */
export function adminBanEndpoints(auth: Parts): Endpoint[] {
  const { db } = auth;
  return [
    defineEndpoint(
      "/admin/ban-user",
      { method: "POST", body: BanRequest, response: UserEnvelope, summary: "Ban a user, for good or for a while, ending their sessions", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
        await existingUser(db, body.userId);
        if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_BAN_YOURSELF");
        const user = await changeUser(auth, body.userId, {
          banned: true,
          ban_reason: body.banReason || "No reason",
          // better-auth reads 0 as no expiry.
          ban_expires: body.banExpiresIn ? new Date(Date.now() + body.banExpiresIn * 1000) : null,
        });
        return { user: userJson(user) };
      },
    ),

    defineEndpoint("/admin/unban-user", { method: "POST", body: UserIdBody, response: UserEnvelope, summary: "Lift a user's ban", tag: "Admin" }, async ({ body, identity, req }) => {
      await requirePermission(auth, identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
      await existingUser(db, body.userId);
      return { user: userJson(await changeUser(auth, body.userId, { banned: false, ban_reason: null, ban_expires: null })) };
    }),
  ];
}
