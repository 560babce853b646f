import type { ProductWithParts } from "../products/products.sql.js";
import { maximumSeats, minimumSeats } from "../products/seat-tiers.js";

/**
 * Why a link cannot fix `seats` for the checkouts it opens, in Polar's words, or null when it can:
 * every product it sells must have a seat-based price whose tiers allow that many.
 */
export function seatLockProblem(seats: number, products: ProductWithParts[]): string | null {
  for (const product of products) {
    const tiers = product.prices.find((price) => price.amount_type === "seat_based" && !price.is_archived)?.seat_tiers;
    if (!tiers) return "Seats can only be preconfigured when all products use seat-based pricing.";
    const least = minimumSeats(tiers);
    const most = maximumSeats(tiers);
    if (seats < least || (most !== null && seats > most)) return `Product '${product.name}' allows between ${least} and ${most ?? "unlimited"} seats.`;
  }
  return null;
}
