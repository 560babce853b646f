import type { ApiKeyRow } from "./api-keys.sql.js";

/** A key as better-auth's api-key endpoints answer it: its digest never leaves, only its first characters. */
export function apiKeyJson(key: ApiKeyRow) {
  return {
    id: key.id,
    configId: key.config_id,
    name: key.name,
    start: key.start,
    prefix: key.prefix,
    referenceId: key.reference_id,
    enabled: key.enabled,
    expiresAt: key.expires_at,
    remaining: key.remaining,
    refillAmount: key.refill_amount,
    refillInterval: key.refill_interval,
    lastRefillAt: key.last_refill_at,
    rateLimitEnabled: key.rate_limit_enabled,
    rateLimitTimeWindow: key.rate_limit_time_window,
    rateLimitMax: key.rate_limit_max,
    requestCount: key.request_count,
    lastRequest: key.last_request,
    permissions: key.permissions,
    metadata: key.metadata,
    createdAt: key.created_at,
    updatedAt: key.updated_at,
  };
}

/** The session better-auth makes up for a user's key (enableSessionForAPIKeys): the key stands in for a session. */
export function keySessionJson(key: ApiKeyRow, token: string, expiresAt: Date, client: { ipAddress: string | null; userAgent: string | null }) {
  const now = new Date();
  return {
    id: key.id,
    token,
    userId: key.reference_id,
    expiresAt: key.expires_at ?? expiresAt,
    createdAt: now,
    updatedAt: now,
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
    impersonatedBy: null,
    activeOrganizationId: null,
    activeTeamId: null,
  };
}
