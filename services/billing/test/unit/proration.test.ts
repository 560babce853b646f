import { describe, expect, it } from "vitest";
import type { OrderLine } from "../../src/orders/lines.js";
import { billableProrations, periodLeft, remainingTimeLine, seatChangeLine, unusedTimeLine } from "../../src/subscriptions/proration.js";

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

describe("a change of seats", () => {
  const team = { ...PERIOD, amount: 3_000, seats: 3 };
  const toSeats = (seats: number, amount: number, now = MID_PERIOD) => seatChangeLine(team, { planName: "Team", price: { id: "price_team" }, seats, amount }, now);

  it("charges the difference for what is left of the period, in one line naming both counts and the dates", () => {
    expect(toSeats(6, 4_800)).toEqual({ label: "Team (3 → 6 seats) — From Mar 16, 2026 to Mar 31, 2026", amount: 900, proration: true, product_price_id: "price_team" });
  });

  it("credits fewer seats as remaining time, truncating toward nothing as Polar does", () => {
    // 1,000 less over a third of the period: 333.33…, so 333 back.
    expect(toSeats(2, 2_000, new Date("2026-03-21T00:00:00Z"))).toMatchObject({ label: "Remaining time on Team (3 → 2 seats) — From Mar 21, 2026 to Mar 31, 2026", amount: -333 });
  });

  it("bills nothing at the period's end, or when the new seats cost what the old did", () => {
    expect(toSeats(6, 4_800, PERIOD.current_period_end).amount).toBe(0);
    expect(toSeats(4, 3_000).amount).toBe(0);
  });
});
