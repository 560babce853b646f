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

export type VerificationKind = "reset-password" | "delete-account" | "oauth-state" | "two-factor-sign-in" | "two-factor-otp" | "trusted-device" | "passkey-challenge" | "magic-link";

/** Like session tokens, one-time tokens are kept only as digests. */
const identifierOf = (kind: VerificationKind, token: string) => `${kind}:${hashToken(token)}`;

/** Stores a new single-use token for `value` (a user id) and returns the token itself, once. */
export async function createVerification(db: Knex, kind: VerificationKind, value: string, lifetimeSeconds: number, length: number): Promise<string> {
  const token = randomId(length);
  await putVerification(db, kind, token, value, new Date(Date.now() + lifetimeSeconds * 1000));
  return token;
}

/** Stores `value` under a token the caller chose (one put back after use, or a key it derives), replacing what was there. */
export async function putVerification(db: Knex, kind: VerificationKind, token: string, value: string, expiresAt: Date): Promise<void> {
  await db<VerificationRow>("verifications")
    .insert({ id: randomId(32), identifier: identifierOf(kind, token), value, expires_at: expiresAt })
    .onConflict("identifier")
    .merge(["value", "expires_at"]);
}

/** The value behind a live token, leaving it usable. */
export async function peekVerification(db: Knex, kind: VerificationKind, token: string): Promise<string | null> {
  const row = await db<VerificationRow>("verifications").where({ identifier: identifierOf(kind, token) }).first();
  return row && row.expires_at > new Date() ? row.value : null;
}

/** Uses a token up: it is deleted whether or not it was still valid, and only one caller ever gets its value. */
export async function consumeVerification(db: Knex, kind: VerificationKind, token: string): Promise<string | null> {
  return (await takeVerification(db, kind, token))?.value ?? null;
}

/** Like `consumeVerification`, with the expiry, for a caller that may put the value back changed (an attempt counted). */
export async function takeVerification(db: Knex, kind: VerificationKind, token: string): Promise<Pick<VerificationRow, "value" | "expires_at"> | null> {
  const [row] = await db<VerificationRow>("verifications").where({ identifier: identifierOf(kind, token) }).delete().returning("*");
  return row && row.expires_at > new Date() ? row : null;
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
