import { invalidField } from "@tollgate/kit";
import type { DiscountRow } from "../discounts/discounts.sql.js";
import { minimumAmount, type PriceRow } from "../products/prices.js";
import type { ProductWithParts } from "../products/products.sql.js";
import type { CheckoutCatalog, CheckoutRow } from "./checkouts.sql.js";

/** Amount types a checkout can sell today; seat-based prices come with seats. */
const SELLABLE = new Set<PriceRow["amount_type"]>(["fixed", "custom", "free", "metered_unit"]);

export const isSellable = (price: PriceRow) => SELLABLE.has(price.amount_type) && !price.is_archived;

/**
 * The product's price a checkout sells: the one named, else its first sellable price in the
 * currency. A metered price is chosen only when the product has no other: it is billed by usage at
 * each renewal, beside the price the subscription starts with.
 */
export function chosenPrice(product: ProductWithParts, currency: string | null, priceId: string | null | undefined, field: (string | number)[]): PriceRow {
  const { prices } = product;
  if (priceId) {
    const named = prices.find((price) => price.id === priceId);
    if (!named || !isSellable(named)) throw invalidField(["product_price_id"], "Price not found, archived, or not one a checkout can sell yet", priceId);
    return named;
  }
  const metered = (price: PriceRow) => price.amount_type === "metered_unit";
  const sellable = prices.filter(isSellable).sort((a, b) => Number(metered(a)) - Number(metered(b)));
  const chosen = sellable.find((price) => price.price_currency === currency) ?? (currency === null ? sellable[0] : undefined);
  if (!chosen) throw invalidField(field, currency ? `The product has no price in ${currency.toUpperCase()} that a checkout can sell` : "The product has no price a checkout can sell", product.id);
  return chosen;
}

/**
 * What the chosen price costs before any discount: its amount, nothing when free or metered, and for a
 * pay-what-you-want price what the customer asked for (or the preset), within its bounds.
 */
export function amountFor(price: PriceRow, requested: number | null | undefined, field: (string | number)[]): number {
  // A metered price costs nothing up front: its usage is billed at each renewal.
  if (price.amount_type === "free" || price.amount_type === "metered_unit") return 0;
  if (price.amount_type === "fixed") return price.price_amount ?? 0;
  const minimum = price.minimum_amount ?? minimumAmount(price.price_currency);
  const amount = requested ?? price.preset_amount ?? minimum;
  // Polar lets a pay-what-you-want price be 0 ("free, or pay what you want").
  if (amount !== 0 && amount < minimum) throw invalidField(field, `Must be at least ${minimum} (or 0)`, amount);
  if (price.maximum_amount !== null && amount > price.maximum_amount) throw invalidField(field, `Must be at most ${price.maximum_amount}`, amount);
  return amount;
}

/** How much a discount takes off `amount`: a fixed one in its own currency only, never more than the amount. */
export function discountAmountOf(discount: DiscountRow | null, amount: number, currency: string): number {
  if (!discount) return 0;
  if (discount.type === "percentage") return Math.min(amount, Math.round((amount * (discount.basis_points ?? 0)) / 10_000));
  return discount.currency === currency ? Math.min(amount, discount.amount ?? 0) : 0;
}

/** Why a discount (limited to the products given, or to none) cannot be used on this product now, or null when it can. */
export function discountProblemOf(discount: DiscountRow, limitedTo: string[], productId: string, currency: string, now: Date): string | null {
  if (discount.starts_at && discount.starts_at > now) return "This discount code is not valid yet.";
  if (discount.ends_at && discount.ends_at <= now) return "This discount code has expired.";
  if (discount.max_redemptions !== null && discount.redemptions_count >= discount.max_redemptions) return "This discount code has been used up.";
  if (discount.type === "fixed" && discount.currency !== currency) return "This discount code is not valid for this currency.";
  if (limitedTo.length > 0 && !limitedTo.includes(productId)) return "This discount code is not valid for this product.";
  return null;
}

/** The amounts Polar shows on a checkout; tax is 0 until a tax engine exists. */
export function checkoutAmounts(checkout: Pick<CheckoutRow, "amount" | "currency">, discount: DiscountRow | null) {
  const discountAmount = discountAmountOf(discount, checkout.amount, checkout.currency);
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
