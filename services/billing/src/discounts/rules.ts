import type { DiscountRow } from "./discounts.sql.js";

const DAY_MS = 86_400_000;

/** How much a discount takes off `amount`: a fixed one in its own currency only, never more than the amount. */
export function amountOff(discount: DiscountRow | null, amount: number, currency: string): number {
  if (!discount) return 0;
  if (discount.type === "percentage") return Math.min(amount, Math.round((amount * (discount.basis_points ?? 0)) / 10_000));
  return discount.currency === currency ? Math.min(amount, discount.amount ?? 0) : 0;
}

/**
 * Why a discount (limited to the products given, or to none) cannot be used on this product in this
 * currency now, or null when it can. The messages are the ones a buyer reads.
 */
export function discountProblemOf(discount: DiscountRow, limitedTo: string[], productId: string, currency: string, now: Date): string | null {
  if (discount.starts_at && discount.starts_at > now) return "This discount code is not valid yet.";
  if (discount.ends_at && discount.ends_at <= now) return "This discount code has expired.";
  if (discount.max_redemptions !== null && discount.redemptions_count >= discount.max_redemptions) return "This discount code has been used up.";
  if (discount.type === "fixed" && discount.currency !== currency) return "This discount code is not valid for this currency.";
  if (limitedTo.length > 0 && !limitedTo.includes(productId)) return "This discount code is not valid for this product.";
  return null;
}

/** A plan a discount is taken off period after period (a subscription): its amount, and when the discount was first taken off it. */
export interface DiscountedPlan {
  amount: number;
  currency: string;
  discount_applied_at: Date | null;
}

/**
 * What the plan's discount took off the period it is in now (`periodStart`), once it was applied: a
 * once discount counts in the period it was first taken off, not after.
 */
export function discountOfCurrentPeriod(plan: DiscountedPlan, discount: DiscountRow | null, periodStart: Date): number {
  if (!discount || plan.discount_applied_at === null) return 0;
  if (discount.duration === "once") return plan.discount_applied_at.getTime() === periodStart.getTime() ? amountOff(discount, plan.amount, plan.currency) : 0;
  return discountForPeriod(plan, discount, periodStart).amount;
}

/**
 * What the plan's discount takes off it for the period starting at `periodStart`, as Polar reckons
 * it: a forever discount always, a repeating one for its months from when it was first applied, a
 * once discount on its first order only. A discount applied by an update is first applied at the
 * next renewal. `appliedAt` is when it was first taken off, from now on.
 */
export function discountForPeriod(plan: DiscountedPlan, discount: DiscountRow | null, periodStart: Date): { amount: number; appliedAt: Date | null } {
  if (!discount) return { amount: 0, appliedAt: plan.discount_applied_at };
  const firstUse = plan.discount_applied_at === null;
  const appliedAt = plan.discount_applied_at ?? periodStart;
  const monthsIn = (periodStart.getTime() - appliedAt.getTime()) / (30 * DAY_MS);
  const applies = discount.duration === "forever" || (discount.duration === "repeating" && monthsIn < (discount.duration_in_months ?? 0)) || (discount.duration === "once" && firstUse);
  return { amount: applies ? amountOff(discount, plan.amount, plan.currency) : 0, appliedAt };
}
