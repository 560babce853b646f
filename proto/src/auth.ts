import { z } from "zod";
import { defineEvent } from "./envelope.js";
import { defineRequest } from "./requests.js";

/**
 * The raw session token of a signed-in caller, forwarded by the gateway to the auth service only:
 * auth needs it to re-issue the session cookie and to show the token better-auth's clients expect.
 */
export const SESSION_TOKEN_HEADER = "x-tollgate-session-token";
/**
 * The state of the social sign-in this browser started, from its signed state cookie, forwarded by the
 * gateway to the auth service only: a callback must come back to the browser that began the flow.
 */
export const OAUTH_STATE_HEADER = "x-tollgate-oauth-state";
/**
 * The pending sign-in named by this browser's signed two_factor cookie, forwarded by the gateway to the
 * auth service only: the second factor must be given by the browser that gave the password.
 */
export const TWO_FACTOR_HEADER = "x-tollgate-two-factor";
/** This browser's signed trust_device cookie, forwarded by the gateway to the auth service only. */
export const TRUSTED_DEVICE_HEADER = "x-tollgate-trusted-device";
/**
 * The passkey ceremony this browser started, from its signed challenge cookie, forwarded by the gateway
 * to the auth service only: a passkey's answer is checked against the challenge given to this browser.
 */
export const PASSKEY_CHALLENGE_HEADER = "x-tollgate-passkey-challenge";
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
        two_factor_enabled: z.boolean().optional(),
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
 * password. Over HTTP the path does not exist. On the bus, the request carries the identity token the
 * gateway signed for that user's request: a process that can merely reach NATS cannot set anyone's
 * password, since only the gateway can sign.
 */
export const setPassword = defineRequest("auth.password.set", {
  request: z.object({ identity: z.string().min(1), new_password: z.string() }),
  response: z.object({ status: z.literal(true) }),
});

/** A session's active organization or team changed from outside the caller's own request. */
export const sessionChanged = defineEvent("session.changed", z.object({ user_id: id }));

/** What another service needs of the caller's session: who, and what organization they work in. */
export const getSessionContext = defineRequest("auth.session.get", {
  request: z.object({ session_id: id }),
  response: z.object({
    session: z
      .object({
        id,
        user_id: id,
        active_organization_id: id.nullable(),
        active_team_id: id.nullable(),
        user: z.object({ id, email: z.email(), name: z.string(), image: z.string().nullable(), email_verified: z.boolean() }),
      })
      .nullable(),
  }),
});

/**
 * Sets a session's active organization (and team): the organization service asks, since the
 * session is the auth service's. `team_id` left out keeps the active team; null clears it.
 */
export const setActiveOrganization = defineRequest("auth.session.set_active", {
  request: z.object({ session_id: id, organization_id: id.nullable(), team_id: id.nullable().optional() }),
  response: z.object({ status: z.literal(true) }),
});

/** Clears an organization (or one of its teams) from every session of a user who left or was removed. */
export const clearActiveOrganization = defineRequest("auth.session.clear_active", {
  request: z.object({ user_id: id, organization_id: id, team_id: id.optional() }),
  response: z.object({ cleared: z.number().int() }),
});

/** The header better-auth's api-key plugin reads a key from. */
export const API_KEY_HEADER = "x-api-key";

/**
 * The gateway's question for every request with an API key (never cached: each use counts toward
 * the key's remaining uses and rate limit, and moves its lastRequest). The answer is the key's owner,
 * or why it is refused, as better-auth's api-key plugin refuses it (status, code, message).
 */
export const resolveApiKey = defineRequest("auth.api_key.resolve", {
  /** The key's SHA-256 digest: the key itself does not travel further than the gateway. */
  request: z.object({ key_hash: tokenHash }),
  response: z.discriminatedUnion("ok", [
    z.object({
      ok: z.literal(true),
      key: z.object({
        id,
        owner: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("user"), user_id: id }),
          z.object({ kind: z.literal("organization"), organization_id: id }),
        ]),
        permissions: z.record(z.string(), z.array(z.string())).nullable(),
      }),
    }),
    z.object({
      ok: z.literal(false),
      refusal: z.object({ status: z.union([z.literal(401), z.literal(403), z.literal(429)]), code: z.string(), message: z.string(), try_again_in_ms: z.number().int().nullable() }),
    }),
  ]),
});
