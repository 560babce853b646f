import { z } from "zod";
import { defineEvent } from "./envelope.js";
import { defineRequest } from "./requests.js";

/**
 * The raw session token of a signed-in caller, forwarded by the gateway to the auth service only:
 * auth needs it to re-issue the session cookie and to show the token better-auth's clients expect.
 */
export const SESSION_TOKEN_HEADER = "x-tollgate-session-token";
/** Set by the gateway when the caller sent a session cookie that no longer resolves, so auth clears it. */
export const STALE_SESSION_HEADER = "x-tollgate-stale-session";

const tokenHash = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hex digest");
const id = z.string().min(1);

/**
 * The gateway's cache miss: which live session, if any, a session token (by its hash) belongs to.
 * `view` is better-auth's get-session body without the token, which the gateway answers from its
 * cache until `refresh_at`, when get-session must go to auth to slide the expiry.
 */
export const resolveSession = defineRequest("auth.session.resolve", {
  request: z.object({ token_hash: tokenHash }),
  response: z.object({
    session: z
      .object({
        id,
        user_id: id,
        expires_at: z.iso.datetime({ offset: true }),
        impersonated_by: id.nullable(),
        refresh_at: z.iso.datetime({ offset: true }).nullable(),
        view: z.object({ session: z.record(z.string(), z.unknown()), user: z.record(z.string(), z.unknown()) }),
      })
      .nullable(),
  }),
});

const userFields = {
  id,
  email: z.email(),
  name: z.string(),
  email_verified: z.boolean(),
  username: z.string().nullable(),
  role: z.string(),
};

export const userCreated = defineEvent("user.created", z.object(userFields));
export const userUpdated = defineEvent("user.updated", z.object(userFields));
export const userDeleted = defineEvent("user.deleted", z.object({ id }));
export const userBanned = defineEvent(
  "user.banned",
  z.object({ id, reason: z.string().nullable(), expires_at: z.iso.datetime({ offset: true }).nullable() }),
);
/** One or more sessions ended early (sign-out, revocation, ban, password change). */
export const sessionRevoked = defineEvent(
  "session.revoked",
  z.object({ user_id: id, sessions: z.array(z.object({ id, token_hash: tokenHash })) }),
);

/**
 * better-auth's server-only set-password: gives a user who signed up without one (social sign-in) a
 * password. Only trusted processes on the bus can ask; over HTTP the path does not exist.
 */
export const setPassword = defineRequest("auth.password.set", {
  request: z.object({ user_id: id, new_password: z.string() }),
  response: z.object({ status: z.literal(true) }),
});
