import type { z } from "zod";
import type { resolveApiKey } from "@tollgate/proto";
import { AUTH_ERRORS, type AuthErrorCode } from "../http/errors.js";
import type { Parts } from "../parts.js";
import { findUserById } from "../users/users.sql.js";
import { claimApiKeyUse, deleteApiKey, findApiKeyByHash, findApiKeyById, ORGANIZATION_KEYS, type ApiKeyRow } from "./api-keys.sql.js";

type Resolution = z.output<typeof resolveApiKey.response>;
type Refusal = Extract<Resolution, { ok: false }>["refusal"];

const refusal = (status: Refusal["status"], code: AuthErrorCode, tryAgainInMs: number | null = null): Resolution => ({
  ok: false,
  refusal: { status, code, message: AUTH_ERRORS[code], try_again_in_ms: tryAgainInMs },
});

/**
 * One use of a key, as the gateway asks for every request that carries one, with better-auth's
 * verdicts: unknown, disabled, expired (deleted on sight), used up (deleted once nothing can refill
 * it), over its rate limit. A use that passes is counted and moves the key's lastRequest.
 */
export async function useApiKey(auth: Pick<Parts, "db">, keyHash: string): Promise<Resolution> {
  const { db } = auth;
  const key = await findApiKeyByHash(db, keyHash);
  if (!key) return refusal(401, "INVALID_API_KEY");
  if (!key.enabled) return refusal(401, "KEY_DISABLED");
  const now = new Date();
  if (key.expires_at && key.expires_at <= now) {
    await deleteApiKey(db, key.id);
    return refusal(401, "KEY_EXPIRED");
  }
  if (key.remaining === 0 && key.refill_amount === null) {
    await deleteApiKey(db, key.id);
    return refusal(429, "USAGE_EXCEEDED");
  }
  if (key.config_id !== ORGANIZATION_KEYS) {
    const user = await findUserById(db, key.reference_id);
    if (!user) return refusal(401, "INVALID_REFERENCE_ID_FROM_API_KEY");
    if (user.banned) return refusal(401, "USER_BANNED");
  }
  const used = await claimApiKeyUse(db, key.id, now);
  if (!used) return refusedUse(await findApiKeyById(db, key.id), now);
  return {
    ok: true,
    key: {
      id: used.id,
      owner: used.config_id === ORGANIZATION_KEYS ? { kind: "organization", organization_id: used.reference_id } : { kind: "user", user_id: used.reference_id },
      permissions: used.permissions,
    },
  };
}

/** Why a use was not counted: no use left, else the rate limit, with how long until the window has room. */
function refusedUse(key: ApiKeyRow | undefined, now: Date): Resolution {
  if (!key) return refusal(401, "INVALID_API_KEY");
  if (key.remaining !== null && key.remaining <= 0) return refusal(429, "USAGE_EXCEEDED");
  const sinceLast = key.last_request ? now.getTime() - key.last_request.getTime() : 0;
  const tryAgainIn = Math.max(0, Math.ceil((key.rate_limit_time_window ?? 0) - sinceLast));
  return { ok: false, refusal: { status: 429, code: "RATE_LIMITED", message: AUTH_ERRORS.RATE_LIMIT_EXCEEDED, try_again_in_ms: tryAgainIn } };
}
