import { EU_ONE_STOP_SHOP, EU_STANDARD_RATES, isEuCountry, pricesShownBeforeTax, RATE_SCALE, STATE_COUNTRIES, stateCode } from "./rates.js";
import { taxIdFormatOf } from "./tax-ids.js";

/** Where a seller charges tax: a country (or "EU" for every member state), a US state or Canadian province, and a rate in thousandths of a percent (null: the EU standard rate). */
export interface TaxRegistration {
  country: string;
  state: string | null;
  rate: number | null;
}

export type TaxBehaviorOption = "location" | "inclusive" | "exclusive";

/** What a seller says of their tax: where they are established, where they charge it, and their prices' default behaviour. */
export interface SellerTax {
  country: string | null;
  tax_registrations: TaxRegistration[];
  default_tax_behavior: string;
}

/** Who buys, for tax: where (the billing address), and the tax number a business gave. */
export interface BuyerPlace {
  address: { country: string; state: string | null } | null;
  taxId: string | null;
}

/**
 * How a sale is taxed: whether its prices include the tax, the rate (thousandths of a percent, 0 where the seller
 * does not charge tax), whether an EU business accounts for the VAT itself (reverse charge), and the
 * buyer's tax number as it stood.
 */
export interface TaxTerms {
  behavior: "inclusive" | "exclusive";
  rate: number;
  reverse_charge: boolean;
  customer_tax_id: string | null;
}

/** The rate a seller charges at an address, or null where they do not: a state's own registration before its country's, a country's before "EU". */
function rateAt(registrations: TaxRegistration[], country: string, state: string | null): number | null {
  const own = registrations.find((entry) => entry.country === country && entry.state !== null && entry.state === state) ?? registrations.find((entry) => entry.country === country && entry.state === null);
  if (own) return own.rate ?? EU_STANDARD_RATES[country] ?? 0;
  const oneStopShop = isEuCountry(country) && registrations.some((entry) => entry.country === EU_ONE_STOP_SHOP);
  return oneStopShop ? (EU_STANDARD_RATES[country] ?? null) : null;
}

/**
 * How a sale from `seller` at `price` to `buyer` is taxed, or null while the address does not tell
 * (no country yet, or a US or Canadian one without the state the seller's registrations there
 * depend on). A business in another member state with a valid EU VAT number buying from a seller in
 * the EU's VAT system pays no VAT: it accounts for it itself (reverse charge).
 */
export function taxTermsFor(seller: SellerTax, price: { tax_behavior: string | null }, buyer: BuyerPlace): TaxTerms | null {
  const address = buyer.address;
  if (!address?.country) return null;
  const { country } = address;
  const state = stateCode(country, address.state);
  const registrations = seller.tax_registrations;
  if (STATE_COUNTRIES.has(country) && !state && registrations.some((entry) => entry.country === country && entry.state !== null)) return null;
  const option = (price.tax_behavior ?? seller.default_tax_behavior) as TaxBehaviorOption;
  const behavior = option === "location" ? (pricesShownBeforeTax(country) ? "exclusive" : "inclusive") : option;
  const customerTaxId = buyer.taxId;
  const inEuVat = isEuCountry(seller.country) || registrations.some((entry) => isEuCountry(entry.country) || entry.country === EU_ONE_STOP_SHOP);
  const reverseCharge = inEuVat && isEuCountry(country) && country !== seller.country && taxIdFormatOf(customerTaxId, country) === "eu_vat";
  const rate = reverseCharge ? 0 : (rateAt(registrations, country, state) ?? 0);
  return { behavior, rate, reverse_charge: reverseCharge, customer_tax_id: customerTaxId };
}

/** The tax in an amount at `rate`: added on top (exclusive), or the part of it that is tax (inclusive). */
const taxIn = (amount: number, terms: TaxTerms) =>
  terms.behavior === "exclusive" ? Math.round((amount * terms.rate) / RATE_SCALE) : amount - Math.round((amount * RATE_SCALE) / (RATE_SCALE + terms.rate));

/** Shares of `total` in proportion to `weights`, in whole units, the last taking what rounding left. */
function shares(total: number, weights: number[]): number[] {
  const sum = weights.reduce((all, weight) => all + weight, 0);
  let left = total;
  return weights.map((weight, index) => {
    if (index === weights.length - 1) return left;
    const share = sum === 0 ? 0 : Math.round((total * weight) / sum);
    left -= share;
    return share;
  });
}

/**
 * An order's lines taxed: the discount spread over the lines in proportion, each line's tax worked
 * out on what it charges after its share of the discount. Amounts come back before tax, as orders
 * keep them — an inclusive price's line and discount less the tax in them — so that an order's net
 * is always its subtotal less its discount, and its total that plus its tax. Untaxed (null), the
 * lines are as given and the tax 0.
 */
export function taxedLines<Line extends { amount: number }>(lines: Line[], discountAmount: number, terms: TaxTerms | null): { lines: (Line & { tax_amount: number })[]; discount_amount: number; tax_amount: number } {
  if (!terms || terms.rate === 0) return { lines: lines.map((line) => ({ ...line, tax_amount: 0 })), discount_amount: discountAmount, tax_amount: 0 };
  const discounts = shares(discountAmount, lines.map((line) => line.amount));
  const taxed = lines.map((line, index) => {
    const charged = line.amount - (discounts[index] ?? 0);
    const tax = taxIn(charged, terms);
    // Inclusive: the line is shown before tax; the discount takes what is left of the difference.
    const amount = terms.behavior === "inclusive" ? line.amount - taxIn(line.amount, terms) : line.amount;
    return { line: { ...line, amount, tax_amount: tax }, net: charged - (terms.behavior === "inclusive" ? tax : 0) };
  });
  const subtotal = taxed.reduce((sum, { line }) => sum + line.amount, 0);
  const net = taxed.reduce((sum, entry) => sum + entry.net, 0);
  return { lines: taxed.map(({ line }) => line), discount_amount: subtotal - net, tax_amount: taxed.reduce((sum, { line }) => sum + line.tax_amount, 0) };
}
