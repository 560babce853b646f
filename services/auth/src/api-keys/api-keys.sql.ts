import { createHash } from "node:crypto";
import { randomId, type Knex } from "@tollgate/kit";

/**
 * better-auth's api-key plugin keeps one configuration per kind of owner, and a key's config_id says
 * which made it. Tollgate has two: the default one, whose keys a user owns, and "organization", whose
 * keys an organization owns (`references: "organization"`).
 */
export const USER_KEYS = "default";
export const ORGANIZATION_KEYS = "organization";

export interface ApiKeyRow {
  id: string;
  config_id: string;
  reference_id: string;
  key_hash: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  enabled: boolean;
  expires_at: Date | null;
  remaining: number | null;
  refill_amount: number | null;
  refill_interval: number | null;
  last_refill_at: Date | null;
  rate_limit_enabled: boolean;
  rate_limit_time_window: number | null;
  rate_limit_max: number | null;
  request_count: number;
  last_request: Date | null;
  permissions: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** The digest a key is stored and looked up by (the gateway sends the same digest of what it was given). */
export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

export type NewApiKey = Omit<ApiKeyRow, "id" | "key_hash" | "request_count" | "last_request" | "last_refill_at" | "created_at" | "updated_at">;

/** Stores a key as its digest. */
export async function insertApiKey(db: Knex, key: string, fields: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await db<ApiKeyRow>("api_keys")
    .insert({
      ...fields,
      id: randomId(32),
      key_hash: hashApiKey(key),
      permissions: jsonb(fields.permissions),
      metadata: jsonb(fields.metadata),
    })
    .returning("*");
  if (!row) throw new Error("insert into api_keys returned no row");
  return row;
}

// knex sends a plain object as JSON, but an array-valued record's arrays would go as Postgres arrays.
const jsonb = <T>(value: T | null) => (value === null ? null : (JSON.stringify(value) as unknown as T));

export const findApiKeyById = (db: Knex, id: string) => db<ApiKeyRow>("api_keys").where({ id }).first();

export const findApiKeyByHash = (db: Knex, keyHash: string) => db<ApiKeyRow>("api_keys").where({ key_hash: keyHash }).first();

export interface ApiKeyPage {
  configId: string;
  referenceId: string;
  limit?: number;
  offset?: number;
  sortBy?: "created_at" | "updated_at" | "name" | "expires_at" | "last_request";
  sortDirection?: "asc" | "desc";
}

/** One owner's keys of one configuration, a page of them, and how many there are in all. */
export async function listApiKeys(db: Knex, page: ApiKeyPage): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const owned = () => db<ApiKeyRow>("api_keys").where({ reference_id: page.referenceId, config_id: page.configId });
  const query = owned().orderBy(page.sortBy ?? "created_at", page.sortDirection ?? "asc").orderBy("id");
  if (page.limit !== undefined) void query.limit(page.limit);
  if (page.offset !== undefined) void query.offset(page.offset);
  const [rows, counted] = await Promise.all([query, owned().count<{ count: string }[]>("* as count")]);
  return { rows, total: Number(counted[0]?.count ?? 0) };
}

export type ApiKeyChanges = Partial<Pick<ApiKeyRow, "name" | "enabled" | "expires_at" | "metadata">>;

export async function updateApiKey(db: Knex, id: string, changes: ApiKeyChanges): Promise<ApiKeyRow | undefined> {
  const values = { ...changes, ...(changes.metadata !== undefined && { metadata: jsonb(changes.metadata) }) };
  const [row] = await db<ApiKeyRow>("api_keys").where({ id }).update({ ...values, updated_at: new Date() }).returning("*");
  return row;
}

export const deleteApiKey = (db: Knex, id: string) => db<ApiKeyRow>("api_keys").where({ id }).delete();

/** A user's own keys (an organization's keys stay with the organization, whoever made them). */
export const deleteUserApiKeys = (db: Knex, userId: string) => db<ApiKeyRow>("api_keys").where({ reference_id: userId, config_id: USER_KEYS }).delete();

export const deleteExpiredApiKeys = (db: Knex, now: Date) => db<ApiKeyRow>("api_keys").whereNotNull("expires_at").where("expires_at", "<", now).delete();

/**
 * Counts one use of a key, in one statement so that concurrent uses can neither take `remaining` below
 * zero nor pass the rate limit: the use is taken only while a use is left (or a refill is due) and the
 * key's window has room, as better-auth counts them. A window starts again once `rate_limit_time_window`
 * ms have passed since the last request. Undefined when the use was refused; the caller reads why.
 */
export async function claimApiKeyUse(db: Knex, id: string, now: Date): Promise<ApiKeyRow | undefined> {
  const refillDue = `(refill_interval IS NOT NULL AND refill_amount IS NOT NULL
    AND extract(epoch FROM (:now::timestamptz - coalesce(last_refill_at, created_at))) * 1000 > refill_interval)`;
  const limited = `(rate_limit_enabled AND rate_limit_time_window IS NOT NULL AND rate_limit_max IS NOT NULL)`;
  const windowOver = `(last_request IS NULL OR extract(epoch FROM (:now::timestamptz - last_request)) * 1000 > rate_limit_time_window)`;
  const result = await db.raw<{ rows: ApiKeyRow[] }>(
    `UPDATE api_keys SET
       remaining = CASE WHEN remaining IS NULL THEN NULL WHEN ${refillDue} THEN refill_amount - 1 ELSE remaining - 1 END,
       last_refill_at = CASE WHEN remaining IS NOT NULL AND ${refillDue} THEN :now::timestamptz ELSE last_refill_at END,
       request_count = CASE WHEN NOT ${limited} THEN request_count WHEN ${windowOver} THEN 1 ELSE request_count + 1 END,
       last_request = :now::timestamptz,
       updated_at = :now::timestamptz
     WHERE id = :id
       AND (remaining IS NULL OR remaining > 0 OR ${refillDue})
       AND (NOT ${limited} OR ${windowOver} OR request_count < rate_limit_max)
     RETURNING *`,
    { id, now },
  );
  return result.rows[0];
}
