import { randomId, type Knex } from "@tollgate/kit";

/** A user's authenticator: `secret` and `backup_codes` are sealed (see `TwoFactorSecrets`), never plain. */
export interface TwoFactorRow {
  id: string;
  user_id: string;
  secret: string;
  backup_codes: string;
  verified: boolean;
  last_used_step: number | null;
  created_at: Date;
}

export const findTwoFactor = (db: Knex, userId: string) => db<TwoFactorRow>("two_factors").where({ user_id: userId }).first();

/** A new, unverified authenticator for the user, replacing one never verified. */
export async function putUnverifiedTwoFactor(db: Knex, userId: string, sealed: { secret: string; backupCodes: string }): Promise<void> {
  await db<TwoFactorRow>("two_factors")
    .insert({ id: randomId(32), user_id: userId, secret: sealed.secret, backup_codes: sealed.backupCodes, verified: false, last_used_step: null })
    .onConflict("user_id")
    .merge(["secret", "backup_codes", "verified", "last_used_step"]);
}

export const deleteTwoFactor = (db: Knex, userId: string) => db<TwoFactorRow>("two_factors").where({ user_id: userId }).delete();

/**
 * Records that a code of `step` was used, only if no code of this step or a later one was: false when
 * another request got there first, so a code works once however many requests race with it.
 */
export async function claimTotpStep(db: Knex, id: string, step: number): Promise<boolean> {
  const claimed = await db<TwoFactorRow>("two_factors")
    .where({ id })
    .andWhere((query) => query.whereNull("last_used_step").orWhere("last_used_step", "<", step))
    .update({ last_used_step: step, verified: true });
  return claimed === 1;
}

/**
 * Swaps the sealed backup codes; given `expected`, only if they are still those, so that one code cannot
 * be spent twice by requests racing each other.
 */
export async function replaceBackupCodes(db: Knex, id: string, sealed: string, expected?: string): Promise<boolean> {
  const row = db<TwoFactorRow>("two_factors").where({ id });
  if (expected !== undefined) void row.andWhere({ backup_codes: expected });
  return (await row.update({ backup_codes: sealed })) === 1;
}
