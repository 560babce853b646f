import { z } from "zod";
import { defineEndpoint, type Endpoint, invalidField, notFound, notPermitted, type Scope, pageJson, pageOf, paging, repeated, sorting } from "@tollgate/kit";
import { accessTokenRevoked, type IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { OrganizationAccessToken, OrganizationAccessTokenCreateResponse, OrganizationAccessTokenList } from "./schemas.js";
import { SCOPES } from "./scopes.js";
import { deleteAccessToken, findAccessToken, insertAccessToken, updateAccessToken, type AccessTokenRow } from "./tokens.sql.js";

const scopes = z.array(z.enum(SCOPES)).min(1);

/** A token's holder grants no scope it lacks itself. */
function ensureWithinCaller(access: Billing["access"], identity: IdentityClaims, requested: readonly Scope[]): void {
  const beyond = access.scopesBeyondCaller(identity, requested);
  if (beyond.length > 0) throw notPermitted(`A token cannot grant scopes it does not have: ${beyond.join(",")}`);
}

/** A token as Polar shows it: never the token itself, which only its creator saw, once. */
export const accessTokenJson = (token: AccessTokenRow) => ({
  id: token.id,
  created_at: token.created_at,
  modified_at: token.modified_at,
  scopes: token.scopes,
  expires_at: token.expires_at,
  comment: token.comment,
  last_used_at: token.last_used_at,
  organization_id: token.organization_id,
});

/**
 * A lifetime as Polar's API takes it (a timedelta): ISO 8601 (`P30D`, `PT12H`, `P1W`) or seconds.
 * Null for a value that is neither.
 */
export function secondsOf(duration: string): number | null {
  if (/^\d+(\.\d+)?$/.test(duration)) return Number(duration);
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!match || duration === "P" || duration.endsWith("T")) return null;
  const [weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match.slice(1).map((part) => Number(part ?? 0));
  return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
}

/** A token meant to outlive ten years is one that should not expire: leave `expires_in` out. */
const LONGEST_LIFETIME_SECONDS = 10 * 366 * 86_400;

const SORTABLE = { created_at: "created_at", comment: "comment", last_used_at: "last_used_at", organization_id: "organization_id" } as const;
const TAG = "oauth2/organization_access_tokens";

export function accessTokenEndpoints(billing: Billing): Endpoint[] {
  const { db, access, outbox } = billing;
  const reachableToken = async (identity: Parameters<typeof access.allows>[0], scope: "organization_access_tokens:read" | "organization_access_tokens:write", id: string) => {
    const token = await findAccessToken(db, id);
    if (!token || !(await access.allows(identity, scope, token.organization_id))) throw notFound("Organization access token");
    return token;
  };
  return [
    defineEndpoint(
      "/v1/organization-access-tokens/",
      {
        method: "POST",
        status: 201,
        body: z.object({ organization_id: z.string().nullish(), comment: z.string().min(1).max(255), expires_in: z.string().nullish(), scopes }),
        response: OrganizationAccessTokenCreateResponse,
        summary: "Create an organization access token",
        tag: TAG,
      },
      async ({ body, identity }) => {
        const organizationId = await access.organizationFor(identity, "organization_access_tokens:write", body.organization_id);
        ensureWithinCaller(access, identity, body.scopes);
        let expiresAt: Date | null = null;
        if (body.expires_in) {
          const seconds = secondsOf(body.expires_in);
          if (seconds === null || seconds <= 0 || seconds > LONGEST_LIFETIME_SECONDS) {
            throw invalidField(["expires_in"], "Input should be a valid duration such as P30D, or a number of seconds, of at most ten years", body.expires_in);
          }
          expiresAt = new Date(Date.now() + seconds * 1000);
        }
        const { row, token } = await insertAccessToken(db, { organization_id: organizationId, comment: body.comment, scopes: [...new Set(body.scopes)], expires_at: expiresAt });
        return { organization_access_token: accessTokenJson(row), token };
      },
    ),

    defineEndpoint(
      "/v1/organization-access-tokens/",
      {
        method: "GET",
        query: z.object({ ...paging, organization_id: repeated(z.string()), sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at") }),
        response: OrganizationAccessTokenList,
        summary: "List organization access tokens",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const reachable = await access.organizationIds(identity, "organization_access_tokens:read");
        const found = db<AccessTokenRow>("access_tokens").whereIn("organization_id", reachable);
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        const { rows, total } = await pageOf<AccessTokenRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "access_tokens" });
        return pageJson(rows.map(accessTokenJson), total, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/organization-access-tokens/:id",
      {
        method: "PATCH",
        params: z.object({ id: z.string() }),
        body: z.object({ comment: z.string().min(1).max(255).nullish(), scopes: scopes.nullish() }),
        response: OrganizationAccessToken,
        summary: "Update an organization access token",
        tag: TAG,
      },
      async ({ params, body, identity }) => {
        const token = await reachableToken(identity, "organization_access_tokens:write", params.id);
        if (body.scopes) ensureWithinCaller(access, identity, body.scopes);
        return db.transaction(async (trx) => {
          const updated = await updateAccessToken(trx, token.id, {
            ...(body.comment ? { comment: body.comment } : {}),
            ...(body.scopes ? { scopes: [...new Set(body.scopes)] } : {}),
          });
          if (!updated) throw notFound("Organization access token");
          // What the gateway cached for the token carries its old scopes.
          if (body.scopes) await outbox.emit(trx, accessTokenRevoked, { id: token.id, token_hash: token.token_hash });
          return accessTokenJson(updated);
        });
      },
    ),

    defineEndpoint("/v1/organization-access-tokens/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete an organization access token", tag: TAG }, async ({ params, identity }) => {
      const token = await reachableToken(identity, "organization_access_tokens:write", params.id);
      await db.transaction(async (trx) => {
        const deleted = await deleteAccessToken(trx, token.id);
        if (deleted) await outbox.emit(trx, accessTokenRevoked, { id: deleted.id, token_hash: deleted.token_hash });
      });
    }),
  ];
}
