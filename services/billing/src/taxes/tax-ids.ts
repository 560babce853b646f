import { invalidField } from "@tollgate/kit";
import { isEuCountry } from "./rates.js";

/** The types of tax number Tollgate reads, as Polar (and Stripe) name them. */
export const TAX_ID_FORMATS = ["eu_vat", "gb_vat", "ch_vat", "no_vat", "is_vat", "au_abn", "nz_gst", "ca_bn", "ca_gst_hst", "us_ein", "in_gst", "jp_cn", "sg_uen", "br_cnpj", "mx_rfc", "tr_tin", "ua_vat", "ru_inn"] as const;
export type TaxIdFormat = (typeof TAX_ID_FORMATS)[number];

/** Member states' VAT numbers after their prefix (Greece's prefix is EL), as each state issues them. */
const EU_VAT_NUMBERS: Record<string, RegExp> = {
  AT: /^U\d{8}$/, BE: /^[01]\d{9}$/, BG: /^\d{9,10}$/, CY: /^\d{8}[A-Z]$/, CZ: /^\d{8,10}$/, DE: /^\d{9}$/, DK: /^\d{8}$/,
  EE: /^\d{9}$/, EL: /^\d{9}$/, ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/, FI: /^\d{8}$/, FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, HR: /^\d{11}$/,
  HU: /^\d{8}$/, IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/, IT: /^\d{11}$/, LT: /^(\d{9}|\d{12})$/, LU: /^\d{8}$/,
  LV: /^\d{11}$/, MT: /^\d{8}$/, NL: /^\d{9}B\d{2}$/, PL: /^\d{10}$/, PT: /^\d{9}$/, RO: /^\d{2,10}$/, SE: /^\d{10}01$/,
  SI: /^\d{8}$/, SK: /^\d{10}$/,
};

/** Other countries' business tax numbers, written without spaces, dots or dashes. */
const OTHER_NUMBERS: Record<string, [TaxIdFormat, RegExp][]> = {
  GB: [["gb_vat", /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/]],
  CH: [["ch_vat", /^CHE\d{9}(MWST|TVA|IVA)?$/]],
  LI: [["ch_vat", /^CHE\d{9}(MWST|TVA|IVA)?$/]],
  NO: [["no_vat", /^(NO)?\d{9}MVA$/]],
  IS: [["is_vat", /^\d{5,6}$/]],
  AU: [["au_abn", /^\d{11}$/]],
  NZ: [["nz_gst", /^\d{8,9}$/]],
  CA: [["ca_gst_hst", /^\d{9}RT\d{4}$/], ["ca_bn", /^\d{9}$/]],
  US: [["us_ein", /^\d{9}$/]],
  IN: [["in_gst", /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/]],
  JP: [["jp_cn", /^\d{13}$/]],
  SG: [["sg_uen", /^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/]],
  BR: [["br_cnpj", /^\d{14}$/]],
  MX: [["mx_rfc", /^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/]],
  TR: [["tr_tin", /^\d{10}$/]],
  UA: [["ua_vat", /^\d{12}$/]],
  RU: [["ru_inn", /^(\d{10}|\d{12})$/]],
};

export interface ParsedTaxId {
  value: string;
  format: TaxIdFormat;
}

/**
 * A tax number read for a country: written as its authority writes it (capitals, no spaces, dots or
 * dashes; an EU VAT number with its state's prefix, added when left off), with its type — or why it
 * cannot be one. Only the format is checked: nothing is looked up.
 */
export function parseTaxId(raw: string, country: string): ParsedTaxId | { problem: string } {
  const compact = raw.toUpperCase().replace(/[\s.\-/]/g, "");
  if (isEuCountry(country)) {
    const prefix = country === "GR" ? "EL" : country;
    const number = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
    const pattern = EU_VAT_NUMBERS[prefix];
    return pattern?.test(number) ? { value: `${prefix}${number}`, format: "eu_vat" } : { problem: `This is not a valid VAT number for ${country}.` };
  }
  const formats = OTHER_NUMBERS[country];
  if (!formats) return { problem: `Tax IDs from ${country} are not supported.` };
  const known = formats.find(([, pattern]) => pattern.test(compact));
  return known ? { value: compact, format: known[0] } : { problem: `This is not a valid tax ID for ${country}.` };
}

/** The type of a tax number kept for a country, or null when it is not (or no longer) one of its formats. */
export function taxIdFormatOf(value: string | null, country: string | null | undefined): TaxIdFormat | null {
  if (!value || !country) return null;
  const parsed = parseTaxId(value, country);
  return "format" in parsed ? parsed.format : null;
}

/**
 * A tax number given with a billing country, as kept: checked for the country and written as its
 * authority writes it; refused (422 at `path`) when it is not one of the country's, or when there is
 * no country to read it for.
 */
export function checkedTaxId(taxId: string | null, country: string | null | undefined, path: string[]): string | null {
  if (!taxId) return null;
  if (!country) throw invalidField(path, "Give a billing address with its country to give a tax ID: its format depends on the country", taxId);
  const parsed = parseTaxId(taxId, country);
  if ("problem" in parsed) throw invalidField(path, parsed.problem, taxId);
  return parsed.value;
}

/** A customer's tax number as Polar shows it: the number and its type (null for one kept before Tollgate read them). */
export const shownTaxId = (value: string | null, country: string | null | undefined): [string, TaxIdFormat | null] | null => (value === null ? null : [value, taxIdFormatOf(value, country)]);
