import { randomId, type Knex } from "@tollgate/kit";
import { hashToken } from "../sessions/sessions.sql.js";

export interface VerificationRow {
  id: string;
  identifier: string;
  value: string;
  expires_at: Date;
  created_at: Date;
}

export type VerificationKind = "reset-password" | "delete-account" | "oauth-state" | "passkey-challenge";

/** Like session tokens, one-time tokens are kept only as digests. */
const identifierOf = (kind: VerificationKind, token: string) => `${kind}:${hashToken(token)}`;

/** Stores a new single-use token for `value` (a user id) and returns the token itself, once. */
export async function createVerification(db: Knex, kind: VerificationKind, value: string, lifetimeSeconds: number, length: number): Promise<string> {
  const token = randomId(length);
  await db<VerificationRow>("verifications").insert({
    id: randomId(32),
    identifier: identifierOf(kind, token),
    value,
    expires_at: new Date(Date.now() + lifetimeSeconds * 1000),
  });
  return token;
}

/** The value behind a live token, leaving it usable. */
export async function peekVerification(db: Knex, kind: VerificationKind, token: string): Promise<string | null> {
  const row = await db<VerificationRow>("verifications").where({ identifier: identifierOf(kind, token) }).first();
  return row && row.expires_at > new Date() ? row.value : null;
}

/** Uses a token up: it is deleted whether or not it was still valid, and only one caller ever gets its value. */
export async function consumeVerification(db: Knex, kind: VerificationKind, token: string): Promise<string | null> {
  const [row] = await db<VerificationRow>("verifications").where({ identifier: identifierOf(kind, token) }).delete().returning("*");
  return row && row.expires_at > new Date() ? row.value : null;
}
