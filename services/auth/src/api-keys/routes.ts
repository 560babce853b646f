import { randomInt } from "node:crypto";
import type { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { authError } from "../http/errors.js";
import { SuccessAnswer } from "../http/schemas.js";
import type { Parts } from "../parts.js";
import { findCurrentSession, requireSession } from "../sessions/current-session.js";
import { deleteApiKey, deleteExpiredApiKeys, insertApiKey, listApiKeys, ORGANIZATION_KEYS, updateApiKey, USER_KEYS, type ApiKeyChanges } from "./api-keys.sql.js";
import { apiKeyJson } from "./output.js";
import { configurationOf, requireManagedKey, requireOrganizationPermission } from "./owners.js";
import { ApiKey, ApiKeyChange, ApiKeyCreation, ApiKeyDeletion, ApiKeyList, ApiKeyListQuery, ApiKeyQuery, CreatedApiKey } from "./schemas.js";

/** better-auth's api-key defaults: key length, and the bounds of names, prefixes and lifetimes (in days). */
const KEY_LENGTH = 64;
const START_LENGTH = 6;
const NAME_LENGTH = { min: 1, max: 32 };
const PREFIX_LENGTH = { min: 1, max: 32 };
const EXPIRES_IN_DAYS = { min: 1, max: 365 };
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A new key: the prefix, then random letters (better-auth's alphabet), from the CSPRNG. */
function newKey(prefix: string | undefined): string {
  let key = prefix ?? "";
  for (let index = 0; index < KEY_LENGTH; index++) key += LETTERS[randomInt(LETTERS.length)];
  return key;
}

type ServerOnlyFields = Pick<z.output<typeof ApiKeyCreation>, "refillAmount" | "refillInterval" | "rateLimitTimeWindow" | "rateLimitMax" | "rateLimitEnabled" | "permissions">;

/** Limits, refills and permissions are the server's to set: better-auth refuses them from a client. */
function refuseServerOnly(body: ServerOnlyFields & { remaining?: number | null }): void {
  const { refillAmount, refillInterval, rateLimitTimeWindow, rateLimitMax, rateLimitEnabled, permissions, remaining } = body;
  const sent = [refillAmount, refillInterval, rateLimitTimeWindow, rateLimitMax, rateLimitEnabled, permissions, remaining];
  if (sent.some((value) => value !== undefined && value !== null)) throw authError(400, "SERVER_ONLY_PROPERTY");
}

function checkName(name: string): void {
  if (name.length < NAME_LENGTH.min || name.length > NAME_LENGTH.max) throw authError(400, "INVALID_NAME_LENGTH");
}

/** When a key made or changed now with `expiresIn` seconds expires; better-auth bounds it in days. */
function expiryOf(expiresIn: number): Date {
  const days = expiresIn / 86_400;
  if (days < EXPIRES_IN_DAYS.min) throw authError(400, "EXPIRES_IN_IS_TOO_SMALL");
  if (days > EXPIRES_IN_DAYS.max) throw authError(400, "EXPIRES_IN_IS_TOO_LARGE");
  return new Date(Date.now() + expiresIn * 1000);
}

function metadataOf(metadata: unknown): Record<string, unknown> {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) throw authError(400, "INVALID_METADATA_TYPE");
  return metadata as Record<string, unknown>;
}

const SORT_COLUMNS = { createdAt: "created_at", updatedAt: "updated_at", name: "name", expiresAt: "expires_at", lastRequest: "last_request" } as const;

/** better-auth's api-key plugin: a signed-in user's keys, and the keys of organizations they may manage. */
export function apiKeyEndpoints(auth: Parts): Endpoint[] {
  const { db, config } = auth;
  return [
    defineEndpoint(
      "/api-key/create",
      { method: "POST", body: ApiKeyCreation, response: CreatedApiKey, summary: "Make an API key; the key is in this answer only", tag: "API keys" },
      async ({ body, identity, req }) => {
        refuseServerOnly(body);
        const current = await findCurrentSession(auth, identity, req);
        if (!current || body.userId !== undefined) throw authError(401, "UNAUTHORIZED_SESSION");
        const configId = configurationOf(body.configId, body.organizationId);
        let referenceId = current.user.id;
        if (configId === ORGANIZATION_KEYS) {
          if (!body.organizationId) throw authError(400, "ORGANIZATION_ID_REQUIRED");
          await requireOrganizationPermission(auth, current.user.id, body.organizationId, "create");
          referenceId = body.organizationId;
        }
        const metadata = body.metadata === undefined ? null : metadataOf(body.metadata);
        const expiresAt = body.expiresIn ? expiryOf(body.expiresIn) : null;
        if (body.prefix !== undefined && (body.prefix.length < PREFIX_LENGTH.min || body.prefix.length > PREFIX_LENGTH.max)) throw authError(400, "INVALID_PREFIX_LENGTH");
        if (body.name !== undefined) checkName(body.name);
        const key = newKey(body.prefix);
        const row = await insertApiKey(db, key, {
          config_id: configId,
          reference_id: referenceId,
          name: body.name ?? null,
          start: key.slice(0, START_LENGTH),
          prefix: body.prefix ?? null,
          enabled: true,
          expires_at: expiresAt,
          remaining: null,
          refill_amount: null,
          refill_interval: null,
          rate_limit_enabled: true,
          rate_limit_time_window: config.API_KEY_RATE_LIMIT_WINDOW_MS,
          rate_limit_max: config.API_KEY_RATE_LIMIT_MAX,
          permissions: null,
          metadata,
        });
        await deleteExpiredApiKeys(db, new Date());
        return { ...apiKeyJson(row), key };
      },
    ),
    defineEndpoint("/api-key/get", { method: "GET", query: ApiKeyQuery, response: ApiKey, summary: "One of the caller's API keys, without the key", tag: "API keys" }, async ({ query, identity, req }) => {
      const current = await requireSession(auth, identity, req);
      return apiKeyJson(await requireManagedKey(auth, current.user.id, query.id, query.configId, "read"));
    }),
    defineEndpoint(
      "/api-key/update",
      { method: "POST", body: ApiKeyChange, response: ApiKey, summary: "Rename, enable or disable an API key, or change its expiry or metadata", tag: "API keys" },
      async ({ body, identity, req }) => {
        const current = await findCurrentSession(auth, identity, req);
        if (!current || (body.userId !== undefined && body.userId !== current.user.id)) throw authError(401, "UNAUTHORIZED_SESSION");
        refuseServerOnly(body);
        const key = await requireManagedKey(auth, current.user.id, body.keyId, body.configId, "update");
        const changes: ApiKeyChanges = {};
        if (body.name !== undefined) {
          checkName(body.name);
          changes.name = body.name;
        }
        if (body.enabled !== undefined) changes.enabled = body.enabled;
        if (body.expiresIn !== undefined) changes.expires_at = body.expiresIn === null ? null : expiryOf(body.expiresIn);
        if (body.metadata !== undefined) changes.metadata = metadataOf(body.metadata);
        if (Object.keys(changes).length === 0) throw authError(400, "NO_VALUES_TO_UPDATE");
        const updated = await updateApiKey(db, key.id, changes);
        if (!updated) throw authError(404, "KEY_NOT_FOUND");
        return apiKeyJson(updated);
      },
    ),
    defineEndpoint(
      "/api-key/delete",
      { method: "POST", body: ApiKeyDeletion, response: SuccessAnswer, summary: "Delete an API key: it stops working at once", tag: "API keys" },
      async ({ body, identity, req }) => {
        const current = await requireSession(auth, identity, req);
        const key = await requireManagedKey(auth, current.user.id, body.keyId, body.configId, "delete");
        await deleteApiKey(db, key.id);
        return { success: true };
      },
    ),
    defineEndpoint(
      "/api-key/list",
      { method: "GET", query: ApiKeyListQuery, response: ApiKeyList, summary: "The caller's API keys, or an organization's", tag: "API keys" },
      async ({ query, identity, req }) => {
        const current = await requireSession(auth, identity, req);
        if (query.organizationId) await requireOrganizationPermission(auth, current.user.id, query.organizationId, "read");
        await deleteExpiredApiKeys(db, new Date());
        const { rows, total } = await listApiKeys(db, {
          configId: query.organizationId ? ORGANIZATION_KEYS : USER_KEYS,
          referenceId: query.organizationId ?? current.user.id,
          limit: query.limit,
          offset: query.offset,
          sortBy: query.sortBy && SORT_COLUMNS[query.sortBy],
          sortDirection: query.sortDirection,
        });
        return { apiKeys: rows.map(apiKeyJson), total, limit: query.limit, offset: query.offset };
      },
    ),
  ];
}
