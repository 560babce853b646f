import { z } from "zod";
import { isoTimestamp, queryFlag } from "@tollgate/kit";
import { User } from "../users/schemas.js";

/** better-auth's Session, with the admin and organization plugins' fields. */
export const Session = z
  .strictObject({
    id: z.string(),
    token: z.string().meta({ description: "The session's token for the caller's own session; for the others, a handle that revokes it but opens nothing" }),
    userId: z.string(),
    expiresAt: isoTimestamp(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    impersonatedBy: z.string().nullable(),
    activeOrganizationId: z.string().nullable(),
    activeTeamId: z.string().nullable(),
  })
  .meta({ id: "Session" });

/** A session with the user it belongs to, as get-session answers. */
export const SessionWithUser = z.strictObject({ session: Session, user: User });

/** A sign-in's answer: the new session's token and the user, and the callback the client may go on to. */
export const SignedIn = z.strictObject({ redirect: z.boolean(), token: z.string(), url: z.string().optional(), user: User });

const flag = queryFlag().optional();

/** get-session's switches: skip the cookie cache, or leave the session's expiry as it is. */
export const SessionQuery = z.object({ disableCookieCache: flag, disableRefresh: flag });

export const SessionRevocation = z.object({ token: z.string().min(1) });
