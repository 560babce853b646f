import { z } from "zod";
import { invalidField, ValidationError, type ValidationIssue } from "@tollgate/kit";
import { maximumSeats, minimumSeats, seatsAmount, seatTiersProblem, sortedTiers, type SeatTiers } from "./seat-tiers.js";

/** What the smallest charge is in a few currencies, in minor units (Polar's list); 50 elsewhere. */
const MINIMUM_AMOUNT: Record<string, number> = { gbp: 30, mxn: 10, thb: 10, jpy: 50, krw: 50, huf: 17_500, czk: 1_500, inr: 6_000, hkd: 400 };
const MAXIMUM_AMOUNT = 99_999_999;
export const minimumAmount = (currency: string) => MINIMUM_AMOUNT[currency] ?? 50;
/** A metered price's unit amount stays below this: its column (numeric(20, 12)) has 8 digits before the point. */
const UNIT_AMOUNT_LIMIT = 1e8;

const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, { error: "A three-letter ISO currency code such as usd" })
  .transform((code) => code.toLowerCase())
  .optional();
const taxBehavior = z.enum(["location", "inclusive", "exclusive"]).nullish();
/** An amount in the minor unit, within what a card processor charges at most (Stripe's bound, as Polar keeps it). */
export const priceAmount = z.int().min(0).max(MAXIMUM_AMOUNT);

/** A seat-based price's tiers as a seller gives them (Polar's ProductPriceSeatTiers); volume unless told. */
const seatTiersInput = z.object({
  seat_tier_type: z.enum(["volume", "graduated"]).default("volume"),
  tiers: z
    .array(
      z.object({
        min_seats: z.int().min(1),
        max_seats: z.int().min(1).nullish().transform((value) => value ?? null),
        // A tier may be free: Polar allows 0 per seat.
        price_per_seat: priceAmount,
      }),
    )
    .min(1),
});

/** A new price, one of Polar's amount types. */
export const priceCreate = z.discriminatedUnion("amount_type", [
  z.object({ amount_type: z.literal("fixed"), price_currency: currency, tax_behavior: taxBehavior, price_amount: priceAmount }),
  z.object({ amount_type: z.literal("free"), price_currency: currency, tax_behavior: taxBehavior }),
  z.object({
    amount_type: z.literal("custom"),
    price_currency: currency,
    tax_behavior: taxBehavior,
    minimum_amount: priceAmount.default(50),
    maximum_amount: priceAmount.nullish(),
    preset_amount: priceAmount.nullish(),
  }),
  z.object({
    amount_type: z.literal("metered_unit"),
    price_currency: currency,
    tax_behavior: taxBehavior,
    meter_id: z.string().min(1),
    // Fractions of the minor unit are allowed (0.01 cent a call), as far as a numeric(20, 12) column holds them.
    unit_amount: z
      .union([z.number().lt(UNIT_AMOUNT_LIMIT), z.string().regex(/^\d{1,8}(\.\d{1,12})?$/, { error: "At most 8 digits before the point and 12 after it" })])
      .transform((value) => String(value))
      .refine((value) => Number(value) > 0, { error: "Must be greater than 0" }),
    cap_amount: priceAmount.nullish(),
  }),
  z.object({ amount_type: z.literal("seat_based"), price_currency: currency, tax_behavior: taxBehavior, seat_tiers: seatTiersInput }),
]);
export type PriceCreate = z.output<typeof priceCreate>;

/** On update, a price to keep is named by its id; anything else is a new price. */
export const priceUpdate = z.union([z.object({ id: z.string() }).strict(), priceCreate]);

export interface PriceRow {
  id: string;
  product_id: string;
  amount_type: PriceCreate["amount_type"];
  price_currency: string;
  tax_behavior: string | null;
  price_amount: number | null;
  minimum_amount: number | null;
  maximum_amount: number | null;
  preset_amount: number | null;
  unit_amount: string | null;
  cap_amount: number | null;
  meter_id: string | null;
  /** A seat-based price's tiers, sorted. */
  seat_tiers: SeatTiers | null;
  /** A metered price's meter, as a product's prices are read with it (PRODUCT_PARTS). */
  meter?: { id: string; name: string; unit: string; custom_label: string | null; custom_multiplier: number | null } | null;
  is_archived: boolean;
  position: number;
  created_at: Date;
  modified_at: Date | null;
}

/**
 * Polar's rules for a product's prices, each problem reported where it sits (`prices.<i>.<field>`):
 * amounts at or above the currency's smallest charge, custom bounds in order, metered prices on
 * recurring products only, seat tiers that follow on from each other, and at most one fixed, free,
 * custom or seat-based price per currency.
 */
export function checkPrices(prices: { price: PriceCreate | { id: string }; index: number; currency: string; type: PriceRow["amount_type"] }[], recurring: boolean): void {
  const issues: ValidationIssue[] = [];
  const problem = (index: number, field: string | null, message: string, input?: unknown) =>
    issues.push({ location: "body", path: ["prices", index, ...(field ? [field] : [])], message, code: "value_error", input });
  const staticCurrencies = new Set<string>();
  for (const { price, index, currency, type } of prices) {
    if (type !== "metered_unit") {
      if (staticCurrencies.has(currency)) problem(index, null, `Only one fixed, free, custom or seat-based price per currency (${currency})`);
      staticCurrencies.add(currency);
    } else if (!recurring) problem(index, "amount_type", "Metered prices are for recurring products only", type);
    if (!("amount_type" in price)) continue;
    const least = minimumAmount(currency);
    const positiveOrZero = (field: string, value: number | null | undefined) => {
      if (value !== null && value !== undefined && value > 0 && value < least) problem(index, field, `Must be 0 or at least ${least}`, value);
    };
    if (price.amount_type === "fixed" && price.price_amount < least) problem(index, "price_amount", `Must be at least ${least}`, price.price_amount);
    if (price.amount_type === "custom") {
      positiveOrZero("minimum_amount", price.minimum_amount);
      positiveOrZero("preset_amount", price.preset_amount);
      if (price.maximum_amount != null && price.maximum_amount < price.minimum_amount) problem(index, "maximum_amount", "Must not be less than minimum_amount", price.maximum_amount);
      const preset = price.preset_amount;
      if (preset != null && preset > 0 && (preset < price.minimum_amount || (price.maximum_amount != null && preset > price.maximum_amount))) {
        problem(index, "preset_amount", "Must lie between minimum_amount and maximum_amount", preset);
      }
    }
    if (price.amount_type === "seat_based") {
      const tiersProblem = seatTiersProblem(price.seat_tiers.tiers);
      if (tiersProblem) issues.push({ location: "body", path: ["prices", index, "seat_tiers", "tiers"], message: tiersProblem, code: "value_error", input: price.seat_tiers.tiers });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/** The columns of a new price row. */
export function priceColumns(price: PriceCreate, currency: string) {
  return {
    amount_type: price.amount_type,
    price_currency: currency,
    tax_behavior: price.tax_behavior ?? null,
    price_amount: price.amount_type === "fixed" ? price.price_amount : null,
    minimum_amount: price.amount_type === "custom" ? price.minimum_amount : null,
    maximum_amount: price.amount_type === "custom" ? (price.maximum_amount ?? null) : null,
    preset_amount: price.amount_type === "custom" ? (price.preset_amount ?? null) : null,
    unit_amount: price.amount_type === "metered_unit" ? price.unit_amount : null,
    cap_amount: price.amount_type === "metered_unit" ? (price.cap_amount ?? null) : null,
    meter_id: price.amount_type === "metered_unit" ? price.meter_id : null,
    seat_tiers: price.amount_type === "seat_based" ? { seat_tier_type: price.seat_tiers.seat_tier_type, tiers: sortedTiers(price.seat_tiers.tiers) } : null,
  };
}

/** A price as Polar shows it: the fields of its amount type, every one present. */
export function priceJson(price: PriceRow) {
  const common = {
    created_at: price.created_at,
    modified_at: price.modified_at,
    id: price.id,
    source: "catalog",
    amount_type: price.amount_type,
    price_currency: price.price_currency,
    tax_behavior: price.tax_behavior,
    is_archived: price.is_archived,
    product_id: price.product_id,
  };
  switch (price.amount_type) {
    case "fixed":
      return { ...common, price_amount: price.price_amount };
    case "custom":
      return { ...common, minimum_amount: price.minimum_amount, maximum_amount: price.maximum_amount, preset_amount: price.preset_amount };
    case "metered_unit":
      return { ...common, unit_amount: String(Number(price.unit_amount)), cap_amount: price.cap_amount, meter_id: price.meter_id, meter: price.meter };
    case "seat_based": {
      const tiers = price.seat_tiers ?? { seat_tier_type: "volume", tiers: [] };
      return { ...common, seat_tiers: { ...tiers, minimum_seats: minimumSeats(tiers), maximum_seats: maximumSeats(tiers) } };
    }
    default:
      return common;
  }
}

/** Amount types a checkout can sell. */
const SELLABLE = new Set<PriceRow["amount_type"]>(["fixed", "custom", "free", "metered_unit", "seat_based"]);

export const isSellable = (price: PriceRow) => SELLABLE.has(price.amount_type) && !price.is_archived;

/**
 * The product's price a checkout sells, or a subscription moves to: the one named, else its first
 * sellable price in the currency. A metered price is chosen only when the product has no other: it is billed by usage at
 * each renewal, beside the price the subscription starts with.
 */
export function chosenPrice(product: { id: string; prices: PriceRow[] }, currency: string | null, priceId: string | null | undefined, field: (string | number)[]): PriceRow {
  const { prices } = product;
  if (priceId) {
    const named = prices.find((price) => price.id === priceId);
    if (!named || !isSellable(named)) throw invalidField(["product_price_id"], "Price not found, archived, or not one a checkout can sell yet", priceId);
    return named;
  }
  const metered = (price: PriceRow) => price.amount_type === "metered_unit";
  const sellable = prices.filter(isSellable).sort((a, b) => Number(metered(a)) - Number(metered(b)));
  const chosen = sellable.find((price) => price.price_currency === currency) ?? (currency === null ? sellable[0] : undefined);
  if (!chosen) throw invalidField(field, currency ? `The product has no price in ${currency.toUpperCase()} that a checkout can sell` : "The product has no price a checkout can sell", product.id);
  return chosen;
}

/** Bounds a checkout puts on the seats, within the price's own (its `min_seats` and `max_seats`). */
export interface SeatBounds {
  min: number | null;
  max: number | null;
}

const seatRefusal = (field: (string | number)[], message: string, code: string, input: number) => new ValidationError([{ location: "body", path: field, message, code, input }]);

/**
 * How many seats are sold of the price, as Polar decides: none (null) unless it is seat-based, and
 * then those asked for or else the fewest allowed, within its tiers narrowed by the checkout's bounds.
 */
export function seatsFor(price: PriceRow, requested: number | null | undefined, bounds: SeatBounds = { min: null, max: null }, field: (string | number)[] = ["seats"]): number | null {
  if (price.amount_type !== "seat_based" || !price.seat_tiers) {
    if (requested !== null && requested !== undefined) throw invalidField(field, "Seats can only be set for seat-based pricing.", requested);
    return null;
  }
  const least = Math.max(minimumSeats(price.seat_tiers), bounds.min ?? 0);
  const tierMost = maximumSeats(price.seat_tiers);
  const most = tierMost === null ? bounds.max : Math.min(tierMost, bounds.max ?? tierMost);
  const seats = requested ?? least;
  if (seats < least) throw seatRefusal(field, `Minimum ${least} seats required.`, "greater_than_equal", seats);
  if (most !== null && seats > most) throw seatRefusal(field, `Maximum ${most} seats allowed.`, "less_than_equal", seats);
  return seats;
}

/**
 * What the chosen price costs before any discount: its amount, nothing when free or metered, for a
 * seat-based price what its seats cost by its tiers, and for a pay-what-you-want price what the
 * customer asked for (or the preset), within its bounds.
 */
export function amountFor(price: PriceRow, requested: number | null | undefined, field: (string | number)[], seats: number | null = null): number {
  // A metered price costs nothing up front: its usage is billed at each renewal.
  if (price.amount_type === "free" || price.amount_type === "metered_unit") return 0;
  if (price.amount_type === "seat_based") {
    if (!price.seat_tiers || seats === null) throw new Error(`price ${price.id} is seat-based: its seats are needed for its amount`);
    return seatsAmount(price.seat_tiers, seats);
  }
  if (price.amount_type === "fixed") return price.price_amount ?? 0;
  const minimum = price.minimum_amount ?? minimumAmount(price.price_currency);
  const amount = requested ?? price.preset_amount ?? minimum;
  // Polar lets a pay-what-you-want price be 0 ("free, or pay what you want").
  if (amount !== 0 && amount < minimum) throw invalidField(field, `Must be at least ${minimum} (or 0)`, amount);
  if (price.maximum_amount !== null && amount > price.maximum_amount) throw invalidField(field, `Must be at most ${price.maximum_amount}`, amount);
  return amount;
}

export type MeteredPrice = Pick<PriceRow, "id" | "unit_amount" | "cap_amount" | "price_currency">;

/**
 * What a metered price bills for `units` consumed beyond the credits: unit_amount × units, rounded
 * half up to the minor unit as Polar does, and no more than the cap.
 */
export function meteredAmount(price: MeteredPrice, units: number): { amount: number; capped: boolean } {
  // Twelve decimals of unit amount times a double: fifteen significant digits is what they hold exactly.
  const exact = Number((Number(price.unit_amount) * Math.max(0, units)).toPrecision(15));
  const rounded = Math.floor(exact + 0.5);
  return price.cap_amount !== null && rounded > price.cap_amount ? { amount: price.cap_amount, capped: true } : { amount: rounded, capped: false };
}
