import type { DiscountRow } from "../../src/discounts/discounts.sql.js";

/** A seller's discount as its store reads it: 20 % off once, unless `overrides` say otherwise. */
export function discountRow(overrides: Partial<DiscountRow>): DiscountRow {
  return {
    id: "discount_1",
    organization_id: "seller_1",
    name: "Spring sale",
    type: "percentage",
    duration: "once",
    duration_in_months: null,
    amount: null,
    currency: null,
    basis_points: 2_000,
    code: "SPRING",
    starts_at: null,
    ends_at: null,
    max_redemptions: null,
    redemptions_count: 0,
    metadata: {},
    created_at: new Date("2026-03-01T00:00:00Z"),
    modified_at: null,
    deleted_at: null,
    ...overrides,
  };
}
