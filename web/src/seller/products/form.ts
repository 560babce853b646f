import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import type { Interval, Price, PriceCreate, Product, ProductDetails } from "./products-api";
import { metadataText, parseMetadata } from "../../forms/metadata";
import { CURRENCIES, minorUnits } from "../../forms/money";

/**
 * A product in the seller's console, new or changed: its words, how often it is paid and for how long
 * it is tried, its prices (any of Polar's amount types, in several currencies), its images, the custom
 * fields its checkout asks, its benefits and metadata. Amounts are typed in the currency's main unit.
 */
const messages = defineMessages({
  aName: { id: "forms.product.name", defaultMessage: "Enter a name of at least 3 characters" },
  atMost: { id: "forms.product.descriptionTooLong", defaultMessage: "Keep the description under 4,000 characters" },
  amount: { id: "forms.amount.invalid", defaultMessage: "Enter an amount such as 19 or 19.99" },
  amountTooSmall: { id: "forms.amount.tooSmall", defaultMessage: "A paid price is at least 0.50" },
  zeroOrPaid: { id: "forms.amount.zeroOrPaid", defaultMessage: "Enter 0, or at least 0.50" },
  presetBelowMinimum: { id: "forms.amount.presetBelowMinimum", defaultMessage: "The suggested amount is at least the minimum" },
  unitAmount: { id: "forms.amount.unitAmount", defaultMessage: "Enter a price per unit above 0, such as 0.01" },
  meter: { id: "forms.product.meter", defaultMessage: "Choose the meter that counts the usage" },
  meteredOnce: { id: "forms.product.meteredOnce", defaultMessage: "Usage is billed on recurring products only" },
  count: { id: "forms.product.count", defaultMessage: "Enter a whole number from 1 to 999" },
  onePerCurrency: { id: "forms.product.onePerCurrency", defaultMessage: "One fixed, free, pay-what-you-want or per-seat price per currency" },
  seatCount: { id: "forms.product.seatCount", defaultMessage: "Enter a whole number of seats, 1 or more" },
  tierEnd: { id: "forms.product.tierEnd", defaultMessage: "Enter where this tier ends: more seats than it starts at" },
  seatAmount: { id: "forms.amount.perSeat", defaultMessage: "Enter a price per seat such as 10 or 9.99 (0 for free seats)" },
});

export const INTERVALS = ["day", "week", "month", "year"] as const satisfies readonly Interval[];
export const PRICE_TYPES = ["fixed", "custom", "free", "metered_unit", "seat_based"] as const;
export const SEAT_TIER_TYPES = ["volume", "graduated"] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

const AMOUNT = /^\d+([.,]\d{1,2})?$/;
const UNIT_AMOUNT = /^\d{1,6}([.,]\d{1,10})?$/;
/** Polar's floor for a paid amount, in minor units. */
const LEAST_PAID = 50;

/** A minor-unit amount as the form shows it: 1999 → "19.99", 1900 → "19". */
const mainUnits = (amount: number) => (amount % 100 === 0 ? String(amount / 100) : (amount / 100).toFixed(2));

const price = z.object({
  /** The live price this row shows, kept as it is unless the row is changed; "" for a new one. */
  id: z.string(),
  type: z.enum(PRICE_TYPES),
  currency: z.enum(CURRENCIES),
  amount: z.string(),
  preset: z.string(),
  meterId: z.string(),
  cap: z.string(),
  /** A per-seat price: how its tiers apply, the fewest seats sold, and each tier's end ("" for none, the last only) and price per seat. */
  tierType: z.enum(SEAT_TIER_TYPES),
  minSeats: z.string(),
  tiers: z.array(z.object({ upTo: z.string(), amount: z.string() })),
});
export type PriceRow = z.infer<typeof price>;
export type SeatTierRow = PriceRow["tiers"][number];

const SEATS = /^[1-9]\d{0,5}$/;

/** Where each tier of a per-seat row starts: at the fewest seats, then one past the tier before it. */
const tierStarts = (row: Pick<PriceRow, "minSeats" | "tiers">) => row.tiers.map((_, index) => (index === 0 ? Number(row.minSeats) : Number(row.tiers[index - 1]?.upTo) + 1));

const WHOLE_COUNT = /^([1-9]\d{0,2})$/;
const count = z.string().check(z.regex(WHOLE_COUNT, { error: () => t(messages.count) }));

/** The length a trial starts at once its unit is chosen, shown in the field to change: two weeks, or one of a longer unit. */
export const TRIAL_DEFAULTS: Record<Interval, string> = { day: "14", week: "2", month: "1", year: "1" };

export const productForm = z
  .object({
    name: z.string().check(z.trim(), z.minLength(3, { error: () => t(messages.aName) })),
    description: z.string().check(z.trim(), z.maxLength(4000, { error: () => t(messages.atMost) })),
    /** "" sells it once. */
    interval: z.union([z.literal(""), z.enum(INTERVALS)]),
    intervalCount: count,
    /** "" for no trial. */
    trialInterval: z.union([z.literal(""), z.enum(INTERVALS)]),
    /** Asked only with a trial interval: a trial is never a length nobody chose. */
    trialCount: z.string(),
    prices: z.array(price).check(z.minLength(1)),
    medias: z.array(z.object({ id: z.string(), name: z.string(), public_url: z.optional(z.string()) })),
    customFields: z.array(z.object({ id: z.string(), required: z.boolean() })),
    benefits: z.array(z.string()),
    metadata: metadataText,
  })
  .check(
    z.superRefine((form, context) => {
      if (form.trialInterval && !WHOLE_COUNT.test(form.trialCount.trim())) context.addIssue({ code: "custom", path: ["trialCount"], message: t(messages.count) });
      const problem = (index: number, field: keyof PriceRow, message: string) => context.addIssue({ code: "custom", path: ["prices", index, field], message });
      const staticCurrencies = new Set<string>();
      form.prices.forEach((row, index) => {
        if (row.type === "metered_unit") {
          if (!form.interval) problem(index, "type", t(messages.meteredOnce));
          if (!UNIT_AMOUNT.test(row.amount.trim()) || Number(row.amount.replace(",", ".")) <= 0) problem(index, "amount", t(messages.unitAmount));
          if (!row.meterId) problem(index, "meterId", t(messages.meter));
          if (row.cap.trim() && !AMOUNT.test(row.cap.trim())) problem(index, "cap", t(messages.amount));
          return;
        }
        if (staticCurrencies.has(row.currency)) problem(index, "currency", t(messages.onePerCurrency));
        staticCurrencies.add(row.currency);
        if (row.type === "seat_based") {
          if (!SEATS.test(row.minSeats.trim())) problem(index, "minSeats", t(messages.seatCount));
          const starts = tierStarts(row);
          row.tiers.forEach((tier, position) => {
            const at = (field: keyof SeatTierRow, message: string) => context.addIssue({ code: "custom", path: ["prices", index, "tiers", position, field], message });
            const last = position === row.tiers.length - 1;
            const bounded = tier.upTo.trim() !== "";
            if ((!last || bounded) && (!SEATS.test(tier.upTo.trim()) || Number(tier.upTo) < (starts[position] ?? 1))) at("upTo", t(messages.tierEnd));
            if (!AMOUNT.test(tier.amount.trim())) at("amount", t(messages.seatAmount));
          });
        }
        if (row.type === "fixed") {
          if (!AMOUNT.test(row.amount.trim())) problem(index, "amount", t(messages.amount));
          else if (minorUnits(row.amount) < LEAST_PAID) problem(index, "amount", t(messages.amountTooSmall));
        }
        if (row.type === "custom") {
          const zeroOrPaid = (field: "amount" | "preset", value: string) => {
            if (!AMOUNT.test(value.trim())) problem(index, field, t(messages.amount));
            else if (minorUnits(value) > 0 && minorUnits(value) < LEAST_PAID) problem(index, field, t(messages.zeroOrPaid));
          };
          zeroOrPaid("amount", row.amount);
          if (row.preset.trim()) {
            zeroOrPaid("preset", row.preset);
            if (AMOUNT.test(row.preset.trim()) && minorUnits(row.preset) < minorUnits(row.amount)) problem(index, "preset", t(messages.presetBelowMinimum));
          }
        }
      });
    }),
  );
export type ProductForm = z.infer<typeof productForm>;

export const newSeatTier = (): SeatTierRow => ({ upTo: "", amount: "" });

export const newPriceRow = (currency: PriceRow["currency"] = "usd"): PriceRow => ({
  id: "",
  type: "fixed",
  currency,
  amount: "",
  preset: "",
  meterId: "",
  cap: "",
  tierType: "volume",
  minSeats: "1",
  tiers: [newSeatTier()],
});

export const emptyProductForm = (): ProductForm => ({
  name: "",
  description: "",
  interval: "month",
  intervalCount: "1",
  trialInterval: "",
  trialCount: "",
  prices: [newPriceRow()],
  medias: [],
  customFields: [],
  benefits: [],
  metadata: "",
});

const knownCurrency = (code: string): PriceRow["currency"] => CURRENCIES.find((currency) => currency === code) ?? "usd";

/** A live price as a row of the form. */
function rowOf(price: Price): PriceRow {
  const row = { ...newPriceRow(knownCurrency(price.price_currency)), id: price.id, type: price.amount_type };
  switch (price.amount_type) {
    case "fixed":
      return { ...row, amount: mainUnits(price.price_amount) };
    case "custom":
      return { ...row, amount: mainUnits(price.minimum_amount), preset: price.preset_amount === null ? "" : mainUnits(price.preset_amount) };
    case "free":
      return row;
    case "metered_unit":
      return { ...row, amount: String(Number(price.unit_amount) / 100), meterId: price.meter_id, cap: price.cap_amount === null ? "" : mainUnits(price.cap_amount) };
    case "seat_based": {
      const { seat_tier_type: tierType = "volume", tiers, minimum_seats: minSeats } = price.seat_tiers;
      return { ...row, tierType, minSeats: String(minSeats), tiers: tiers.map((tier) => ({ upTo: tier.max_seats === null || tier.max_seats === undefined ? "" : String(tier.max_seats), amount: mainUnits(tier.price_per_seat) })) };
    }
  }
}

/** What the form shows of a product, to change it. */
export function productFormOf(product: Product): ProductForm {
  return {
    name: product.name,
    description: product.description ?? "",
    interval: product.recurring_interval ?? "",
    intervalCount: String(product.recurring_interval_count ?? 1),
    trialInterval: product.trial_interval ?? "",
    trialCount: product.trial_interval_count ? String(product.trial_interval_count) : "",
    prices: product.prices.filter((price) => !price.is_archived).map(rowOf),
    medias: product.medias.map(({ id, name, public_url }) => ({ id, name, public_url })),
    customFields: product.attached_custom_fields.map((field) => ({ id: field.custom_field_id, required: field.required })),
    benefits: product.benefits.map((benefit) => benefit.id),
    metadata: Object.keys(product.metadata).length > 0 ? JSON.stringify(product.metadata) : "",
  };
}

/** A row as a new price; a metered unit amount keeps its fractions of the minor unit ("0.001" dollars → "0.1" cents). */
function priceCreateOf(row: PriceRow): PriceCreate {
  const currency = row.currency;
  switch (row.type) {
    case "fixed":
      return { amount_type: "fixed", price_currency: currency, price_amount: minorUnits(row.amount) };
    case "custom":
      return { amount_type: "custom", price_currency: currency, minimum_amount: minorUnits(row.amount), preset_amount: row.preset.trim() ? minorUnits(row.preset) : null };
    case "free":
      return { amount_type: "free", price_currency: currency };
    case "metered_unit":
      return { amount_type: "metered_unit", price_currency: currency, meter_id: row.meterId, unit_amount: String(Number((Number(row.amount.replace(",", ".")) * 100).toFixed(10))), cap_amount: row.cap.trim() ? minorUnits(row.cap) : null };
    case "seat_based": {
      const starts = tierStarts(row);
      const tiers = row.tiers.map((tier, index) => ({ min_seats: starts[index] ?? 1, max_seats: tier.upTo.trim() ? Number(tier.upTo) : null, price_per_seat: minorUnits(tier.amount) }));
      return { amount_type: "seat_based", price_currency: currency, seat_tiers: { seat_tier_type: row.tierType, tiers } };
    }
  }
}

const sameRow = (a: PriceRow, b: PriceRow) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Prices as Polar takes them: a row left as it was keeps its live price (`{id}`); a changed or new row
 * is a new price, and the live ones not kept are archived by the API (orders still refer to them).
 */
export function pricesOf(rows: PriceRow[], live: Price[] = []): (PriceCreate | { id: string })[] {
  return rows.map((row) => {
    const existing = live.find((price) => price.id === row.id);
    return existing && sameRow(rowOf(existing), row) ? { id: row.id } : priceCreateOf(row);
  });
}

/** The product's own fields as the API takes them, on create and on update. */
export function productDetailsOf(form: ProductForm): ProductDetails {
  const recurring = form.interval !== "";
  return {
    name: form.name,
    description: form.description || null,
    recurring_interval: form.interval || null,
    recurring_interval_count: recurring ? Number(form.intervalCount) : null,
    trial_interval: recurring ? form.trialInterval || null : null,
    trial_interval_count: recurring && form.trialInterval ? Number(form.trialCount) : null,
    medias: form.medias.map((media) => media.id),
    attached_custom_fields: form.customFields.map((field) => ({ custom_field_id: field.id, required: field.required })),
    metadata: parseMetadata(form.metadata) ?? {},
  };
}

/** Where the API's refusals go on the form, for a form with `priceCount` price rows. */
export function productFieldsOf(priceCount: number): Record<string, string> {
  const fields: Record<string, string> = {
    name: "name",
    description: "description",
    recurring_interval: "interval",
    recurring_interval_count: "intervalCount",
    trial_interval: "trialInterval",
    trial_interval_count: "trialCount",
    metadata: "metadata",
  };
  for (let index = 0; index < priceCount; index++) {
    const row = `prices.${index}`;
    Object.assign(fields, {
      [row]: `${row}.currency`,
      [`${row}.amount_type`]: `${row}.type`,
      [`${row}.price_currency`]: `${row}.currency`,
      [`${row}.price_amount`]: `${row}.amount`,
      [`${row}.minimum_amount`]: `${row}.amount`,
      [`${row}.unit_amount`]: `${row}.amount`,
      [`${row}.preset_amount`]: `${row}.preset`,
      [`${row}.meter_id`]: `${row}.meterId`,
      [`${row}.cap_amount`]: `${row}.cap`,
      [`${row}.seat_tiers.tiers`]: `${row}.minSeats`,
    });
  }
  return fields;
}
