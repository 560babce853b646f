import type { Knex } from "@tollgate/kit";
import { advanceClockOffset, clockOffsetOf } from "../organizations/organizations.sql.js";

/**
 * The seller's "now": real time moved ahead by the sandbox's test clock, so renewals, trials,
 * dunning and checkout expiry run as if that time had passed. Without an advance it is real time.
 */
export async function sellerNow(db: Knex, organizationId: string): Promise<Date> {
  return sellerClock({ clock_offset_seconds: await clockOffsetOf(db, organizationId) });
}

/** The same from a seller row already read. */
export const sellerClock = (seller: { clock_offset_seconds: number }): Date => new Date(Date.now() + seller.clock_offset_seconds * 1000);

/** The same in SQL, for a query joined to `organizations` as `alias`. */
export const sellerNowSql = (alias: string) => `(now() + make_interval(secs => ${alias}.clock_offset_seconds))`;

/** Moves the seller's clock ahead; it never goes back. */
export async function advanceClock(db: Knex, organizationId: string, seconds: number): Promise<Date> {
  await advanceClockOffset(db, organizationId, seconds);
  return sellerNow(db, organizationId);
}
