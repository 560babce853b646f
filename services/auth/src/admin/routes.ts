import type { Request } from "express";
import { z } from "zod";
import { defineEndpoint, HttpError, randomId, type Endpoint } from "@tollgate/kit";
import { userBanned, userCreated, userDeleted, userUpdated, type IdentityClaims } from "@tollgate/proto";
import type { Auth } from "../auth.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "../credentials/credentials.sql.js";
import { assertPasswordLength } from "../credentials/password-policy.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { requireSession, findCurrentSession, type CurrentSession } from "../sessions/current-session.js";
import { revokeSessions, startSession } from "../sessions/lifecycle.js";
import { sessionJson } from "../sessions/session-output.js";
import { deleteSessions, findSessionById, hashToken, listUserSessions } from "../sessions/sessions.sql.js";
import { userEventData, userJson } from "../users/user-output.js";
import { deleteUser, findUserByEmail, findUserById, insertUser, updateUser, type UserChanges, type UserRow } from "../users/users.sql.js";
import { columnOf, queryUsers } from "./admin.sql.js";
import { hasPermission, isAdminUser, knownRole, type Permissions } from "./permissions.js";

const IMPERSONATION_SECONDS = 3600;
const userId = z.coerce.string().min(1);
const role = z.union([z.string(), z.array(z.string())]);
const rolesText = (value: string | string[]) => (Array.isArray(value) ? value.join(",") : value);

export function adminEndpoints(auth: Auth): Endpoint[] {
  const { config, db, outbox, passwords } = auth;

  /** The signed-in caller, allowed `wanted`; else 401, or 403 with the plugin's code for the action. */
  async function requireAdmin(identity: IdentityClaims, req: Request, wanted: Permissions, refusal: AuthErrorCode): Promise<CurrentSession> {
    const current = await requireSession(auth, identity, req);
    if (!hasPermission(config, current.user, wanted)) throw authError(403, refusal);
    return current;
  }

  async function existingUser(id: string): Promise<UserRow> {
    const user = await findUserById(db, id);
    if (!user) throw authError(404, "USER_NOT_FOUND");
    return user;
  }

  function assertKnownRoles(value: string | string[]): void {
    for (const name of Array.isArray(value) ? value : [value]) if (!knownRole(name)) throw authError(400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }

  /** Applies changes to a user and announces them; a ban also ends every session, in the same transaction. */
  async function changeUser(id: string, changes: UserChanges): Promise<UserRow> {
    return db.transaction(async (trx) => {
      const user = await updateUser(trx, id, changes);
      if (!user) throw authError(404, "USER_NOT_FOUND");
      await outbox.emit(trx, userUpdated, userEventData(user));
      if (changes.banned === true) {
        await revokeSessions(auth, trx, { userId: id });
        await outbox.emit(trx, userBanned, { id, reason: user.ban_reason, expires_at: user.ban_expires?.toISOString() ?? null });
      }
      return user;
    });
  }

  return [
    defineEndpoint(
      "/admin/list-users",
      {
        method: "GET",
        query: z.object({
          searchValue: z.string().optional(),
          searchField: z.enum(["email", "name"]).optional(),
          searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
          limit: z.coerce.number().int().min(0).optional(),
          offset: z.coerce.number().int().min(0).optional(),
          sortBy: z.string().optional(),
          sortDirection: z.enum(["asc", "desc"]).optional(),
          filterField: z.string().optional(),
          filterValue: z.union([z.string(), z.array(z.string())]).optional(),
          filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "contains", "starts_with", "ends_with"]).optional(),
        }),
      },
      async ({ query, identity, req }) => {
        await requireAdmin(identity, req, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
        const filterColumn = columnOf(query.filterField ?? "email");
        const sortColumn = query.sortBy ? columnOf(query.sortBy) : undefined;
        if (!filterColumn || (query.sortBy && !sortColumn)) throw new HttpError(400, "BAD_REQUEST", "unknown field to filter or sort by");
        const { users, total } = await queryUsers(db, {
          search: query.searchValue ? { column: query.searchField ?? "email", operator: query.searchOperator ?? "contains", value: query.searchValue } : undefined,
          filter: query.filterValue !== undefined ? { column: filterColumn, operator: query.filterOperator ?? "eq", value: query.filterValue } : undefined,
          sort: sortColumn ? { column: sortColumn, direction: query.sortDirection ?? "asc" } : undefined,
          limit: query.limit || undefined,
          offset: query.offset || undefined,
        });
        return { users: users.map(userJson), total, limit: query.limit || undefined, offset: query.offset || undefined };
      },
    ),

    defineEndpoint("/admin/get-user", { method: "GET", query: z.object({ id: z.string() }) }, async ({ query, identity, req }) => {
      await requireAdmin(identity, req, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
      return userJson(await existingUser(query.id));
    }),

    defineEndpoint(
      "/admin/create-user",
      {
        method: "POST",
        body: z.object({ email: z.string(), password: z.string().optional(), name: z.string(), role: role.optional(), data: z.record(z.string(), z.unknown()).optional() }),
      },
      async ({ body, identity, req }) => {
        const admin = await requireAdmin(identity, req, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
        if (body.role !== undefined) {
          if (!hasPermission(config, admin.user, { user: ["set-role"] })) throw authError(403, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
          assertKnownRoles(body.role);
        }
        const email = body.email.toLowerCase();
        if (!z.email().safeParse(email).success) throw authError(400, "INVALID_EMAIL");
        if (body.password !== undefined) assertPasswordLength(config, body.password, "max");
        if (await findUserByEmail(db, email)) throw authError(400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
        const hash = body.password ? await passwords.hash(body.password) : null;
        const user = await db.transaction(async (trx) => {
          const created = await insertUser(trx, { id: randomId(32), name: body.name, email, role: body.role === undefined ? "user" : rolesText(body.role) });
          if (hash) await insertCredentialAccount(trx, created.id, hash);
          await outbox.emit(trx, userCreated, userEventData(created));
          return created;
        });
        return { user: userJson(user) };
      },
    ),

    defineEndpoint(
      "/admin/update-user",
      { method: "POST", body: z.object({ userId, data: z.record(z.string(), z.unknown()) }) },
      async ({ body, identity, req }) => {
        const admin = await requireAdmin(identity, req, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS");
        const data = body.data;
        const has = (key: string) => Object.prototype.hasOwnProperty.call(data, key);
        if (Object.keys(data).length === 0) throw authError(400, "NO_DATA_TO_UPDATE");
        if (has("password")) throw authError(400, "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
        if (has("id")) throw authError(400, "USER_ID_CANNOT_BE_UPDATED");
        const changes = z
          .object({
            name: z.string().optional(),
            image: z.string().nullable().optional(),
            role: role.optional(),
            email: z.email().optional(),
            emailVerified: z.boolean().optional(),
            banned: z.boolean().optional(),
            banReason: z.string().nullable().optional(),
          })
          .parse(data);
        if (changes.role !== undefined) {
          if (!hasPermission(config, admin.user, { user: ["set-role"] })) throw authError(403, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
          assertKnownRoles(changes.role);
        }
        if (has("banned") || has("banReason")) {
          if (!hasPermission(config, admin.user, { user: ["ban"] })) throw authError(403, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
          if (changes.banned === true && body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_BAN_YOURSELF");
        }
        if (has("email") || has("emailVerified")) {
          if (!hasPermission(config, admin.user, { user: ["set-email"] })) throw authError(403, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL");
          const holder = changes.email ? await findUserByEmail(db, changes.email.toLowerCase()) : undefined;
          if (holder && holder.id !== body.userId) throw authError(400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
        }
        await existingUser(body.userId);
        const user = await changeUser(body.userId, {
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.image !== undefined && { image: changes.image }),
          ...(changes.role !== undefined && { role: rolesText(changes.role) }),
          ...(changes.email !== undefined && { email: changes.email.toLowerCase() }),
          ...(changes.emailVerified !== undefined && { email_verified: changes.emailVerified }),
          ...(changes.banned !== undefined && { banned: changes.banned }),
          ...(changes.banReason !== undefined && { ban_reason: changes.banReason }),
        });
        return userJson(user);
      },
    ),

    defineEndpoint("/admin/set-role", { method: "POST", body: z.object({ userId, role }) }, async ({ body, identity, req }) => {
      await requireAdmin(identity, req, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
      assertKnownRoles(body.role);
      await existingUser(body.userId);
      return { user: userJson(await changeUser(body.userId, { role: rolesText(body.role) })) };
    }),

    defineEndpoint(
      "/admin/ban-user",
      { method: "POST", body: z.object({ userId, banReason: z.string().optional(), banExpiresIn: z.number().positive().optional() }) },
      async ({ body, identity, req }) => {
        const admin = await requireAdmin(identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
        await existingUser(body.userId);
        if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_BAN_YOURSELF");
        const user = await changeUser(body.userId, {
          banned: true,
          ban_reason: body.banReason || "No reason",
          ban_expires: body.banExpiresIn ? new Date(Date.now() + body.banExpiresIn * 1000) : null,
        });
        return { user: userJson(user) };
      },
    ),

    defineEndpoint("/admin/unban-user", { method: "POST", body: z.object({ userId }) }, async ({ body, identity, req }) => {
      await requireAdmin(identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
      await existingUser(body.userId);
      return { user: userJson(await changeUser(body.userId, { banned: false, ban_reason: null, ban_expires: null })) };
    }),

    defineEndpoint("/admin/impersonate-user", { method: "POST", body: z.object({ userId }) }, async ({ body, identity, req, res }) => {
      const admin = await requireAdmin(identity, req, { user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS");
      const target = await existingUser(body.userId);
      if (isAdminUser(config, target) && !hasPermission(config, admin.user, { user: ["impersonate-admins"] })) {
        throw authError(403, "YOU_CANNOT_IMPERSONATE_ADMINS");
      }
      const { session, token } = await startSession(auth, db, res, target, {
        req,
        persistent: false,
        impersonation: { by: admin.user.id, sessionId: admin.session.id, lifetimeSeconds: IMPERSONATION_SECONDS },
      });
      return { session: sessionJson(session, token), user: userJson(target) };
    }),

    defineEndpoint("/admin/stop-impersonating", { method: "POST" }, async ({ identity, req, res }) => {
      const current = await findCurrentSession(auth, identity, req);
      if (!current) throw authError(401, "UNAUTHORIZED");
      const { impersonated_by: adminId, impersonator_session_id: adminSessionId } = current.session;
      if (!adminId) throw new HttpError(400, "BAD_REQUEST", "You are not impersonating anyone");
      const admin = await findUserById(db, adminId);
      const adminSession = adminSessionId ? await findSessionById(db, adminSessionId) : undefined;
      if (!admin || !adminSession || adminSession.user_id !== admin.id || adminSession.expires_at <= new Date()) {
        throw new HttpError(500, "INTERNAL_SERVER_ERROR", "Failed to find admin session");
      }
      // Only digests of tokens are kept, so the admin's old cookie cannot be restored: the admin's
      // session is replaced by a new one, and the impersonation ends.
      const resumed = await db.transaction(async (trx) => {
        await deleteSessions(trx, { userId: current.user.id, ids: [current.session.id] });
        await revokeSessions(auth, trx, { userId: admin.id, ids: [adminSession.id] });
        return startSession(auth, trx, res, admin, { req, persistent: adminSession.persistent });
      });
      return { session: sessionJson(resumed.session, resumed.token), user: userJson(admin) };
    }),

    defineEndpoint("/admin/list-user-sessions", { method: "POST", body: z.object({ userId }) }, async ({ body, identity, req }) => {
      await requireAdmin(identity, req, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
      return { sessions: (await listUserSessions(db, body.userId)).map((session) => sessionJson(session, null)) };
    }),

    defineEndpoint("/admin/revoke-user-session", { method: "POST", body: z.object({ sessionToken: z.string() }) }, async ({ body, identity, req }) => {
      await requireAdmin(identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
      // The token as the user holds it, or the handle list-user-sessions shows.
      const digest = /^[0-9a-f]{64}$/.test(body.sessionToken) ? body.sessionToken : hashToken(body.sessionToken);
      const session = await db("sessions").where({ token_hash: digest }).first<{ id: string; user_id: string } | undefined>();
      if (session) await db.transaction((trx) => revokeSessions(auth, trx, { userId: session.user_id, ids: [session.id] }));
      return { success: true };
    }),

    defineEndpoint("/admin/revoke-user-sessions", { method: "POST", body: z.object({ userId }) }, async ({ body, identity, req }) => {
      await requireAdmin(identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
      await db.transaction((trx) => revokeSessions(auth, trx, { userId: body.userId }));
      return { success: true };
    }),

    defineEndpoint("/admin/remove-user", { method: "POST", body: z.object({ userId }) }, async ({ body, identity, req }) => {
      const admin = await requireAdmin(identity, req, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
      if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_REMOVE_YOURSELF");
      await existingUser(body.userId);
      await db.transaction(async (trx) => {
        await deleteUser(trx, body.userId);
        await outbox.emit(trx, userDeleted, { id: body.userId });
      });
      return { success: true };
    }),

    defineEndpoint(
      "/admin/set-user-password",
      { method: "POST", body: z.object({ newPassword: z.string().min(1, "newPassword cannot be empty"), userId }) },
      async ({ body, identity, req }) => {
        await requireAdmin(identity, req, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
        assertPasswordLength(config, body.newPassword);
        await existingUser(body.userId);
        const hash = await passwords.hash(body.newPassword);
        const account = await findCredentialAccount(db, body.userId);
        if (account) await setAccountPassword(db, account.id, hash);
        else await insertCredentialAccount(db, body.userId, hash);
        return { status: true };
      },
    ),

    defineEndpoint(
      "/admin/has-permission",
      {
        method: "POST",
        body: z.object({
          userId: z.coerce.string().optional(),
          role: z.string().optional(),
          permission: z.record(z.string(), z.array(z.string())).optional(),
          permissions: z.record(z.string(), z.array(z.string())).optional(),
        }),
      },
      async ({ body, identity, req }) => {
        const wanted = body.permissions ?? body.permission;
        if (!wanted) throw new HttpError(400, "BAD_REQUEST", "invalid permission check. no permission(s) were passed.");
        const { user } = await requireSession(auth, identity, req);
        return { error: null, success: hasPermission(config, user, wanted) };
      },
    ),
  ];
}
