import { describe, expect, it } from "vitest";
import type { OrderLine } from "../../src/orders/lines.js";
import { billableProrations, periodLeft, remainingTimeLine, unusedTimeLine } from "../../src/subscriptions/proration.js";

const PERIOD = { current_period_start: new Date("2026-03-01T00:00:00Z"), current_period_end: new Date("2026-03-31T00:00:00Z") };
const MID_PERIOD = new Date("2026-03-16T00:00:00Z");
const line = (label: string, amount: number): OrderLine => ({ label, amount, proration: true, product_price_id: "price_1" });

/** Moving from a plan of `from` to one of `to` at `now`: the two proration lines and what they come to. */
function change(from: number, to: number, now: Date) {
  const fraction = periodLeft(PERIOD, now);
  const lines = [remainingTimeLine("Pro", { id: "price_pro" }, to, fraction), unusedTimeLine({ amount: from, product_price_id: "price_basic" }, "Basic", fraction)];
  return { lines, net: lines.reduce((sum, each) => sum + each.amount, 0) };
}

describe("proration", () => {
  it("charges half the difference for an upgrade half way through the period", () => {
    const { lines, net } = change(1_000, 3_000, MID_PERIOD);
    expect(lines).toEqual([
      { label: "Remaining time on Pro", amount: 1_500, proration: true, product_price_id: "price_pro" },
      { label: "Unused time on Basic", amount: -500, proration: true, product_price_id: "price_basic" },
    ]);
    expect(net).toBe(1_000);
  });

  it("credits the difference for a downgrade, which the next order bills", () => {
    expect(change(3_000, 1_000, MID_PERIOD).net).toBe(-1_000);
  });

  it("charges a whole period's difference for a change on the day the period starts", () => {
    expect(change(1_000, 3_000, PERIOD.current_period_start).net).toBe(2_000);
  });

  it("charges nothing for a change at or after the period's end", () => {
    expect(periodLeft(PERIOD, PERIOD.current_period_end)).toBe(0);
    expect(periodLeft(PERIOD, new Date("2026-04-02T00:00:00Z"))).toBe(0);
    expect(change(1_000, 3_000, PERIOD.current_period_end).net).toBe(0);
  });

  it("names the plan left behind, or says it was the previous one when it is gone", () => {
    expect(unusedTimeLine({ amount: 1_000, product_price_id: "price_basic" }, undefined, 0.5).label).toBe("Unused time on the previous plan");
  });

  it("bills a credit only down to nothing, and keeps the rest for the next order", () => {
    const { billed, leftover } = billableProrations(1_000, [line("Unused time on Pro", -1_500), line("Remaining time on Basic", 200)]);
    expect(billed.map((each) => each.amount)).toEqual([-1_000, 200]);
    expect(leftover).toEqual([line("Unused time on Pro", -500)]);
  });

  it("bills every line as it is when the order stays above nothing", () => {
    const prorations = [line("Remaining time on Pro", 1_500), line("Unused time on Basic", -500)];
    expect(billableProrations(1_000, prorations)).toEqual({ billed: prorations, leftover: [] });
  });
});
