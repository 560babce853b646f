import { describe, expect, it } from "vitest";
import { meteredAmount, meteredLine } from "../../src/orders/lines.js";

const price = (unitAmount: string, capAmount: number | null = null) => ({ id: "price", unit_amount: unitAmount, cap_amount: capAmount, price_currency: "usd" });

describe("a metered price's line", () => {
  it("rounds unit_amount × units half up to the minor unit, as Polar does", () => {
    expect(meteredAmount(price("100"), 1.994).amount).toBe(199);
    expect(meteredAmount(price("100"), 1.995).amount).toBe(200);
    expect(meteredAmount(price("0.000000000001"), 1_000_000).amount).toBe(0);
    expect(meteredAmount(price("0.000000000001"), 1_000_000_000_000).amount).toBe(1);
  });

  it("bills nothing for usage within the credits", () => {
    expect(meteredAmount(price("100"), -5)).toEqual({ amount: 0, capped: false });
  });

  it("stops at the cap", () => {
    expect(meteredAmount(price("100", 5_000), 1_000)).toEqual({ amount: 5_000, capped: true });
    expect(meteredAmount(price("100", 5_000), 1)).toEqual({ amount: 100, capped: false });
  });

  it("is labeled with the meter, the units billed and the unit amount in full", () => {
    expect(meteredLine(price("0.5"), "API calls", 1_500)).toEqual({ label: "API calls — (1,500 consumed units) × $0.005", amount: 750, proration: false, product_price_id: "price" });
    expect(meteredLine(price("100", 5_000), "Seats", 80).label).toBe("Seats — (80 consumed units) × $1.00 — Capped at $50.00");
    expect(meteredLine(price("100"), "Seats", -3).label).toBe("Seats — (0 consumed units) × $1.00");
  });
});
