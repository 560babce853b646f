import { ValidationError, type ValidationIssue } from "@tollgate/kit";
import type { PriceRow, SeatBounds } from "../products/prices.js";
import { maximumSeats, minimumSeats } from "../products/seat-tiers.js";

/**
 * The bounds a seller puts on a new checkout's seats, checked against its price as Polar does: only
 * a seat-based price takes them, and they stay within its tiers.
 */
export function checkedSeatBounds(price: PriceRow, bounds: SeatBounds): SeatBounds {
  if (bounds.min === null && bounds.max === null) return bounds;
  const issue = (field: "min_seats" | "max_seats", message: string, code: string, input: number): ValidationIssue => ({ location: "body", path: [field], message, code, input });
  if (price.amount_type !== "seat_based" || !price.seat_tiers) {
    const issues: ValidationIssue[] = [];
    if (bounds.min !== null) issues.push(issue("min_seats", "min_seats can only be set for seat-based pricing.", "value_error", bounds.min));
    if (bounds.max !== null) issues.push(issue("max_seats", "max_seats can only be set for seat-based pricing.", "value_error", bounds.max));
    throw new ValidationError(issues);
  }
  const least = minimumSeats(price.seat_tiers);
  const most = maximumSeats(price.seat_tiers);
  if (bounds.min !== null && bounds.min < least) throw new ValidationError([issue("min_seats", `min_seats must be at least ${least}.`, "greater_than_equal", bounds.min)]);
  if (most !== null && bounds.max !== null && bounds.max > most) throw new ValidationError([issue("max_seats", `max_seats must be at most ${most}.`, "less_than_equal", bounds.max)]);
  return bounds;
}
