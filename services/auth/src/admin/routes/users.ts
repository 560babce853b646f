import { z } from "zod";
import { defineEndpoint, randomId, type Endpoint, type Knex } from "@tollgate/kit";
import { userCreated } from "@tollgate/proto";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "../../credentials/credentials.sql.js";
import { assertPasswordLength } from "../../credentials/password-policy.js";
import { authError } from "../../http/errors.js";
import { StatusAnswer, SuccessAnswer } from "../../http/schemas.js";
import type { Parts } from "../../parts.js";
import { removeUser } from "../../users/delete-user.js";
import { userEventData, userJson } from "../../users/output.js";
import { User } from "../../users/schemas.js";
import { assertUsernameAvailable, normalizeUsername } from "../../users/username.js";
import { findUserByEmail, insertUser, type UserChanges } from "../../users/users.sql.js";
import { queryUsers } from "../admin.sql.js";
import { requirePermission } from "../permissions.js";
import { PasswordChange, UserCreate, type UserData, UserEnvelope, UserIdBody, UserIdQuery, UserListQuery, UserPage, UserUpdate } from "../schemas.js";
import { assertMayChangeWayIn, changeUser, existingUser, rolesToStore } from "../user-changes.js";
import { userQueryOf } from "../user-query.js";

/** The columns `data` sets as given (a username lower-cased); role and e-mail are checked and set on their own. */
function columnsOf(data: z.output<typeof UserData>): UserChanges {
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

/** An address as stored (lower-cased), if it is one. */
function validEmail(value: unknown): string {
  const email = String(value).toLowerCase();
  if (!z.email().safeParse(email).success) throw authError(400, "INVALID_EMAIL");
  return email;
}

async function assertEmailFree(db: Knex, email: string, owner?: string): Promise<void> {
  const holder = await findUserByEmail(db, email);
  if (holder && holder.id !== owner) throw authError(400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
}

/** Admin endpoints that list, create, change and remove users and set their passwords. */
export function adminUserEndpoints(auth: Parts): Endpoint[] {
  const { config, db, units, passwords } = auth;
  return [
    defineEndpoint(
      "/admin/list-users",
      { method: "GET", query: UserListQuery, response: UserPage, summary: "List users, searched, filtered, sorted and paged", tag: "Admin" },
      async ({ query, identity, req }) => {
        await requirePermission(auth, identity, req, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
        const userQuery = userQueryOf(query);
        // better-auth answers a query its database refuses with an empty list, not an error.
        if (!userQuery) return { users: [], total: 0 };
        const { users, total } = await queryUsers(db, userQuery);
        return { users: users.map(userJson), total, limit: userQuery.limit, offset: userQuery.offset };
      },
    ),

    defineEndpoint("/admin/get-user", { method: "GET", query: UserIdQuery, response: User, summary: "Get a user", tag: "Admin" }, async ({ query, identity, req }) => {
      await requirePermission(auth, identity, req, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
      return userJson(await existingUser(db, query.id));
    }),

    defineEndpoint(
      "/admin/create-user",
      { method: "POST", body: UserCreate, response: UserEnvelope, summary: "Create a user, with a password or none", tag: "Admin" },
      async ({ body, identity, req }) => {
        await requirePermission(auth, identity, req, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
        const data = body.data ?? {};
        const requestedRole = body.role ?? data.role;
        const role = requestedRole === undefined ? "user" : rolesToStore(requestedRole);
        const email = validEmail(body.email);
        if (body.password) assertPasswordLength(config, body.password, "max");
        await assertEmailFree(db, email);
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
      { method: "POST", body: UserUpdate, response: User, summary: "Change a user's details, role or ban", tag: "Admin" },
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
          await assertEmailFree(db, changes.email, body.userId);
        }
        if (data.username !== undefined) await assertUsernameAvailable(db, data.username, body.userId);
        const target = await existingUser(db, body.userId);
        if (changes.email !== undefined && changes.email !== target.email) assertMayChangeWayIn(config, admin, target, "YOU_CANNOT_SET_ADMINS_EMAIL");
        if (changes.role !== undefined && changes.role !== target.role) assertMayChangeWayIn(config, admin, target, "YOU_CANNOT_CHANGE_ADMINS_ROLE");
        return userJson(await changeUser(auth, body.userId, changes));
      },
    ),

    defineEndpoint(
      "/admin/remove-user",
      { method: "POST", body: UserIdBody, response: SuccessAnswer, summary: "Delete a user with their sessions and accounts", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
        if (body.userId === admin.user.id) throw authError(400, "YOU_CANNOT_REMOVE_YOURSELF");
        await existingUser(db, body.userId);
        // The gateway drops the user's cached sessions on user.deleted.
        await units.run((unit) => removeUser(config, unit, body.userId));
        return { success: true };
      },
    ),

    defineEndpoint(
      "/admin/set-user-password",
      { method: "POST", body: PasswordChange, response: StatusAnswer, summary: "Set a user's password", tag: "Admin" },
      async ({ body, identity, req }) => {
        const admin = await requirePermission(auth, identity, req, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
        assertPasswordLength(config, body.newPassword);
        assertMayChangeWayIn(config, admin, await existingUser(db, body.userId), "YOU_CANNOT_SET_ADMINS_PASSWORD");
        const hash = await passwords.hash(body.newPassword);
        const account = await findCredentialAccount(db, body.userId);
        if (account) await setAccountPassword(db, account.id, hash);
        else await insertCredentialAccount(db, body.userId, hash);
        return { status: true };
      },
    ),
  ];
}
