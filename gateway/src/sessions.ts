import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Redis } from "ioredis";
import type { z } from "zod";
import { authCookieName, parseCookieHeader, request, verifyCookieValue, type BusConnection } from "@tollgate/kit";
import { resolveSession, type IdentityClaims } from "@tollgate/proto";
import type { GatewayCache } from "./cache.js";

export type ResolvedSession = NonNullable<z.output<typeof resolveSession.response>["session"]>;

/** Who is calling, as far as the session cookie tells. */
export interface ResolvedCaller {
  identity: IdentityClaims;
  /** The raw session token, for the auth service alone. */
  sessionToken: string | null;
  /** A session cookie was sent but no longer opens a session: auth clears it on get-session. */
  staleSession: boolean;
  /** The session as the auth service last described it (cached). */
  session: ResolvedSession | null;
}

export const ANONYMOUS: ResolvedCaller = { identity: { kind: "anonymous" }, sessionToken: null, staleSession: false, session: null };
/** Both spellings: `__Secure-` on https sites, plain on http ones. */
export const SESSION_COOKIE_NAMES = {
  token: [authCookieName("session_token", "https:"), authCookieName("session_token", "http:")],
  data: [authCookieName("session_data", "https:"), authCookieName("session_data", "http:")],
};

/** The value of a signed better-auth cookie, either spelling, if its signature holds. */
function signedAuthCookie(req: IncomingMessage, name: "state" | "two_factor" | "trust_device" | "better-auth-passkey", secret: string): string | null {
  const cookies = parseCookieHeader(req.headers.cookie);
  const raw = cookies.get(authCookieName(name, "https:")) ?? cookies.get(authCookieName(name, "http:"));
  return raw ? verifyCookieValue(raw, secret) : null;
}

/** The state in the browser's signed state cookie, on a social sign-in callback: auth checks the callback's against it. */
export function oauthStateOf(req: IncomingMessage, secret: string): string | null {
  if (!req.url?.startsWith("/api/auth/callback/")) return null;
  return signedAuthCookie(req, "state", secret);
}

/** The paths where a password sign-in or its second factor happens: only they learn of the browser's two-factor cookies. */
const TWO_FACTOR_PATHS = ["/api/auth/sign-in/", "/api/auth/two-factor/"];

/** The browser's pending sign-in and trusted-device cookies, checked here, for the auth service's sign-in and two-factor paths. */
export function twoFactorCookiesOf(req: IncomingMessage, secret: string): { pendingSignIn: string | null; trustedDevice: string | null } {
  if (!TWO_FACTOR_PATHS.some((path) => req.url?.startsWith(path))) return { pendingSignIn: null, trustedDevice: null };
  return { pendingSignIn: signedAuthCookie(req, "two_factor", secret), trustedDevice: signedAuthCookie(req, "trust_device", secret) };
}

/** The passkey ceremony in the browser's signed challenge cookie, when it sends a passkey's answer to be verified. */
export function passkeyChallengeOf(req: IncomingMessage, secret: string): string | null {
  return req.url?.startsWith("/api/auth/passkey/verify-") ? signedAuthCookie(req, "better-auth-passkey", secret) : null;
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const sessionKey = (tokenHash: string) => `session:${tokenHash}`;
const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * Who is calling: the signed session cookie, checked here, then its session from a short Redis cache
 * shared by every gateway replica, or on a miss (or while Redis is down) from the auth service over
 * NATS. Revocations and bans drop cache entries through events, so the cache's lifetime bounds
 * staleness only if one is missed.
 */
export class SessionResolver {
  constructor(
    private readonly deps: { cache: GatewayCache; redis: Redis; bus: BusConnection; secret: string },
  ) {}

  async resolve(req: IncomingMessage): Promise<ResolvedCaller> {
    const cookies = parseCookieHeader(req.headers.cookie);
    const raw = SESSION_COOKIE_NAMES.token.map((name) => cookies.get(name)).find((value) => value !== undefined);
    if (raw === undefined) return ANONYMOUS;
    const token = verifyCookieValue(raw, this.deps.secret);
    if (!token) return { ...ANONYMOUS, staleSession: true };
    const session = await this.lookup(hashToken(token));
    if (!session || new Date(session.expires_at) <= new Date()) return { ...ANONYMOUS, staleSession: true };
    // Said only when true: services read an absent claim as no two-factor, so the token stays as small as before.
    const identity: IdentityClaims = { kind: "user", user_id: session.user_id, session_id: session.id, ...(session.two_factor_enabled === true && { two_factor: true }) };
    return { identity, sessionToken: token, staleSession: false, session };
  }

  /** Drops cached sessions by token digest (revoked) or every cached session of a user (banned, deleted). */
  async forget(target: { tokenHashes?: string[]; userId?: string }): Promise<void> {
    const { redis } = this.deps;
    const hashes = [...(target.tokenHashes ?? []), ...(target.userId ? await redis.smembers(userSessionsKey(target.userId)) : [])];
    const keys = hashes.map(sessionKey);
    if (target.userId) keys.push(userSessionsKey(target.userId));
    if (keys.length > 0) await redis.del(...keys);
  }

  private lookup(tokenHash: string): Promise<ResolvedSession | null> {
    const { cache, bus } = this.deps;
    return cache.readThrough(
      sessionKey(tokenHash),
      async () => (await request(bus, resolveSession, { token_hash: tokenHash })).session,
      // Which sessions a user has cached, for forgetting them all: only ever names keys to delete, never an identity.
      (write, session) => {
        if (session) write.sadd(userSessionsKey(session.user_id), tokenHash).expire(userSessionsKey(session.user_id), cache.ttlSeconds);
      },
    );
  }
}
