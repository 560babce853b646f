import { describe, expect, it } from "vitest";
import { maximumSeats, minimumSeats, seatsAmount, seatsLabel, seatTiersProblem, type SeatTiers } from "../../src/products/seat-tiers.js";

/** 1–4 seats at 10.00 each, 5–10 at 8.00, 11 and more at 6.00. */
const TIERS = [
  { min_seats: 1, max_seats: 4, price_per_seat: 1000 },
  { min_seats: 5, max_seats: 10, price_per_seat: 800 },
  { min_seats: 11, max_seats: null, price_per_seat: 600 },
];
const volume: SeatTiers = { seat_tier_type: "volume", tiers: TIERS };
const graduated: SeatTiers = { seat_tier_type: "graduated", tiers: TIERS };

describe("what seats cost", () => {
  it("prices every seat at the tier the count falls in, by volume", () => {
    expect([1, 4, 5, 10, 11, 50].map((seats) => seatsAmount(volume, seats))).toEqual([1000, 4000, 4000, 8000, 6600, 30_000]);
  });

  it("prices each range at its own tier, graduated", () => {
    // 4 × 10.00 + 6 × 8.00 + 2 × 6.00 for twelve.
    expect([1, 4, 5, 10, 12].map((seats) => seatsAmount(graduated, seats))).toEqual([1000, 4000, 4800, 8800, 10_000]);
  });

  it("costs nothing for no seats, and free tiers cost nothing", () => {
    expect(seatsAmount(volume, 0)).toBe(0);
    const firstFree: SeatTiers = { seat_tier_type: "graduated", tiers: [{ min_seats: 1, max_seats: 3, price_per_seat: 0 }, { min_seats: 4, max_seats: null, price_per_seat: 500 }] };
    expect(seatsAmount(firstFree, 3)).toBe(0);
    expect(seatsAmount(firstFree, 5)).toBe(1000);
  });

  it("prices counts below the first tier by the first tier, and refuses counts past the last", () => {
    const fromThree: SeatTiers = { seat_tier_type: "volume", tiers: [{ min_seats: 3, max_seats: 5, price_per_seat: 700 }] };
    expect(seatsAmount(fromThree, 2)).toBe(1400);
    expect(() => seatsAmount(fromThree, 6)).toThrow("no tier covers 6 seats");
  });

  it("reads tiers in any order", () => {
    expect(seatsAmount({ seat_tier_type: "graduated", tiers: [...TIERS].reverse() }, 12)).toBe(10_000);
  });
});

describe("the seats a price sells", () => {
  it("runs from the first tier's start to the last tier's end (none: no limit)", () => {
    expect([minimumSeats(volume), maximumSeats(volume)]).toEqual([1, null]);
    const bounded: SeatTiers = { seat_tier_type: "volume", tiers: [{ min_seats: 6, max_seats: 9, price_per_seat: 1 }, { min_seats: 2, max_seats: 5, price_per_seat: 2 }] };
    expect([minimumSeats(bounded), maximumSeats(bounded)]).toEqual([2, 9]);
  });
});

describe("tiers a seller gives", () => {
  it("are accepted when contiguous with only the last one unbounded", () => {
    expect(seatTiersProblem(TIERS)).toBeNull();
    expect(seatTiersProblem([{ min_seats: 3, max_seats: 3, price_per_seat: 100 }])).toBeNull();
  });

  it("are refused, in Polar's words, with a gap, an overlap, an unbounded tier before the last, or a last tier ending before it starts", () => {
    expect(seatTiersProblem([{ min_seats: 1, max_seats: 4, price_per_seat: 1 }, { min_seats: 6, max_seats: null, price_per_seat: 1 }])).toBe("Gap or overlap between tiers: tier ending at 4 and tier starting at 6");
    expect(seatTiersProblem([{ min_seats: 1, max_seats: 5, price_per_seat: 1 }, { min_seats: 4, max_seats: null, price_per_seat: 1 }])).toBe("Gap or overlap between tiers: tier ending at 5 and tier starting at 4");
    expect(seatTiersProblem([{ min_seats: 1, max_seats: null, price_per_seat: 1 }, { min_seats: 5, max_seats: 9, price_per_seat: 1 }])).toBe("Only the last tier can have unlimited max_seats (None)");
    expect(seatTiersProblem([{ min_seats: 5, max_seats: 3, price_per_seat: 1 }])).toBe("minimum_seats must not exceed the last tier's max_seats, got 5 > 3");
  });
});

describe("an order line for seats", () => {
  it("names the product and its seats, as Polar's", () => {
    expect(seatsLabel("Team plan", 1)).toBe("Team plan (1 seat)");
    expect(seatsLabel("Team plan", 14)).toBe("Team plan (14 seats)");
  });
});
