import type { AccessTokenRow } from "./access-tokens.sql.js";

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
