import { activeLocale } from "./translate";

/**
 * How the app writes amounts and dates for people, in the active language. The currency always
 * comes from the price: a euro price reads "15,00 €" in German and "€15.00" in English.
 */

/** An amount in the currency's minor unit (cents for USD, yen for JPY), with its symbol: 1500, "usd" → "$15.00". */
export function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat(activeLocale(), { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A day as people write it: "July 5, 2026", "5. Juli 2026". */
export const longDate = (moment: Date | string) => new Date(moment).toLocaleDateString(activeLocale(), { dateStyle: "long" });

/** A day and time: "July 5, 2026 at 2:30 PM", "5 juillet 2026 à 14:30". */
export const longDateTime = (moment: Date | string) => new Date(moment).toLocaleString(activeLocale(), { dateStyle: "long", timeStyle: "short" });

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** How far a moment is from now, in the largest fitting unit: "in 3 days", "vor 2 Stunden". */
export function relativeTime(moment: Date | string, now = Date.now()): string {
  const seconds = (new Date(moment).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(activeLocale(), { numeric: "auto" });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds), "second");
}
