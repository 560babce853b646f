import type { PriceRow } from "../products/prices.js";
import type { ProductRow } from "../products/products.sql.js";

/** One line of an order: the product at its price, or a proration for part of a period. */
export interface OrderLine {
  label: string;
  amount: number;
  proration: boolean;
  product_price_id: string | null;
}

/** The usual line: the product at the price charged. */
export const productLine = (product: Pick<ProductRow, "name">, price: Pick<PriceRow, "id">, amount: number): OrderLine => ({ label: product.name, amount, proration: false, product_price_id: price.id });

/** Amounts in the minor unit, as a currency shows them (Polar's labels show unit amounts in full). */
const money = (minorUnits: number, currency: string, full = false) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase(), ...(full ? { maximumFractionDigits: 14 } : {}) }).format(minorUnits / 100);

type MeteredPrice = Pick<PriceRow, "id" | "unit_amount" | "cap_amount" | "price_currency">;

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

/** A metered price's line, labeled as Polar labels it: "API calls — (1,500 consumed units) × $0.05", " — Capped at $10.00" when the cap applies. */
export function meteredLine(price: MeteredPrice, meterName: string, units: number): OrderLine {
  const { amount, capped } = meteredAmount(price, units);
  const consumed = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 }).format(Math.max(0, units));
  const cap = capped ? ` — Capped at ${money(amount, price.price_currency)}` : "";
  return { label: `${meterName} — (${consumed} consumed units) × ${money(Number(price.unit_amount), price.price_currency, true)}${cap}`, amount, proration: false, product_price_id: price.id };
}
