import type { Request } from "express";
import { API_KEY_HEADER, type IdentityClaims } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { userJson } from "../users/output.js";
import { findUserById } from "../users/users.sql.js";
import { findApiKeyById } from "./api-keys.sql.js";
import { keySessionJson } from "./output.js";

type UserKey = Extract<IdentityClaims, { kind: "user_api_key" }>;

/**
 * get-session for a request made with a user's API key (better-auth's enableSessionForAPIKeys): the
 * key's user, with a session made up from the key. The gateway has already counted the use.
 */
export async function apiKeySession(auth: Pick<Parts, "db" | "config">, identity: UserKey, req: Request) {
  const [key, user] = await Promise.all([findApiKeyById(auth.db, identity.key_id), findUserById(auth.db, identity.user_id)]);
  if (!key || !user) return null;
  const sessionEnd = new Date(Date.now() + auth.config.SESSION_EXPIRES_IN_SECONDS * 1000);
  const client = { ipAddress: req.clientAddress ?? null, userAgent: req.get("user-agent") ?? null };
  return { session: keySessionJson(key, req.get(API_KEY_HEADER) ?? "", sessionEnd, client), user: userJson(user) };
}
