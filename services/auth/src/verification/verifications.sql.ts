import { randomId, type Knex } from "@tollgate/kit";
import { hashToken } from "../sessions/sessions.sql.js";

export interface VerificationRow {
  id: string;
  identifier: string;
  value: string;
  expires_at: Date;
  /** Wrong tries at a mailed code so far. */
  attempts: number;
  created_at: Date;
}

export type VerificationKind = "reset-password" | "delete-account" | "oauth-state" | "magic-link";

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

/**
 * Stores a mailed code's digest under `identifier` (one per address and purpose), replacing any code
 * asked for before, with no wrong tries yet.
 */
export async function replaceCode(db: Knex, identifier: string, digest: string, lifetimeSeconds: number): Promise<void> {
  await db<VerificationRow>("verifications")
    .insert({ id: randomId(32), identifier, value: digest, attempts: 0, expires_at: new Date(Date.now() + lifetimeSeconds * 1000) })
    .onConflict("identifier")
    .merge(["id", "value", "attempts", "expires_at", "created_at"]);
}

/** A code's row, locked until the transaction ends, so concurrent tries are judged one after another. */
export const lockCode = (db: Knex, identifier: string) => db<VerificationRow>("verifications").where({ identifier }).forUpdate().first();

export async function countWrongTry(db: Knex, id: string): Promise<void> {
  await db<VerificationRow>("verifications").where({ id }).increment("attempts", 1);
}

export async function deleteCode(db: Knex, id: string): Promise<void> {
  await db<VerificationRow>("verifications").where({ id }).delete();
}
