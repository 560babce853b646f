import { checkOrganizationPermission } from "@tollgate/proto";
import { authError } from "../http/errors.js";
import type { Parts } from "../parts.js";
import { findApiKeyById, ORGANIZATION_KEYS, USER_KEYS, type ApiKeyRow } from "./api-keys.sql.js";


export type ApiKeyAction = "create" | "read" | "update" | "delete";

/** The configuration a request is about, as better-auth picks it (a request that names an organization means its keys); an unknown id falls back to the default. */
export function configurationOf(configId: string | undefined, organizationId?: string): typeof USER_KEYS | typeof ORGANIZATION_KEYS {
  return configId === ORGANIZATION_KEYS || (configId === undefined && organizationId !== undefined) ? ORGANIZATION_KEYS : USER_KEYS;
}

/** The organization service owns roles: it says whether the user may do `action` to the organization's keys. */
export async function requireOrganizationPermission(auth: Pick<Parts, "request">, userId: string, organizationId: string, action: ApiKeyAction): Promise<void> {
  const answer = await auth.request(checkOrganizationPermission, { user_id: userId, organization_id: organizationId, permissions: { apiKey: [action] } });
  if (!answer.member) throw authError(403, "USER_NOT_MEMBER_OF_ORGANIZATION");
  if (!answer.allowed) throw authError(403, "INSUFFICIENT_API_KEY_PERMISSIONS");
}

/**
 * A key the user may `action`: their own, or an organization's they hold the permission in. Someone
 * else's key is not found rather than forbidden, so ids reveal nothing. A request that names no
 * configuration reaches keys of either (better-auth would look only among the default's).
 */
export async function requireManagedKey(
  auth: Pick<Parts, "db" | "request">,
  userId: string,
  keyId: string,
  configId: string | undefined,
  action: ApiKeyAction,
): Promise<ApiKeyRow> {
  const key = await findApiKeyById(auth.db, keyId);
  if (!key || (configId !== undefined && key.config_id !== configurationOf(configId))) throw authError(404, "KEY_NOT_FOUND");
  if (key.config_id === ORGANIZATION_KEYS) await requireOrganizationPermission(auth, userId, key.reference_id, action);
  else if (key.reference_id !== userId) throw authError(404, "KEY_NOT_FOUND");
  return key;
}
