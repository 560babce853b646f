import type { DiscountRow } from "../discounts/discounts.sql.js";
import { amountOff } from "../discounts/rules.js";
import type { PriceRow } from "../products/prices.js";
import type { CheckoutCatalog, CheckoutRow } from "./checkouts.sql.js";

/** The amounts Polar shows on a checkout; tax is 0 until a tax engine exists. */
export function checkoutAmounts(checkout: Pick<CheckoutRow, "amount" | "currency">, discount: DiscountRow | null) {
  const discountAmount = amountOff(discount, checkout.amount, checkout.currency);
  const netAmount = checkout.amount - discountAmount;
  const taxAmount = 0;
  return { amount: checkout.amount, discount_amount: discountAmount, net_amount: netAmount, tax_amount: taxAmount, total_amount: netAmount + taxAmount };
}

/**
 * What a checkout asks of the buyer's card, as Polar decides it: a payment when there is something
 * to pay, and a card kept for the renewals of a subscription that is not free. Shown on the checkout
 * (`is_payment_*`), required on confirm, and what the payment worker asks the processor for.
 */
export function cardRequirements(totalAmount: number, product: { recurring: boolean }, price: Pick<PriceRow, "amount_type">) {
  const paymentRequired = totalAmount > 0;
  const setupRequired = product.recurring && price.amount_type !== "free";
  return { paymentRequired, setupRequired, formRequired: paymentRequired || setupRequired };
}

/** One checkout's part of the catalog: its products in its order, the chosen one at its price, its seller and discount. */
export function offerOf(catalog: CheckoutCatalog, checkout: Pick<CheckoutRow, "id" | "organization_id" | "product_ids" | "product_id" | "product_price_id" | "discount_id">) {
  const products = checkout.product_ids.flatMap((id) => catalog.products.get(id) ?? []);
  const product = products.find((candidate) => candidate.id === checkout.product_id);
  const price: PriceRow | undefined = product?.prices.find((candidate) => candidate.id === checkout.product_price_id);
  const seller = catalog.sellers.get(checkout.organization_id);
  if (!product || !price || !seller) throw new Error(`checkout ${checkout.id} has lost its product, price or seller`);
  const discount = checkout.discount_id ? (catalog.discounts.get(checkout.discount_id) ?? null) : null;
  return { products, product, price, seller, discount };
}

export type Offer = ReturnType<typeof offerOf>;

/** What the checkout asks of the card, from its product, price and discount as they stand. */
export function cardRequirementsOf(checkout: CheckoutRow, offer: Offer) {
  const amounts = checkoutAmounts(checkout, offer.discount);
  return { amounts, ...cardRequirements(amounts.total_amount, { recurring: offer.product.recurring_interval !== null }, offer.price) };
}
