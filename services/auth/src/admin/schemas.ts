import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { LocaleTag } from "../i18n/locales.js";
import { Session } from "../sessions/schemas.js";
import { User } from "../users/schemas.js";
import { FILTER_OPERATORS, SEARCH_OPERATORS } from "./user-query.js";

/** One page of users; `limit` and `offset` only when the query gave them. */
export const UserPage = z.strictObject({ users: z.array(User), total: z.int(), limit: z.int().optional(), offset: z.int().optional() });

/** A user created or changed, as most admin endpoints answer. */
export const UserEnvelope = z.strictObject({ user: User });

export const UserSessions = z.strictObject({ sessions: z.array(Session) });

/** Whether the caller's own roles grant the permissions asked about. */
export const PermissionCheck = z.strictObject({ error: z.null(), success: z.boolean() });

const userId = z.coerce.string();
const roles = z.union([z.string(), z.array(z.string())]);

/** A ban meant to outlast a century is a ban without an end: 0 (or nothing) says so, and no date overflows. */
const LONGEST_BAN_SECONDS = 100 * 366 * 86_400;

/**
 * The user fields create-user and update-user take in `data`. Fields better-auth's user has no column
 * for are ignored, as its adapter drops them; `password` and `id` are kept only to be refused.
 *
 * better-auth also checks the caller's set-role, ban and set-email permissions for the fields that
 * need them. With its default roles whoever may create or update users has those as well, so these
 * finer checks, which matter only with custom roles, are left out.
 */
export const UserData = z
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

export const UserListQuery = z.object({
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
});

export const UserIdQuery = z.object({ id: z.string() });

/** A request about one user. */
export const UserIdBody = z.object({ userId });

export const UserCreate = z.object({ email: z.string(), password: z.string().optional(), name: z.string(), role: roles.optional(), data: UserData.optional() });

export const UserUpdate = z.object({ userId, data: UserData });

export const RoleChange = z.object({ userId, role: roles });

export const BanRequest = z.object({ userId, banReason: z.string().optional(), banExpiresIn: z.number().min(0).max(LONGEST_BAN_SECONDS).optional() });

export const SessionRevocation = z.object({ sessionToken: z.string() });

export const PasswordChange = z.object({ newPassword: z.string().min(1, "newPassword cannot be empty"), userId: userId.min(1, "userId cannot be empty") });

/** The permissions asked about, under either of the two keys better-auth takes. */
export const PermissionQuestion = z
  .object({ userId: z.coerce.string().optional(), role: z.string().optional() })
  .and(z.xor([z.object({ permission: z.record(z.string(), z.array(z.string())) }), z.object({ permissions: z.record(z.string(), z.array(z.string())) })]));

export const ImpersonationRequest = z.object({ userId: z.coerce.string() });
