import { describe, expect, it } from "vitest";
import type { DiscountRow } from "../../src/discounts/discounts.sql.js";
import { amountOff, discountForPeriod, discountProblemOf } from "../../src/discounts/rules.js";
import { discountRow as discount } from "./rows.js";

const NOW = new Date("2026-03-01T12:00:00Z");
const FIRST_PERIOD = new Date("2026-03-01T00:00:00Z");

describe("what a discount takes off", () => {
  it("takes a percentage off, rounded to the nearest minor unit", () => {
    expect(amountOff(discount({ basis_points: 2_000 }), 2_500, "usd")).toBe(500);
    expect(amountOff(discount({ basis_points: 3_333 }), 1_000, "usd")).toBe(333);
    expect(amountOff(discount({ basis_points: 10_000 }), 1_999, "usd")).toBe(1_999);
  });

  it("takes a fixed amount off in its own currency only, never more than the price", () => {
    const fiveOff = discount({ type: "fixed", basis_points: null, amount: 500, currency: "usd" });
    expect(amountOff(fiveOff, 2_500, "usd")).toBe(500);
    expect(amountOff(fiveOff, 300, "usd")).toBe(300);
    expect(amountOff(fiveOff, 2_500, "eur")).toBe(0);
  });

  it("takes the same off the first payment whether it lasts once, forever or some months", () => {
    for (const lasting of [{ duration: "once" }, { duration: "forever" }, { duration: "repeating", duration_in_months: 3 }] as const) {
      expect(amountOff(discount(lasting), 2_000, "usd")).toBe(400);
    }
  });

  it("takes nothing off without a discount, or off a free price", () => {
    expect(amountOff(null, 2_000, "usd")).toBe(0);
    expect(amountOff(discount({}), 0, "usd")).toBe(0);
  });
});

describe("whether a discount may be used", () => {
  it("may be used within its dates and redemptions, on any product when it names none", () => {
    expect(discountProblemOf(discount({ starts_at: new Date("2026-02-01"), ends_at: new Date("2026-04-01"), max_redemptions: 10, redemptions_count: 9 }), [], "product_1", "usd", NOW)).toBeNull();
  });

  it("says why it may not: not started, expired, used up, another currency, another product", () => {
    const at = (overrides: Partial<DiscountRow>, limitedTo: string[] = [], currency = "usd") => discountProblemOf(discount(overrides), limitedTo, "product_1", currency, NOW);
    expect(at({ starts_at: new Date("2026-03-02") })).toBe("This discount code is not valid yet.");
    expect(at({ ends_at: NOW })).toBe("This discount code has expired.");
    expect(at({ max_redemptions: 3, redemptions_count: 3 })).toBe("This discount code has been used up.");
    expect(at({ type: "fixed", basis_points: null, amount: 500, currency: "eur" })).toBe("This discount code is not valid for this currency.");
    expect(at({}, ["product_2"])).toBe("This discount code is not valid for this product.");
    expect(at({}, ["product_2", "product_1"])).toBeNull();
  });

  it("lets a percentage discount be used in any currency", () => {
    expect(discountProblemOf(discount({ type: "percentage" }), [], "product_1", "jpy", NOW)).toBeNull();
  });
});

describe("a subscription's discount, period after period", () => {
  const subscription = { amount: 1_000, currency: "usd", discount_applied_at: FIRST_PERIOD };
  const lasting = (overrides: Partial<DiscountRow>) => discount({ duration: "forever", ...overrides });

  it("takes a forever discount off every period", () => {
    expect(discountForPeriod(subscription, lasting({ duration: "forever" }), new Date("2027-03-01T00:00:00Z"))).toEqual({ amount: 200, appliedAt: FIRST_PERIOD });
  });

  it("takes a repeating discount off for its months from when it was first applied, then stops", () => {
    const threeMonths = lasting({ duration: "repeating", duration_in_months: 3 });
    expect(discountForPeriod(subscription, threeMonths, new Date("2026-05-01T00:00:00Z")).amount).toBe(200);
    expect(discountForPeriod(subscription, threeMonths, new Date("2026-06-01T00:00:00Z")).amount).toBe(0);
  });

  it("takes a once discount off its first order only, and starts one applied by an update at the renewal", () => {
    const once = lasting({ duration: "once" });
    const renewal = new Date("2026-04-01T00:00:00Z");
    expect(discountForPeriod(subscription, once, renewal).amount).toBe(0);
    expect(discountForPeriod({ ...subscription, discount_applied_at: null }, once, renewal)).toEqual({ amount: 200, appliedAt: renewal });
  });

  it("takes a fixed discount in another currency off no period", () => {
    expect(discountForPeriod(subscription, lasting({ type: "fixed", basis_points: null, amount: 300, currency: "eur" }), new Date("2026-04-01T00:00:00Z")).amount).toBe(0);
  });

  it("takes nothing off without a discount", () => {
    expect(discountForPeriod(subscription, null, new Date("2026-04-01T00:00:00Z"))).toEqual({ amount: 0, appliedAt: FIRST_PERIOD });
  });
});
