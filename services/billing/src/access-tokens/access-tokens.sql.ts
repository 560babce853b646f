import { createHash, randomUUID } from "node:crypto";
import { pageOf, randomId, type Knex, type Sort } from "@tollgate/kit";

export interface AccessTokenRow {
  id: string;
  organization_id: string;
  token_hash: string;
  comment: string;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

export const TOKEN_PREFIX = "polar_oat_";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token: shown once, stored only as its digest. */
export async function insertAccessToken(db: Knex, token: Pick<AccessTokenRow, "organization_id" | "comment" | "scopes" | "expires_at">): Promise<{ row: AccessTokenRow; token: string }> {
  const secret = `${TOKEN_PREFIX}${randomId(43)}`;
  const [row] = await db<AccessTokenRow>("access_tokens")
    .insert({ id: randomUUID(), token_hash: hashToken(secret), ...token })
    .returning("*");
  if (!row) throw new Error("insert into access_tokens returned no row");
  return { row, token: secret };
}

export const findAccessToken = (db: Knex, id: string) => db<AccessTokenRow>("access_tokens").where({ id }).first();

export const ACCESS_TOKEN_SORTABLE = { created_at: "created_at", comment: "comment", last_used_at: "last_used_at", organization_id: "organization_id" } as const;

/** The tokens of the organizations given (of those among `organization_id`, when given). */
export function pageOfAccessTokens(db: Knex, filter: { organizationIds: string[]; organization_id?: string[] }, page: { page: number; limit: number; sort: Sort<keyof typeof ACCESS_TOKEN_SORTABLE> }) {
  const found = db<AccessTokenRow>("access_tokens").whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  return pageOf<AccessTokenRow, keyof typeof ACCESS_TOKEN_SORTABLE>(found, { ...page, columns: ACCESS_TOKEN_SORTABLE, table: "access_tokens" });
}

export async function updateAccessToken(db: Knex, id: string, changes: Partial<Pick<AccessTokenRow, "comment" | "scopes">>): Promise<AccessTokenRow | undefined> {
  const [row] = await db<AccessTokenRow>("access_tokens")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

export async function deleteAccessToken(db: Knex, id: string): Promise<AccessTokenRow | undefined> {
  const [row] = await db<AccessTokenRow>("access_tokens").where({ id }).delete().returning("*");
  return row;
}

/** Every token of an organization that is gone; returns what the gateway must forget. */
export async function deleteOrganizationTokens(db: Knex, organizationId: string): Promise<{ id: string; token_hash: string }[]> {
  return db<AccessTokenRow>("access_tokens").where({ organization_id: organizationId }).delete().returning(["id", "token_hash"]);
}

/** The live token behind a digest, marked as used (at most once a minute, to spare writes). */
export async function useAccessToken(db: Knex, tokenHash: string): Promise<AccessTokenRow | undefined> {
  const token = await db<AccessTokenRow>("access_tokens")
    .where({ token_hash: tokenHash })
    .where((live) => void live.whereNull("expires_at").orWhere("expires_at", ">", new Date()))
    .first();
  if (token && (!token.last_used_at || Date.now() - token.last_used_at.getTime() > 60_000)) {
    await db<AccessTokenRow>("access_tokens").where({ id: token.id }).update({ last_used_at: new Date() });
  }
  return token;
}
