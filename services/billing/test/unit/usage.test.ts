import { describe, expect, it } from "vitest";
import { nextCredit } from "../../src/subscriptions/usage.js";

const monthly = (units: number, rollover: boolean) => ({ meter_id: "meter", units, rollover });

describe("the credit a customer meter starts its next period with", () => {
  it("is the credit's units again when credits do not roll over", () => {
    expect(nextCredit({ credited_units: 100, consumed_units: 30 }, [monthly(100, false)])).toBe(100);
  });

  it("carries the whole units left unused over when they roll over", () => {
    expect(nextCredit({ credited_units: 100, consumed_units: 29.5 }, [monthly(100, true)])).toBe(170);
    expect(nextCredit({ credited_units: 100, consumed_units: 300 }, [monthly(100, true)])).toBe(100);
  });

  it("adds up every credit on the meter, carrying over only when all of them roll over", () => {
    expect(nextCredit({ credited_units: 150, consumed_units: 50 }, [monthly(100, true), monthly(50, true)])).toBe(250);
    expect(nextCredit({ credited_units: 150, consumed_units: 50 }, [monthly(100, true), monthly(50, false)])).toBe(150);
  });

  it("keeps what is left of credits no subscription renews (a one-time purchase's)", () => {
    expect(nextCredit({ credited_units: 40, consumed_units: 15 }, [])).toBe(25);
  });
});
