import { describe, expect, it } from "vitest";
import { taxedLines, taxTermsFor, type SellerTax } from "../../src/taxes/calculation.js";
import { parseTaxId } from "../../src/taxes/tax-ids.js";

const seller = (country: string | null, registrations: SellerTax["tax_registrations"], default_tax_behavior = "location"): SellerTax => ({ country, tax_registrations: registrations, default_tax_behavior });
const place = (country: string, state: string | null = null, taxId: string | null = null) => ({ address: { country, state }, taxId });
const untaxedPrice = { tax_behavior: null };

describe("where a seller charges tax", () => {
  const french = seller("FR", [{ country: "FR", state: null, rate: null }, { country: "DE", state: null, rate: null }, { country: "US", state: "NY", rate: 8_875 }]);

  it("charges a member state's standard rate where the seller is registered, inclusive there by default", () => {
    expect(taxTermsFor(french, untaxedPrice, place("DE"))).toEqual({ behavior: "inclusive", rate: 19_000, reverse_charge: false, customer_tax_id: null });
    expect(taxTermsFor(french, untaxedPrice, place("FR"))).toMatchObject({ rate: 20_000 });
    expect(taxTermsFor(french, untaxedPrice, place("IT"))).toMatchObject({ rate: 0 });
  });

  it("lets a German business with a valid VAT number account for the VAT itself; a French one pays French VAT", () => {
    expect(taxTermsFor(french, untaxedPrice, place("DE", null, "DE123456789"))).toEqual({ behavior: "inclusive", rate: 0, reverse_charge: true, customer_tax_id: "DE123456789" });
    expect(taxTermsFor(french, untaxedPrice, place("FR", null, "FR12345678901"))).toMatchObject({ rate: 20_000, reverse_charge: false });
  });

  it("taxes a US state the seller is registered in on top of the price, and not the others; without the state it cannot tell", () => {
    expect(taxTermsFor(french, untaxedPrice, place("US", "NY"))).toMatchObject({ behavior: "exclusive", rate: 8_875 });
    expect(taxTermsFor(french, untaxedPrice, place("US", "TX"))).toMatchObject({ behavior: "exclusive", rate: 0 });
    expect(taxTermsFor(french, untaxedPrice, place("US"))).toBeNull();
  });

  it("charges every member state's rate under the One-Stop Shop, a price's own behaviour before the seller's default", () => {
    const oneStopShop = seller("NL", [{ country: "EU", state: null, rate: null }], "exclusive");
    expect(taxTermsFor(oneStopShop, untaxedPrice, place("HU"))).toMatchObject({ behavior: "exclusive", rate: 27_000 });
    expect(taxTermsFor(oneStopShop, { tax_behavior: "inclusive" }, place("FI"))).toMatchObject({ behavior: "inclusive", rate: 25_500 });
    expect(taxTermsFor(oneStopShop, untaxedPrice, place("GB"))).toMatchObject({ rate: 0 });
  });
});

describe("an order's lines taxed", () => {
  it("keeps amounts before tax, so net plus tax is what is charged, to the cent", () => {
    const inclusive = { behavior: "inclusive" as const, rate: 19_000, reverse_charge: false, customer_tax_id: null };
    const taxed = taxedLines([{ amount: 1_200 }, { amount: 300 }], 150, inclusive);
    const net = taxed.lines.reduce((sum, line) => sum + line.amount, 0) - taxed.discount_amount;
    expect(net + taxed.tax_amount).toBe(1_350);
    expect(taxed.lines.map((line) => line.tax_amount)).toEqual([172, 43]);
    expect(taxed.tax_amount).toBe(215);
  });

  it("adds tax per line on top of what each charges after its share of the discount", () => {
    const exclusive = { behavior: "exclusive" as const, rate: 20_000, reverse_charge: false, customer_tax_id: null };
    expect(taxedLines([{ amount: 1_000 }, { amount: -400 }], 0, exclusive)).toEqual({ lines: [{ amount: 1_000, tax_amount: 200 }, { amount: -400, tax_amount: -80 }], discount_amount: 0, tax_amount: 120 });
    expect(taxedLines([{ amount: 1_000 }], 0, null)).toEqual({ lines: [{ amount: 1_000, tax_amount: 0 }], discount_amount: 0, tax_amount: 0 });
  });
});

describe("tax numbers", () => {
  it("reads an EU VAT number with or without its prefix, spaces and dots, and refuses one of the wrong shape", () => {
    expect(parseTaxId("de 123.456.789", "DE")).toEqual({ value: "DE123456789", format: "eu_vat" });
    expect(parseTaxId("094259216", "GR")).toEqual({ value: "EL094259216", format: "eu_vat" });
    expect(parseTaxId("DE12345678", "DE")).toEqual({ problem: "This is not a valid VAT number for DE." });
  });

  it("knows other countries' business numbers, and says when a country's are not supported", () => {
    expect(parseTaxId("12-3456789", "US")).toEqual({ value: "123456789", format: "us_ein" });
    expect(parseTaxId("GB 123 4567 89", "GB")).toEqual({ value: "GB123456789", format: "gb_vat" });
    expect(parseTaxId("123456789RT0001", "CA")).toEqual({ value: "123456789RT0001", format: "ca_gst_hst" });
    expect(parseTaxId("1234", "AQ")).toEqual({ problem: "Tax IDs from AQ are not supported." });
  });
});
