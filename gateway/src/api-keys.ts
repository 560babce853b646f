import type { IncomingMessage } from "node:http";
import { HttpError, request, type BusConnection } from "@tollgate/kit";
import { API_KEY_HEADER, resolveApiKey, type IdentityClaims } from "@tollgate/proto";
import { hashToken, type ResolvedCaller } from "./sessions.js";

/**
 * `x-api-key` on better-auth's API: the key's owner, from the auth service over NATS. Never cached:
 * every use counts toward the key's remaining uses and rate limit and moves its lastRequest, so only
 * auth can answer; a key deleted or disabled stops working at the next request, with nothing to forget.
 */
export class ApiKeyResolver {
  constructor(private readonly deps: { bus: BusConnection }) {}

  /** The caller a key names; null when the request carries none; throws better-auth's refusal for one that opens nothing. */
  async resolve(req: IncomingMessage): Promise<ResolvedCaller | null> {
    const key = req.headers[API_KEY_HEADER];
    if (typeof key !== "string" || key === "") return null;
    const answer = await request(this.deps.bus, resolveApiKey, { key_hash: hashToken(key) });
    if (!answer.ok) {
      const { status, code, message, try_again_in_ms } = answer.refusal;
      throw new HttpError(status, code, message, {}, try_again_in_ms === null ? {} : { details: { tryAgainIn: try_again_in_ms } });
    }
    const { id, owner, permissions } = answer.key;
    const identity: IdentityClaims =
      owner.kind === "user"
        ? { kind: "user_api_key", key_id: id, user_id: owner.user_id }
        : { kind: "organization_api_key", key_id: id, organization_id: owner.organization_id, permissions };
    return { identity, sessionToken: null, staleSession: false, session: null };
  }
}
