import { productFieldsJson } from "../products/output.js";
import type { DiscountRow, DiscountWithProducts } from "./discounts.sql.js";

/** A discount's terms as Polar shows them: the fields of its type and duration. */
const termsJson = (discount: DiscountRow) => ({
  type: discount.type,
  duration: discount.duration,
  ...(discount.duration === "repeating" ? { duration_in_months: discount.duration_in_months } : {}),
  ...(discount.type === "fixed"
    ? { amount: discount.amount, currency: discount.currency, amounts: { [discount.currency ?? "usd"]: discount.amount } }
    : { basis_points: discount.basis_points }),
});

/** A discount as Polar shows it: the fields of its type and duration, with the products it is for. */
export const discountJson = (discount: DiscountWithProducts) => ({
  created_at: discount.created_at,
  modified_at: discount.modified_at,
  id: discount.id,
  metadata: discount.metadata,
  name: discount.name,
  code: discount.code,
  starts_at: discount.starts_at,
  ends_at: discount.ends_at,
  max_redemptions: discount.max_redemptions,
  // Tollgate limits redemptions in all, not per customer.
  max_redemptions_per_customer: null,
  redemptions_count: discount.redemptions_count,
  organization_id: discount.organization_id,
  products: discount.products.map(productFieldsJson),
  ...termsJson(discount),
});

export type DiscountJson = ReturnType<typeof discountJson>;

/** A discount as a checkout shows it: its terms and code, not its bookkeeping. */
export const checkoutDiscountJson = (discount: DiscountRow) => ({ id: discount.id, name: discount.name, code: discount.code, ...termsJson(discount) });
