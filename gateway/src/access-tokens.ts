import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Redis } from "ioredis";
import type { z } from "zod";
import { HttpError, polarErrors, request, type BusConnection } from "@tollgate/kit";
import { resolveAccessToken } from "@tollgate/proto";
import type { ResolvedCaller } from "./sessions.js";

type ResolvedToken = NonNullable<z.output<typeof resolveAccessToken.response>["token"]>;

const BEARER = /^Bearer\s+(\S+)$/i;
const tokenKey = (tokenHash: string) => `access-token:${tokenHash}`;

/** RFC 6750's answer to a bearer token that opens nothing, in Polar's error shape. */
const invalidToken = () =>
  new HttpError(401, polarErrors.codes.unauthorized, "The access token provided is expired, revoked, malformed, or invalid for other reasons.", {
    "www-authenticate": 'Bearer realm="tollgate", error="invalid_token"',
  });

/**
 * `Authorization: Bearer polar_oat_…` on Polar's API: the organization access token, from a short
 * Redis cache or, on a miss, from billing over NATS. Deleting a token or changing its scopes drops
 * the cached copy through an event.
 */
export class AccessTokenResolver {
  constructor(private readonly deps: { redis: Redis; bus: BusConnection; cacheTtlSeconds: number }) {}

  /** The caller a bearer token names; null when the request carries none; throws 401 for one that opens nothing. */
  async resolve(req: IncomingMessage): Promise<ResolvedCaller | null> {
    const header = req.headers.authorization;
    if (header === undefined) return null;
    const token = BEARER.exec(header)?.[1];
    if (!token) throw invalidToken();
    const resolved = await this.lookup(createHash("sha256").update(token).digest("hex"));
    if (!resolved || (resolved.expires_at && Date.parse(resolved.expires_at) <= Date.now())) throw invalidToken();
    return {
      identity: { kind: "organization_token", token_id: resolved.id, organization_id: resolved.organization_id, scopes: resolved.scopes },
      sessionToken: null,
      staleSession: false,
      session: null,
    };
  }

  forget(tokenHash: string): Promise<number> {
    return this.deps.redis.del(tokenKey(tokenHash));
  }

  private async lookup(tokenHash: string): Promise<ResolvedToken | null> {
    const { redis, bus, cacheTtlSeconds } = this.deps;
    const cached = await redis.get(tokenKey(tokenHash));
    if (cached !== null) return JSON.parse(cached) as ResolvedToken | null;
    const { token } = await request(bus, resolveAccessToken, { token_hash: tokenHash });
    await redis.set(tokenKey(tokenHash), JSON.stringify(token), "EX", cacheTtlSeconds);
    return token;
  }
}
