/**
 * A seat-based price's tiers (Polar's ProductPriceSeatTiers): contiguous seat ranges, each with a
 * price per seat, the last one possibly unbounded. Volume prices every seat at the tier the count
 * falls in; graduated prices each range at its own tier.
 */

export type SeatTierType = "volume" | "graduated";

export interface SeatTier {
  min_seats: number;
  max_seats: number | null;
  price_per_seat: number;
}

/** As the price row keeps them (`product_prices.seat_tiers`), tiers sorted by `min_seats`. */
export interface SeatTiers {
  seat_tier_type: SeatTierType;
  tiers: SeatTier[];
}

/** The tiers sorted by where they start, as Polar keeps and shows them. */
export const sortedTiers = (tiers: SeatTier[]): SeatTier[] => [...tiers].sort((a, b) => a.min_seats - b.min_seats);

/**
 * What is wrong with the tiers, in Polar's words, or null: only the last tier may be unbounded,
 * each tier starts where the one before ended, and a bounded last tier ends no earlier than it
 * starts (Polar's bound check, which it only applies to a single tier, applied to the last one).
 */
export function seatTiersProblem(tiers: SeatTier[]): string | null {
  const sorted = sortedTiers(tiers);
  for (const [index, current] of sorted.entries()) {
    const next = sorted[index + 1];
    if (!next) break;
    if (current.max_seats === null) return "Only the last tier can have unlimited max_seats (None)";
    if (next.min_seats !== current.max_seats + 1) return `Gap or overlap between tiers: tier ending at ${current.max_seats} and tier starting at ${next.min_seats}`;
  }
  const last = sorted.at(-1);
  if (last && last.max_seats !== null && last.max_seats < last.min_seats) return `minimum_seats must not exceed the last tier's max_seats, got ${last.min_seats} > ${last.max_seats}`;
  return null;
}

/** The fewest seats the price sells: where its first tier starts. */
export const minimumSeats = (tiers: SeatTiers): number => sortedTiers(tiers.tiers)[0]?.min_seats ?? 1;

/** The most seats the price sells: where its last tier ends (null: no limit). */
export const maximumSeats = (tiers: SeatTiers): number | null => sortedTiers(tiers.tiers).at(-1)?.max_seats ?? null;

/**
 * What `seats` seats cost, in the minor unit, as Polar reckons it: volume, every seat at the rate of
 * the tier the count falls in; graduated, each tier's range at its own rate. Counts below the first
 * tier's start are priced by the first tier, as Polar's do; a count past the last tier's end is not
 * for sale, and callers refuse it before asking.
 */
export function seatsAmount(tiers: SeatTiers, seats: number): number {
  if (!Number.isInteger(seats) || seats < 0) throw new Error(`not a seat count: ${seats}`);
  const sorted = sortedTiers(tiers.tiers);
  const last = sorted.at(-1)?.max_seats;
  if (last !== null && last !== undefined && seats > last) throw new Error(`no tier covers ${seats} seats`);
  if (tiers.seat_tier_type === "volume") {
    const tier = sorted.find((candidate) => candidate.max_seats === null || seats <= candidate.max_seats);
    return (tier?.price_per_seat ?? 0) * seats;
  }
  let total = 0;
  let before = 0;
  for (const tier of sorted) {
    if (before >= seats) break;
    const upTo = tier.max_seats === null ? seats : Math.min(seats, tier.max_seats);
    total += (upTo - before) * tier.price_per_seat;
    before = upTo;
  }
  return total;
}

/** An order line's label for seats, as Polar's: "Team plan (5 seats)". */
export const seatsLabel = (productName: string, seats: number): string => `${productName} (${seats} seat${seats === 1 ? "" : "s"})`;
