import { describe, expect, it } from "vitest";
import { cardRequirements, checkoutAmounts } from "../../src/checkouts/pricing.js";
import type { SellerTax } from "../../src/taxes/calculation.js";
import { discountRow as discount } from "./rows.js";

const untaxed: SellerTax = { country: "US", tax_registrations: [], default_tax_behavior: "location" };
const inGermany: SellerTax = { country: "DE", tax_registrations: [{ country: "DE", state: null, rate: null }], default_tax_behavior: "location" };
const checkout = (country: string | null) => ({ amount: 2_500, currency: "eur", customer_billing_address: country ? { line1: null, line2: null, postal_code: null, city: null, state: null, country } : null, customer_tax_id: null });
const at = (seller: SellerTax, tax_behavior: string | null = null, discountOf: ReturnType<typeof discount> | null = null) => ({ seller, price: { tax_behavior }, discount: discountOf });

describe("a checkout's totals", () => {
  it("shows the amounts before and after the discount, with no tax (null) until an address tells", () => {
    expect(checkoutAmounts(checkout(null), at(untaxed, null, discount({ basis_points: 1_000 })))).toEqual({ amount: 2_500, discount_amount: 250, net_amount: 2_250, tax_amount: null, tax_behavior: null, total_amount: 2_250 });
    expect(checkoutAmounts(checkout("FR"), at(untaxed))).toEqual({ amount: 2_500, discount_amount: 0, net_amount: 2_500, tax_amount: 0, tax_behavior: "inclusive", total_amount: 2_500 });
  });

  it("takes VAT out of a price that includes it, and adds it to one that does not", () => {
    // 25.00 including 19%: 21.01 before tax, 3.99 of VAT.
    expect(checkoutAmounts(checkout("DE"), at(inGermany))).toEqual({ amount: 2_500, discount_amount: 0, net_amount: 2_101, tax_amount: 399, tax_behavior: "inclusive", total_amount: 2_500 });
    expect(checkoutAmounts(checkout("DE"), at(inGermany, "exclusive", discount({ basis_points: 1_000 })))).toEqual({ amount: 2_500, discount_amount: 250, net_amount: 2_250, tax_amount: 428, tax_behavior: "exclusive", total_amount: 2_678 });
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
