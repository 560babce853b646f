import { z } from "zod";
import { defineEndpoint, HttpError, isoTimestamp, randomId, type Endpoint } from "@tollgate/kit";
import { userBanned, userCreated, userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "../credentials/credentials.sql.js";
import { assertPasswordLength } from "../credentials/password-policy.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { LocaleTag } from "../i18n/locales.js";
import { StatusAnswer, SuccessAnswer } from "../http/schemas.js";
import { requireSession, type CurrentSession } from "../sessions/current-session.js";
import { revokeSessions } from "../sessions/service.js";
import { sessionJson } from "../sessions/output.js";
import { findSessionByTokenHash, hashToken, listUserSessions } from "../sessions/sessions.sql.js";
import { User } from "../users/schemas.js";
import { userEventData, userJson } from "../users/output.js";
import { assertUsernameAvailable, normalizeUsername } from "../users/username.js";
import { removeUser } from "../users/delete-user.js";
import { findUserByEmail, findUserById, insertUser, updateUser, type UserChanges, type UserRow } from "../users/users.sql.js";
import { queryUsers } from "./admin.sql.js";
import { endDisallowedImpersonations, impersonationEndpoints } from "./impersonation.js";
import { hasPermission, knownRole, mayActAs, requirePermission } from "./permissions.js";
import { PermissionCheck, UserEnvelope, UserPage, UserSessions } from "./schemas.js";
import { FILTER_OPERATORS, SEARCH_OPERATORS, userQueryOf } from "./user-query.js";

const userId = z.coerce.string();
/** A ban meant to outlast a century is a ban without an end: 0 (or nothing) says so, and no date overflows. */
const LONGEST_BAN_SECONDS = 100 * 366 * 86_400;
const roles = z.union([z.string(), z.array(z.string())]);

/**
 * The user fields create-user and update-user take in `data`. Fields better-auth's user has no column
 * for are ignored, as its adapter drops them; `password` and `id` are kept only to be refused.
 *
 * better-auth also checks the caller's set-role, ban and set-email permissions for the fields that
 * need them. With its default roles whoever may create or update users has those as well, so these
 * finer checks, which matter only with custom roles, are left out.
 */
const userData = z
  .object({
    name: z.string(),
    email: z.unknown(),
    emailVerified: z.boolean(),
    image: z.string().nullable(),
    username: z.string(),
    displayUsername: z.string().nullable(),
    role: z.unknown(),
    banned: z.boolean(),
    banReason: z.string().nullable(),
    // A moment as a Date goes out in JSON: any text `new Date` reads would be more than the description could say.
    banExpires: isoTimestamp()
      .transform((value) => new Date(value))
      .nullable(),
    locale: LocaleTag.nullable(),
  })
  .partial()
  .catchall(z.unknown());

type UserData = z.output<typeof userData>;

/** The columns `data` sets as given (a username lower-cased); role and e-mail are checked and set on their own. */
function columnsOf(data: UserData): UserChanges {
  return {
    ...(data.name !== undefined && { name: data.name }),
    ...(data.emailVerified !== undefined && { email_verified: data.emailVerified }),
    ...(data.image !== undefined && { image: data.image }),
    ...(data.username !== undefined && { username: normalizeUsername(data.username) }),
    ...(data.displayUsername !== undefined && { display_username: data.displayUsername }),
    ...(data.banned !== undefined && { banned: data.banned }),
    ...(data.banReason !== undefined && { ban_reason: data.banReason }),
    ...(data.banExpires !== undefined && { ban_expires: data.banExpires }),
    ...(data.locale !== undefined && { locale: data.locale }),
  };
}

/** A role or list of roles as stored: comma-separated, each one a role that exists. */
function rolesToStore(value: unknown): string {
  const names: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
  for (const name of names) {
    if (typeof name !== "string") throw authError(400, "INVALID_ROLE_TYPE");
    if (!knownRole(name)) throw authError(400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }
  return names.join(",");
}

/** An address as stored (lower-cased), if it is one. */
function validEmail(value: unknown): string {
  const email = String(value).toLowerCase();
  if (!z.email().safeParse(email).success) throw authError(400, "INVALID_EMAIL");
  return email;
}

export function adminEndpoints(auth: Parts): Endpoint[] {
  const { config, db, units, passwords } = auth;

  async function existingUser(id: string): Promise<UserRow> {
    const user = await findUserById(db, id);
    if (!user) throw authError(404, "USER_NOT_FOUND");
    return user;
  }

  async function assertEmailFree(email: string, owner?: string): Promise<void> {
    const holder = await findUserByEmail(db, email);
    if (holder && holder.id !== owner) throw authError(400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
  }

  /**
   * Changes a user and announces it, in one transaction: a ban also ends every session of theirs, and
   * a new role or a ban ends the impersonations it no longer allows.
   */
  async function changeUser(id: string, changes: UserChanges): Promise<UserRow> {
    return units.run(async (unit) => {
      const user = await updateUser(unit.db, id, changes);
      if (!user) throw authError(404, "USER_NOT_FOUND");
      unit.announce(userUpdated, userEventData(user));
      if (changes.banned === true) {
        await revokeSessions(unit, { userId: id });
        unit.announce(userBanned, { id, reason: user.ban_reason, expires_at: user.ban_expires?.toISOString() ?? null });
      }
      if (changes.role !== undefined || changes.banned === true) await endDisallowedImpersonations(config, unit, id);
      return user;
    });
  }

  /**
   * A password or an address (where password resets go) is a way into an account: an admin may set
   * another admin's only if they may act as them, or one admin could take over another.
   */
  function assertMayChangeWayIn(current: CurrentSession, target: UserRow, refusal: AuthErrorCode): void {
    if (target.id !== current.user.id && !mayActAs(config, current.user, target)) throw authError(403, refusal);
  }

  return [
    defineEndpoint(
      "/admin/list-users",
      {
        method: "GET",
        query: z.object({
          searchValue: z.string().optional(),
          searchField: z.enum(["email", "name"]).optional(),
          searchOperator: z.enum(SEARCH_OPERATORS).optional(),
          limit: z.string().optional(),
          offset: z.string().optional(),
          sortBy: z.string().optional(),
          sortDirection: z.enum(["asc", "desc"]).optional(),
          filterField: z.string().optional(),
          filterValue: z.union([z.string(), z.array(z.string())]).optional(),
          filterOperator: z.enum(FILTER_OPERATORS).optional(),
        }),
        response: UserPage,
        summary: "List users, searched, filtered, sorted and paged",
        tag: "Admin",
      },
      async ({ query, identity, req }) => {
        await requirePermission(auth, identity, req, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
        const userQuery = userQueryOf(query);
        // better-auth answers a query its database refuses with an empty list, not an error.
        if (!userQuery) return { users: [], total: 0 };
        const { users, total } = await queryUsers(db, userQuery);
        return { users: users.map(userJson), total, limit: userQuery.limit, offset: userQuery.offset };
      },
    ),

    defineEndpoint("/admin/get-user", { method: "GET", query: z.object({ id: z.string() }), response: User, summary: "Get a user", tag: "Admin" }, async ({ query, identity, req }) => {
      await requirePermission(auth, identity, req, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
      return userJson(await existingUser(query.id));
    }),

    defineEndpoint(
      "/admin/create-user",
      {
        method: "POST",
        body: z.object({ email: z.string(), password: z.string().optional(), name: z.string(), role: roles.optional(), data: userData.optional() }),
        response: UserEnvelope,
        summary: "Create a user, with a password or none",
        tag: "Admin",
      },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
        const data = body.data ?? {};
        const requestedRole = body.role ?? data.role;
        const role = requestedRole === undefined ? "user" : rolesToStore(requestedRole);
        const email = validEmail(body.email);
        if (body.password) assertPasswordLength(config, body.password, "max");
        await assertEmailFree(email);
        if (data.username !== undefined) await assertUsernameAvailable(db, data.username);
        const hash = body.password ? await passwords.hash(body.password) : null;
        const user = await units.run(async (unit) => {
          const created = await insertUser(unit.db, { id: randomId(32), ...columnsOf(data), name: body.name, email, role });
          if (hash) await insertCredentialAccount(unit.db, created.id, hash);
          unit.announce(userCreated, userEventData(created));
          return created;
        });
        return { user: userJson(user) };
      },
    ),

    defineEndpoint(
      "/admin/update-user",
      { method: "POST", body: z.object({ userId, data: userData }), response: User, summary: "Change a user's details, role or ban", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS");
        const { data } = body;
        const has = (key: string) => Object.hasOwn(data, key);
        if (Object.keys(data).length === 0) throw authError(400, "NO_DATA_TO_UPDATE");
        if (has("password")) throw authError(400, "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
        if (has("id")) throw authError(400, "USER_ID_CANNOT_BE_UPDATED");
        const changes = columnsOf(data);
        if (has("role")) changes.role = rolesToStore(data.role);
        if (data.banned === true && body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_BAN_YOURSELF");
        if (has("email")) {
          changes.email = validEmail(data.email);
          await assertEmailFree(changes.email, body.userId);
        }
        if (data.username !== undefined) await assertUsernameAvailable(db, data.username, body.userId);
        const target = await existingUser(body.userId);
        if (changes.email !== undefined && changes.email !== target.email) assertMayChangeWayIn(admin, target, "YOU_CANNOT_SET_ADMINS_EMAIL");
        if (changes.role !== undefined && changes.role !== target.role) assertMayChangeWayIn(admin, target, "YOU_CANNOT_CHANGE_ADMINS_ROLE");
        return userJson(await changeUser(body.userId, changes));
      },
    ),

    defineEndpoint(
      "/admin/set-role",
      { method: "POST", body: z.object({ userId, role: roles }), response: UserEnvelope, summary: "Set a user's role or roles", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
        const role = rolesToStore(body.role);
        const target = await existingUser(body.userId);
        // Demoted first, another admin's password and address would be anyone's to set.
        if (role !== target.role) assertMayChangeWayIn(admin, target, "YOU_CANNOT_CHANGE_ADMINS_ROLE");
        return { user: userJson(await changeUser(body.userId, { role })) };
      },
    ),

    defineEndpoint(
      "/admin/ban-user",
      {
        method: "POST",
        body: z.object({ userId, banReason: z.string().optional(), banExpiresIn: z.number().min(0).max(LONGEST_BAN_SECONDS).optional() }),
        response: UserEnvelope,
        summary: "Ban a user, for good or for a while, ending their sessions",
        tag: "Admin",
      },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
        await existingUser(body.userId);
        if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_BAN_YOURSELF");
        const user = await changeUser(body.userId, {
          banned: true,
          ban_reason: body.banReason || "No reason",
          // better-auth reads 0 as no expiry.
          ban_expires: body.banExpiresIn ? new Date(Date.now() + body.banExpiresIn * 1000) : null,
        });
        return { user: userJson(user) };
      },
    ),

    defineEndpoint("/admin/unban-user", { method: "POST", body: z.object({ userId }), response: UserEnvelope, summary: "Lift a user's ban", tag: "Admin" }, async ({ body, identity, req }) => {
      await requirePermission(auth, identity, req, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
      await existingUser(body.userId);
      return { user: userJson(await changeUser(body.userId, { banned: false, ban_reason: null, ban_expires: null })) };
    }),

    ...impersonationEndpoints(auth),

    defineEndpoint(
      "/admin/list-user-sessions",
      { method: "POST", body: z.object({ userId }), response: UserSessions, summary: "List a user's sessions", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
        return { sessions: (await listUserSessions(db, body.userId)).map((session) => sessionJson(session, null)) };
      },
    ),

    defineEndpoint(
      "/admin/revoke-user-session",
      { method: "POST", body: z.object({ sessionToken: z.string() }), response: SuccessAnswer, summary: "End one session of a user", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
        // The token as the user holds it, or the digest list-user-sessions shows in its place.
        const digest = /^[0-9a-f]{64}$/.test(body.sessionToken) ? body.sessionToken : hashToken(body.sessionToken);
        const session = await findSessionByTokenHash(db, digest);
        if (session) await units.run((unit) => revokeSessions(unit, { userId: session.user_id, ids: [session.id] }));
        return { success: true };
      },
    ),

    defineEndpoint(
      "/admin/revoke-user-sessions",
      { method: "POST", body: z.object({ userId }), response: SuccessAnswer, summary: "End every session of a user", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
        await units.run((unit) => revokeSessions(unit, { userId: body.userId }));
        return { success: true };
      },
    ),

    defineEndpoint(
      "/admin/remove-user",
      { method: "POST", body: z.object({ userId }), response: SuccessAnswer, summary: "Delete a user with their sessions and accounts", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
        if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_REMOVE_YOURSELF");
        await existingUser(body.userId);
        // The gateway drops the user's cached sessions on user.deleted.
        await units.run((unit) => removeUser(config, unit, body.userId));
        return { success: true };
      },
    ),

    defineEndpoint(
      "/admin/set-user-password",
      {
        method: "POST",
        body: z.object({ newPassword: z.string().min(1, "newPassword cannot be empty"), userId: userId.min(1, "userId cannot be empty") }),
        response: StatusAnswer,
        summary: "Set a user's password",
        tag: "Admin",
      },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
        assertPasswordLength(config, body.newPassword);
        assertMayChangeWayIn(admin, await existingUser(body.userId), "YOU_CANNOT_SET_ADMINS_PASSWORD");
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
        body: z
          .object({ userId: z.coerce.string().optional(), role: z.string().optional() })
          .and(z.xor([z.object({ permission: z.record(z.string(), z.array(z.string())) }), z.object({ permissions: z.record(z.string(), z.array(z.string())) })])),
        response: PermissionCheck,
        summary: "Check whether the signed-in user's roles grant the given permissions",
        tag: "Admin",
      },
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
