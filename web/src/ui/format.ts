/** How the app writes amounts and dates for people, the same on every screen. */

/** An amount in the currency's minor unit (cents for USD, yen for JPY), with its symbol: 1500, "usd" → "$15.00". */
export function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A day as people write it: "5 July 2026". */
export const longDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "long" });
