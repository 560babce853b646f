import { ValidationError } from "@tollgate/kit";
import { describe, expect, it } from "vitest";
import { amountFor, cardRequirements, checkoutAmounts, chosenPrice, discountAmountOf, discountProblemOf, isSellable } from "../../src/checkouts/pricing.js";
import type { PriceRow } from "../../src/products/prices.js";
import type { ProductWithParts } from "../../src/products/products.sql.js";
import type { DiscountRow } from "../../src/discounts/discounts.sql.js";
import { discountRow as discount } from "./rows.js";

const NOW = new Date("2026-03-01T12:00:00Z");

function price(overrides: Partial<PriceRow>): PriceRow {
  return {
    id: "price_1",
    product_id: "product_1",
    amount_type: "fixed",
    price_currency: "usd",
    tax_behavior: null,
    price_amount: 2_500,
    minimum_amount: null,
    maximum_amount: null,
    preset_amount: null,
    unit_amount: null,
    cap_amount: null,
    meter_id: null,
    is_archived: false,
    position: 0,
    created_at: NOW,
    modified_at: null,
    ...overrides,
  };
}

const product = (prices: PriceRow[]) => ({ id: "product_1", prices }) as ProductWithParts;

/** The field a validation error names, and its message. */
function refusal(act: () => unknown): { path: PropertyKey[]; message: string } {
  try {
    act();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const [issue] = error.issues;
    return { path: issue?.path ?? [], message: issue?.message ?? "" };
  }
  throw new Error("expected a validation error");
}

describe("what a checkout charges for a price", () => {
  it("charges a fixed price its amount, whatever the buyer asks", () => {
    expect(amountFor(price({ price_amount: 2_500 }), 100, ["amount"])).toBe(2_500);
  });

  it("charges nothing for a free price", () => {
    expect(amountFor(price({ amount_type: "free", price_amount: null }), 900, ["amount"])).toBe(0);
  });

  it("charges a pay-what-you-want price what the buyer chose, else the preset, else the minimum", () => {
    const tip = price({ amount_type: "custom", price_amount: null, minimum_amount: 500, preset_amount: 1_000, maximum_amount: 10_000 });
    expect(amountFor(tip, 1_500, ["amount"])).toBe(1_500);
    expect(amountFor(tip, null, ["amount"])).toBe(1_000);
    expect(amountFor({ ...tip, preset_amount: null }, undefined, ["amount"])).toBe(500);
  });

  it("lets a pay-what-you-want buyer pay nothing, but not less than the minimum", () => {
    const tip = price({ amount_type: "custom", price_amount: null, minimum_amount: 500 });
    expect(amountFor(tip, 0, ["amount"])).toBe(0);
    expect(refusal(() => amountFor(tip, 499, ["amount"]))).toEqual({ path: ["amount"], message: "Must be at least 500 (or 0)" });
  });

  it("holds a pay-what-you-want price to its maximum", () => {
    const tip = price({ amount_type: "custom", price_amount: null, minimum_amount: 500, maximum_amount: 5_000 });
    expect(amountFor(tip, 5_000, ["amount"])).toBe(5_000);
    expect(refusal(() => amountFor(tip, 5_001, ["amount"]))).toEqual({ path: ["amount"], message: "Must be at most 5000" });
  });

  it("takes the currency's own minimum when the seller set none: 30 pence, 50 cents", () => {
    const pounds = price({ amount_type: "custom", price_amount: null, price_currency: "gbp" });
    expect(amountFor(pounds, 30, ["amount"])).toBe(30);
    expect(refusal(() => amountFor(price({ amount_type: "custom", price_amount: null }), 49, ["amount"])).message).toBe("Must be at least 50 (or 0)");
  });
});

describe("which price a checkout sells", () => {
  const usd = price({ id: "usd", price_currency: "usd" });
  const eur = price({ id: "eur", price_currency: "eur" });
  const metered = price({ id: "metered", amount_type: "metered_unit", price_currency: "eur" });

  it("sells fixed, free, pay-what-you-want and metered prices that are not archived", () => {
    expect([usd, price({ amount_type: "free" }), price({ amount_type: "custom" }), metered].every(isSellable)).toBe(true);
    expect(isSellable({ ...usd, is_archived: true })).toBe(false);
  });

  it("starts a subscription on a metered price only when the product has no other, and charges nothing for it up front", () => {
    expect(chosenPrice(product([metered, eur]), "eur", null, ["product_id"]).id).toBe("eur");
    expect(chosenPrice(product([metered]), "eur", null, ["product_id"]).id).toBe("metered");
    expect(amountFor(metered, null, ["amount"])).toBe(0);
  });

  it("picks the product's price in the buyer's currency, passing over ones it cannot sell", () => {
    expect(chosenPrice(product([metered, usd, eur]), "eur", null, ["product_id"]).id).toBe("eur");
    expect(chosenPrice(product([usd, eur]), null, null, ["product_id"]).id).toBe("usd");
  });

  it("refuses a currency the product has no price in, and a named price it cannot sell", () => {
    expect(refusal(() => chosenPrice(product([usd]), "jpy", null, ["products", 0]))).toEqual({ path: ["products", 0], message: "The product has no price in JPY that a checkout can sell" });
    expect(refusal(() => chosenPrice(product([usd, { ...metered, is_archived: true }]), "usd", "metered", ["product_id"])).path).toEqual(["product_price_id"]);
  });
});

describe("what a discount takes off", () => {
  it("takes a percentage off, rounded to the nearest minor unit", () => {
    expect(discountAmountOf(discount({ basis_points: 2_000 }), 2_500, "usd")).toBe(500);
    expect(discountAmountOf(discount({ basis_points: 3_333 }), 1_000, "usd")).toBe(333);
  });

  it("takes a fixed amount off in its own currency only, never more than the price", () => {
    const fiveOff = discount({ type: "fixed", basis_points: null, amount: 500, currency: "usd" });
    expect(discountAmountOf(fiveOff, 2_500, "usd")).toBe(500);
    expect(discountAmountOf(fiveOff, 300, "usd")).toBe(300);
    expect(discountAmountOf(fiveOff, 2_500, "eur")).toBe(0);
  });

  it("takes the same off the first payment whether it lasts once, forever or some months", () => {
    for (const lasting of [{ duration: "once" }, { duration: "forever" }, { duration: "repeating", duration_in_months: 3 }] as const) {
      expect(discountAmountOf(discount(lasting), 2_000, "usd")).toBe(400);
    }
  });

  it("shows a checkout's amounts: before and after the discount, and the total with no tax yet", () => {
    expect(checkoutAmounts({ amount: 2_500, currency: "usd" }, discount({ basis_points: 1_000 }))).toEqual({ amount: 2_500, discount_amount: 250, net_amount: 2_250, tax_amount: 0, total_amount: 2_250 });
    expect(checkoutAmounts({ amount: 2_500, currency: "usd" }, null)).toEqual({ amount: 2_500, discount_amount: 0, net_amount: 2_500, tax_amount: 0, total_amount: 2_500 });
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
