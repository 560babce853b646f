import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Redis } from "ioredis";
import type { z } from "zod";
import { HttpError, polarErrors, request, type BusConnection } from "@tollgate/kit";
import { resolveAccessToken, resolveCustomerSession, type IdentityClaims } from "@tollgate/proto";
import type { GatewayCache } from "./cache.js";
import type { ResolvedCaller } from "./sessions.js";

type ResolvedToken = NonNullable<z.output<typeof resolveAccessToken.response>["token"]>;
type ResolvedSession = NonNullable<z.output<typeof resolveCustomerSession.response>["session"]>;

const BEARER = /^Bearer\s+(\S+)$/i;
// What a token resolved to is cached under its digest (`bearer:` since customer sessions joined access tokens).
const tokenKey = (tokenHash: string) => `bearer:${tokenHash}`;

/** RFC 6750's answer to a bearer token that opens nothing, in Polar's error shape. */
const invalidToken = () =>
  new HttpError(401, polarErrors.codes.unauthorized, "The access token provided is expired, revoked, malformed, or invalid for other reasons.", {
    "www-authenticate": 'Bearer realm="tollgate", error="invalid_token"',
  });

/** What a bearer token resolved to, cached as it came from billing: null for one that opens nothing. */
type Resolved = { kind: "organization_token"; token: ResolvedToken } | { kind: "customer_session"; session: ResolvedSession } | null;

/** Customer sessions are told apart by their prefix, as Polar's are. */
const CUSTOMER_SESSION_PREFIX = "polar_cst_";

/**
 * `Authorization: Bearer …` on Polar's API: an organization access token (`polar_oat_…`) or a
 * customer session (`polar_cst_…`, for the customer portal), from a short Redis cache or, on a miss
 * (or while Redis is down), from billing over NATS. Deleting a token or changing its scopes drops
 * the cached copy through an event; a customer session lives an hour and is cached no longer than
 * it lives.
 */
export class AccessTokenResolver {
  constructor(private readonly deps: { cache: GatewayCache; redis: Redis; bus: BusConnection }) {}

  /** The caller a bearer token names; null when the request carries none; throws 401 for one that opens nothing. */
  async resolve(req: IncomingMessage): Promise<ResolvedCaller | null> {
    const header = req.headers.authorization;
    if (header === undefined) return null;
    const token = BEARER.exec(header)?.[1];
    if (!token) throw invalidToken();
    const resolved = await this.lookup(createHash("sha256").update(token).digest("hex"), token.startsWith(CUSTOMER_SESSION_PREFIX));
    const expiresAt = resolved?.kind === "organization_token" ? resolved.token.expires_at : resolved?.session.expires_at;
    if (!resolved || (expiresAt && Date.parse(expiresAt) <= Date.now())) throw invalidToken();
    const identity: IdentityClaims =
      resolved.kind === "organization_token"
        ? { kind: "organization_token", token_id: resolved.token.id, organization_id: resolved.token.organization_id, scopes: resolved.token.scopes }
        : {
            kind: "customer_session",
            customer_id: resolved.session.customer_id,
            organization_id: resolved.session.organization_id,
            session_id: resolved.session.id,
            ...(resolved.session.member_id && { member_id: resolved.session.member_id }),
          };
    return { identity, sessionToken: null, staleSession: false, session: null };
  }

  forget(tokenHash: string): Promise<number> {
    return this.deps.redis.del(tokenKey(tokenHash));
  }

  private lookup(tokenHash: string, customerSession: boolean): Promise<Resolved> {
    const { cache, bus } = this.deps;
    return cache.readThrough<Resolved>(tokenKey(tokenHash), async () => {
      if (customerSession) {
        const { session } = await request(bus, resolveCustomerSession, { token_hash: tokenHash });
        return session ? { kind: "customer_session", session } : null;
      }
      const { token } = await request(bus, resolveAccessToken, { token_hash: tokenHash });
      return token ? { kind: "organization_token", token } : null;
    });
  }
}
