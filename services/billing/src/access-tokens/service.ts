import { invalidField, notFound, notPermitted, type OrganizationAccess, type Scope } from "@tollgate/kit";
import { accessTokenRevoked, type IdentityClaims } from "@tollgate/proto";
import { deleteAccessToken, insertAccessToken, updateAccessToken, type AccessTokenRow } from "./access-tokens.sql.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a token by id, a page of them.
export { findAccessToken, pageOfAccessTokens } from "./access-tokens.sql.js";


/** A token's holder grants no scope it lacks itself. */
function ensureWithinCaller(access: OrganizationAccess, identity: IdentityClaims, requested: readonly Scope[]): void {
  const beyond = access.scopesBeyondCaller(identity, requested);
  if (beyond.length > 0) throw notPermitted(`A token cannot grant scopes it does not have: ${beyond.join(",")}`);
}

/**
 * A lifetime as Polar's API takes it (a timedelta): ISO 8601 (`P30D`, `PT12H`, `P1W`) or seconds.
 * Null for a value that is neither.
 */
function secondsOf(duration: string): number | null {
  if (/^\d+(\.\d+)?$/.test(duration)) return Number(duration);
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!match || duration === "P" || duration.endsWith("T")) return null;
  const [weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match.slice(1).map((part) => Number(part ?? 0));
  return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
}

/** A token meant to outlive ten years is one that should not expire: leave `expires_in` out. */
const LONGEST_LIFETIME_SECONDS = 10 * 366 * 86_400;

/** When a token given `expiresIn` expires: never without one. */
function expiryOf(expiresIn: string | null | undefined): Date | null {
  if (!expiresIn) return null;
  const seconds = secondsOf(expiresIn);
  if (seconds === null || seconds <= 0 || seconds > LONGEST_LIFETIME_SECONDS) {
    throw invalidField(["expires_in"], "Input should be a valid duration such as P30D, or a number of seconds, of at most ten years", expiresIn);
  }
  return new Date(Date.now() + seconds * 1000);
}

/** A new token of the organization, with no scope its creator lacks; the token itself is shown this once. */
export async function createAccessToken(
  parts: Pick<Parts, "db" | "units" | "access">,
  identity: IdentityClaims,
  organizationId: string,
  request: { comment: string; expires_in?: string | null; scopes: Scope[] },
): Promise<{ row: AccessTokenRow; token: string }> {
  ensureWithinCaller(parts.access, identity, request.scopes);
  return insertAccessToken(parts.db, { organization_id: organizationId, comment: request.comment, scopes: [...new Set(request.scopes)], expires_at: expiryOf(request.expires_in) });
}

/** Changes a token's comment or scopes; new scopes make the gateway forget what it cached of the token. */
export async function changeAccessToken(parts: Pick<Parts, "db" | "units" | "access">, identity: IdentityClaims, token: AccessTokenRow, changes: { comment?: string | null; scopes?: Scope[] | null }): Promise<AccessTokenRow> {
  if (changes.scopes) ensureWithinCaller(parts.access, identity, changes.scopes);
  return parts.units.run(async (unit) => {
    const updated = await updateAccessToken(unit.db, token.id, {
      ...(changes.comment ? { comment: changes.comment } : {}),
      ...(changes.scopes ? { scopes: [...new Set(changes.scopes)] } : {}),
    });
    if (!updated) throw notFound("Organization access token");
    if (changes.scopes) unit.announce(accessTokenRevoked, { id: token.id, token_hash: token.token_hash });
    return updated;
  });
}

/** A deleted token is revoked: the gateway forgets it. */
export async function removeAccessToken(parts: Pick<Parts, "db" | "units" | "access">, token: AccessTokenRow): Promise<void> {
  await parts.units.run(async (unit) => {
    const deleted = await deleteAccessToken(unit.db, token.id);
    if (deleted) unit.announce(accessTokenRevoked, { id: deleted.id, token_hash: deleted.token_hash });
  });
}
