import { describe, expect, it } from "vitest";
import { DUNNING_DAYS, firstRetryAt, retryAt } from "../../src/subscriptions/dunning.js";

const PAST_DUE_SINCE = new Date("2026-03-01T12:00:00Z");

describe("dunning", () => {
  it("retries a failed renewal 2, 7, 14 and 21 days after it fell past due", () => {
    expect(DUNNING_DAYS.map((_, failedRetries) => retryAt(PAST_DUE_SINCE, failedRetries)?.toISOString())).toEqual([
      "2026-03-03T12:00:00.000Z",
      "2026-03-08T12:00:00.000Z",
      "2026-03-15T12:00:00.000Z",
      "2026-03-22T12:00:00.000Z",
    ]);
  });

  it("has no retry left after the fourth has failed: the subscription is revoked", () => {
    expect(retryAt(PAST_DUE_SINCE, 4)).toBeNull();
  });

  it("counts every retry from when the subscription fell past due, not from the last retry", () => {
    // A retry run late (the service was down) does not push the next one back.
    expect(retryAt(PAST_DUE_SINCE, 2)).toEqual(new Date("2026-03-15T12:00:00Z"));
  });

  it("tries a charge that failed again two days later", () => {
    expect(firstRetryAt(new Date("2026-12-31T00:00:00Z"))).toEqual(new Date("2027-01-02T00:00:00Z"));
    expect(firstRetryAt(PAST_DUE_SINCE)).toEqual(retryAt(PAST_DUE_SINCE, 0));
  });
});
