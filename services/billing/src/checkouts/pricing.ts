import { amountOff } from "../discounts/rules.js";
import type { PriceRow } from "../products/prices.js";
import type { DiscountRow } from "../discounts/discounts.sql.js";
import { taxedLines, taxTermsFor, type SellerTax, type TaxTerms } from "../taxes/calculation.js";
import type { CheckoutCatalog, CheckoutRow } from "./checkouts.sql.js";

type PricedCheckout = Pick<CheckoutRow, "amount" | "currency" | "customer_billing_address" | "customer_tax_id">;
/** What of the offer its amounts depend on. */
type PricedOffer = { seller: SellerTax; price: Pick<PriceRow, "tax_behavior">; discount: DiscountRow | null };

/** How the checkout's sale is taxed, from its seller's registrations, its price and the address given; null until the address tells. */
export const taxTermsOf = (checkout: PricedCheckout, offer: Omit<PricedOffer, "discount">): TaxTerms | null =>
  taxTermsFor(offer.seller, offer.price, { address: checkout.customer_billing_address, taxId: checkout.customer_tax_id });

/**
 * The amounts Polar shows on a checkout: the price and its discount as set, the tax in (inclusive) or
 * on (exclusive) what is charged — null, with no behaviour, until the address tells — the net before
 * tax and the total. The order it becomes is taxed by the same reckoning ({@link taxedLines}), so
 * they agree to the cent.
 */
export function checkoutAmounts(checkout: PricedCheckout, offer: PricedOffer) {
  const discountAmount = amountOff(offer.discount, checkout.amount, checkout.currency);
  const terms = taxTermsOf(checkout, offer);
  const taxed = taxedLines([{ amount: checkout.amount }], discountAmount, terms);
  const totalAmount = taxed.lines.reduce((sum, line) => sum + line.amount, 0) - taxed.discount_amount + taxed.tax_amount;
  return {
    amount: checkout.amount,
    discount_amount: discountAmount,
    net_amount: totalAmount - taxed.tax_amount,
    tax_amount: terms ? taxed.tax_amount : null,
    tax_behavior: terms?.behavior ?? null,
    total_amount: totalAmount,
  };
}

export type CheckoutAmounts = ReturnType<typeof checkoutAmounts>;

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
  const amounts = checkoutAmounts(checkout, offer);
  return { amounts, ...cardRequirements(amounts.total_amount, { recurring: offer.product.recurring_interval !== null }, offer.price) };
}
