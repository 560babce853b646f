import { describe, expect, it } from "vitest";
import { cardRequirements, checkoutAmounts } from "../../src/checkouts/pricing.js";
import { discountRow as discount } from "./rows.js";

describe("a checkout's totals", () => {
  it("shows a checkout's amounts: before and after the discount, and the total with no tax yet", () => {
    expect(checkoutAmounts({ amount: 2_500, currency: "usd" }, discount({ basis_points: 1_000 }))).toEqual({ amount: 2_500, discount_amount: 250, net_amount: 2_250, tax_amount: 0, total_amount: 2_250 });
    expect(checkoutAmounts({ amount: 2_500, currency: "usd" }, null)).toEqual({ amount: 2_500, discount_amount: 0, net_amount: 2_500, tax_amount: 0, total_amount: 2_500 });
  });
});

describe("what a checkout asks of the card", () => {
  it("asks for a payment when something is due, and for nothing on a free one-time product", () => {
    expect(cardRequirements(2_500, { recurring: false }, { amount_type: "fixed" })).toEqual({ paymentRequired: true, setupRequired: false, formRequired: true });
    expect(cardRequirements(0, { recurring: false }, { amount_type: "free" })).toEqual({ paymentRequired: false, setupRequired: false, formRequired: false });
  });

  it("keeps the card of a subscription that is not free even when nothing is due today (fully discounted)", () => {
    expect(cardRequirements(0, { recurring: true }, { amount_type: "fixed" })).toEqual({ paymentRequired: false, setupRequired: true, formRequired: true });
    expect(cardRequirements(0, { recurring: true }, { amount_type: "free" })).toEqual({ paymentRequired: false, setupRequired: false, formRequired: false });
  });
});
