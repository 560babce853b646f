import { describe, expect, it } from "vitest";
import { meteredLine } from "../../src/orders/lines.js";

const price = (unitAmount: string, capAmount: number | null = null) => ({ id: "price", unit_amount: unitAmount, cap_amount: capAmount, price_currency: "usd" });

describe("a metered price's line", () => {
  it("is labeled with the meter, the units billed and the unit amount in full", () => {
    expect(meteredLine(price("0.5"), "API calls", 1_500)).toEqual({ label: "API calls — (1,500 consumed units) × $0.005", amount: 750, proration: false, product_price_id: "price" });
    expect(meteredLine(price("100", 5_000), "Seats", 80).label).toBe("Seats — (80 consumed units) × $1.00 — Capped at $50.00");
    expect(meteredLine(price("100"), "Seats", -3).label).toBe("Seats — (0 consumed units) × $1.00");
  });
});
