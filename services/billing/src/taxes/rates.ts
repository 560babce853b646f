/** Tax rates are kept in thousandths of a percent (19_000 = 19%), fine enough for New York's 8.875%. */
export const RATE_SCALE = 100_000;

/**
 * The EU member states' standard VAT rates in thousandths of a percent, as they stood on
 * 1 January 2026 (the European Commission's "VAT rates applied in the Member States"). A seller
 * registered for VAT in one of them charges its rate unless they set another; no service is asked.
 */
export const EU_STANDARD_RATES: Readonly<Record<string, number>> = {
  AT: 20_000, BE: 21_000, BG: 20_000, CY: 19_000, CZ: 21_000, DE: 19_000, DK: 25_000, EE: 24_000, ES: 21_000,
  FI: 25_500, FR: 20_000, GR: 24_000, HR: 25_000, HU: 27_000, IE: 23_000, IT: 22_000, LT: 21_000, LU: 17_000,
  LV: 21_000, MT: 18_000, NL: 21_000, PL: 23_000, PT: 23_000, RO: 21_000, SE: 25_000, SI: 22_000, SK: 23_000,
};

export const isEuCountry = (country: string | null | undefined): boolean => country != null && country in EU_STANDARD_RATES;

/** A registration for "EU": every member state at its standard rate, as a seller under the One-Stop Shop charges. */
export const EU_ONE_STOP_SHOP = "EU";

/** Countries whose prices are shown before tax, so "location" means exclusive there (as Polar decides). */
const TAX_EXCLUSIVE_COUNTRIES = new Set(["US", "CA", "IN"]);

/** Countries where tax depends on the state or province, so an address there needs one to be taxed. */
export const STATE_COUNTRIES = new Set(["US", "CA"]);

export const pricesShownBeforeTax = (country: string) => TAX_EXCLUSIVE_COUNTRIES.has(country);

/** A state or province as its code ("NY"), whether written so or as ISO 3166-2 does ("US-NY"). */
export const stateCode = (country: string, state: string | null | undefined): string | null => {
  const code = state?.trim().toUpperCase() ?? "";
  return (code.startsWith(`${country}-`) ? code.slice(country.length + 1) : code) || null;
};
