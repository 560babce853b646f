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
