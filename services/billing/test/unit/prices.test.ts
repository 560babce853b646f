import { ValidationError } from "@tollgate/kit";
import { describe, expect, it } from "vitest";
import { amountFor, chosenPrice, isSellable, meteredAmount, type PriceRow } from "../../src/products/prices.js";

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
    seat_tiers: null,
    is_archived: false,
    position: 0,
    created_at: NOW,
    modified_at: null,
    ...overrides,
  };
}

const product = (prices: PriceRow[]) => ({ id: "product_1", prices });

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

describe("what a metered price bills", () => {
  const metered = (unitAmount: string, capAmount: number | null = null) => ({ id: "price", unit_amount: unitAmount, cap_amount: capAmount, price_currency: "usd" });

  it("rounds unit_amount × units half up to the minor unit, as Polar does", () => {
    expect(meteredAmount(metered("100"), 1.994).amount).toBe(199);
    expect(meteredAmount(metered("100"), 1.995).amount).toBe(200);
    expect(meteredAmount(metered("0.000000000001"), 1_000_000).amount).toBe(0);
    expect(meteredAmount(metered("0.000000000001"), 1_000_000_000_000).amount).toBe(1);
  });

  it("bills nothing for usage within the credits", () => {
    expect(meteredAmount(metered("100"), -5)).toEqual({ amount: 0, capped: false });
  });

  it("stops at the cap", () => {
    expect(meteredAmount(metered("100", 5_000), 1_000)).toEqual({ amount: 5_000, capped: true });
    expect(meteredAmount(metered("100", 5_000), 1)).toEqual({ amount: 100, capped: false });
  });
});
