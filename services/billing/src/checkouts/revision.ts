import { invalidField, type Knex } from "@tollgate/kit";
import type { Address } from "../db/address.js";
import { revisedAnswers, type Answers } from "../custom-fields/answers.js";
import { findDiscount, findDiscountByCode, type DiscountRow } from "../discounts/discounts.sql.js";
import { discountProblem } from "../discounts/service.js";
import { amountFor, chosenPrice, seatsFor } from "../products/prices.js";
import { checkedTaxId } from "../taxes/tax-ids.js";
import type { CheckoutCatalog, CheckoutChanges, CheckoutRow } from "./checkouts.sql.js";

/** What the seller (by API) or the customer (on the page) may change on an open checkout. */
export interface Revision {
  product_id?: string | null | undefined;
  product_price_id?: string | null | undefined;
  amount?: number | null | undefined;
  seats?: number | null | undefined;
  /** The seller picks a discount by id; the customer types a code (when the checkout allows codes). */
  discount_id?: string | null | undefined;
  discount_code?: string | null | undefined;
  custom_field_data?: Answers | undefined;
  customer_name?: string | null | undefined;
  customer_email?: string | null | undefined;
  customer_billing_name?: string | null | undefined;
  customer_billing_address?: Address | null | undefined;
  customer_tax_id?: string | null | undefined;
  is_business_customer?: boolean | null | undefined;
  locale?: string | null | undefined;
}

const CUSTOMER_FIELDS = ["customer_name", "customer_email", "customer_billing_name", "customer_billing_address", "customer_tax_id", "locale"] as const;

/**
 * The changes a revision makes, checked: a product among those offered, its price and amount, a
 * discount still valid for what is now chosen (one that no longer is falls away), the customer's
 * details, and answers to the custom fields the chosen product asks (each checked against its
 * field, merged over the ones given before; answers to fields no longer asked fall away). Products and
 * prices come from the checkout's catalog; a discount newly applied is read and added to it, so
 * the catalog shows the checkout as revised.
 */
export async function revise(db: Knex, checkout: CheckoutRow, revision: Revision, catalog: CheckoutCatalog): Promise<CheckoutChanges> {
  const changes: CheckoutChanges = {};
  let productId = checkout.product_id;
  if (revision.product_id && revision.product_id !== checkout.product_id) {
    if (!checkout.product_ids.includes(revision.product_id)) throw invalidField(["product_id"], "This product is not offered in this checkout", revision.product_id);
    productId = revision.product_id;
  }
  const productChanged = productId !== checkout.product_id;
  const priceChanged = productChanged || (revision.product_price_id !== undefined && revision.product_price_id !== null && revision.product_price_id !== checkout.product_price_id);
  const given = (value: number | null | undefined) => value !== undefined && value !== null;
  if (priceChanged || given(revision.amount) || given(revision.seats)) {
    const product = catalog.products.get(productId);
    if (!product) throw invalidField(["product_id"], "Product not found", productId);
    const price = chosenPrice(product, checkout.currency, priceChanged ? revision.product_price_id : checkout.product_price_id, ["product_id"]);
    // Another price starts at its fewest seats unless told, within its own tiers (the seller's bounds
    // were set for the price the checkout opened with, as Polar's are); the same price keeps the seats chosen.
    const bounds = priceChanged ? undefined : { min: checkout.min_seats, max: checkout.max_seats };
    const seats = seatsFor(price, revision.seats ?? (priceChanged ? null : checkout.seats), bounds);
    Object.assign(changes, { product_id: product.id, product_price_id: price.id, seats, amount: amountFor(price, revision.amount, ["amount"], seats) });
  }

  const discount = await discountOf(db, checkout, revision);
  const discountId = discount === undefined ? checkout.discount_id : (discount?.id ?? null);
  if (discountId !== null) {
    const current = discount ?? catalog.discounts.get(discountId) ?? (await findDiscount(db, discountId));
    const problem = current ? await discountProblem(db, current, productId, checkout.currency) : "This discount no longer exists.";
    if (problem && discount) throw invalidField([revision.discount_code ? "discount_code" : "discount_id"], problem, revision.discount_code ?? revision.discount_id);
    changes.discount_id = problem ? null : discountId;
    if (current && !problem) catalog.discounts.set(current.id, current);
  } else if (discount === null) {
    changes.discount_id = null;
  }

  for (const field of CUSTOMER_FIELDS) {
    const value = revision[field];
    if (value !== undefined) Object.assign(changes, { [field]: value });
  }
  if (revision.is_business_customer !== undefined && revision.is_business_customer !== null) changes.is_business_customer = revision.is_business_customer;
  // A tax number is read once the address says for which country; typed before it, it waits.
  const taxId = changes.customer_tax_id === undefined ? checkout.customer_tax_id : changes.customer_tax_id;
  const country = (changes.customer_billing_address === undefined ? checkout.customer_billing_address : changes.customer_billing_address)?.country;
  if (taxId && country) changes.customer_tax_id = checkedTaxId(taxId, country, ["customer_tax_id"]);
  changes.custom_field_data = revisedAnswers(catalog.products.get(productId)?.custom_fields ?? [], checkout.custom_field_data, revision.custom_field_data);
  return changes;
}

/** The discount a revision asks for: a row, null to remove it, undefined to leave it as it is. */
async function discountOf(db: Knex, checkout: CheckoutRow, revision: Revision): Promise<DiscountRow | null | undefined> {
  if (revision.discount_code !== undefined) {
    if (revision.discount_code === null || revision.discount_code === "") return null;
    if (!checkout.allow_discount_codes) throw invalidField(["discount_code"], "Discount codes are not accepted for this checkout", revision.discount_code);
    const found = await findDiscountByCode(db, checkout.organization_id, revision.discount_code);
    if (!found) throw invalidField(["discount_code"], "This discount code does not exist.", revision.discount_code);
    return found;
  }
  if (revision.discount_id === undefined) return undefined;
  if (revision.discount_id === null) return null;
  const found = await findDiscount(db, revision.discount_id);
  if (!found || found.organization_id !== checkout.organization_id) throw invalidField(["discount_id"], "Discount not found", revision.discount_id);
  return found;
}
