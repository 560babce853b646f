import { z } from "zod";
import { Session } from "../sessions/schemas.js";
import { User } from "../users/schemas.js";

/** One page of users; `limit` and `offset` only when the query gave them. */
export const UserPage = z.strictObject({ users: z.array(User), total: z.int(), limit: z.int().optional(), offset: z.int().optional() });

/** A user created or changed, as most admin endpoints answer. */
export const UserEnvelope = z.strictObject({ user: User });

export const UserSessions = z.strictObject({ sessions: z.array(Session) });

/** Whether the caller's own roles grant the permissions asked about. */
export const PermissionCheck = z.strictObject({ error: z.null(), success: z.boolean() });
