/** Days after the first failed renewal on which the charge is tried again; after the last, the subscription is revoked. */
export const DUNNING_DAYS = [2, 7, 14, 21] as const;
const DAY_MS = 86_400_000;

/**
 * When a past-due subscription's charge is tried next, after `failedRetries` retries have failed
 * (0: the renewal itself failed), counted from when it fell past due; null once every retry has
 * been spent, when it is revoked.
 */
export function retryAt(pastDueSince: Date, failedRetries: number): Date | null {
  const day = DUNNING_DAYS[failedRetries];
  return day === undefined ? null : new Date(pastDueSince.getTime() + day * DAY_MS);
}

/** The first retry of a charge that failed at `failedAt`. */
export const firstRetryAt = (failedAt: Date): Date => new Date(failedAt.getTime() + DUNNING_DAYS[0] * DAY_MS);
