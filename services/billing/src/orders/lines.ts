import { meteredAmount, type MeteredPrice, type PriceRow } from "../products/prices.js";
import type { ProductRow } from "../products/products.sql.js";
import { seatsLabel } from "../products/seat-tiers.js";

/** One line of an order: the product at its price, or a proration for part of a period. */
export interface OrderLine {
  label: string;
  amount: number;
  proration: boolean;
  product_price_id: string | null;
}

/** The usual line: the product at the price charged, with the seats bought of a seat-based price ("Team (5 seats)"). */
export const productLine = (product: Pick<ProductRow, "name">, price: Pick<PriceRow, "id">, amount: number, seats: number | null = null): OrderLine => ({
  label: seats === null ? product.name : seatsLabel(product.name, seats),
  amount,
  proration: false,
  product_price_id: price.id,
});

/** Amounts in the minor unit, as a currency shows them (Polar's labels show unit amounts in full). */
const money = (minorUnits: number, currency: string, full = false) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase(), ...(full ? { maximumFractionDigits: 14 } : {}) }).format(minorUnits / 100);

/** A metered price's line, labeled as Polar labels it: "API calls — (1,500 consumed units) × $0.05", " — Capped at $10.00" when the cap applies. */
export function meteredLine(price: MeteredPrice, meterName: string, units: number): OrderLine {
  const { amount, capped } = meteredAmount(price, units);
  const consumed = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 }).format(Math.max(0, units));
  const cap = capped ? ` — Capped at ${money(amount, price.price_currency)}` : "";
  return { label: `${meterName} — (${consumed} consumed units) × ${money(Number(price.unit_amount), price.price_currency, true)}${cap}`, amount, proration: false, product_price_id: price.id };
}
