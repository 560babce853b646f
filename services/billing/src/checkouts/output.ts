import type { BillingConfig } from "../config.js";
import { checkoutDiscountJson } from "../discounts/output.js";
import { sellerSummaryJson } from "../organizations/output.js";
import { priceJson } from "../products/prices.js";
import { productJson, publicProductJson } from "../products/output.js";
import type { CheckoutCatalog, CheckoutRow } from "./checkouts.sql.js";
import { STATE_COUNTRIES } from "../taxes/rates.js";
import { cardRequirements, checkoutAmounts, offerOf } from "./pricing.js";


type FieldMode = "required" | "optional" | "disabled";

/**
 * Which billing address fields the form shows and requires, as Polar decides: all of them when
 * the seller requires an address or a business buys, else only the country (and state and postal code where taxes need
 * them) when there is something to pay, and none for a free checkout.
 */
export function billingAddressFields(checkout: Pick<CheckoutRow, "require_billing_address" | "customer_billing_address" | "is_business_customer">, paymentFormRequired: boolean): Record<"country" | "state" | "city" | "postal_code" | "line1" | "line2", FieldMode> {
  const needsState = STATE_COUNTRIES.has(checkout.customer_billing_address?.country ?? "");
  // A business is invoiced: its address in full.
  if (checkout.require_billing_address || checkout.is_business_customer) {
    return { country: "required", state: needsState ? "required" : "optional", city: "required", postal_code: "required", line1: "required", line2: "optional" };
  }
  if (!paymentFormRequired) return { country: "disabled", state: "disabled", city: "disabled", postal_code: "disabled", line1: "disabled", line2: "disabled" };
  const taxed: FieldMode = needsState ? "required" : "disabled";
  return { country: "required", state: taxed, city: "disabled", postal_code: taxed, line1: "disabled", line2: "disabled" };
}

/** The checkout as its seller sees it (Polar's Checkout), made from its catalog. */
/** What a checkout's answer says of the site: its address, and the processor the payment page loads. */
export type CheckoutSite = Pick<BillingConfig, "PUBLIC_URL" | "PAYMENT_PROCESSOR" | "STRIPE_PUBLISHABLE_KEY">;

/**
 * What the payment page needs of the processor, as Polar gives it: Stripe.js's key when Stripe takes
 * the payment, a payment waiting for the customer's bank (3-D Secure) with the secret that finishes
 * it, and why the last payment failed.
 */
function processorMetadata(checkout: CheckoutRow, config: CheckoutSite) {
  return {
    ...(config.PAYMENT_PROCESSOR === "stripe" && config.STRIPE_PUBLISHABLE_KEY ? { publishable_key: config.STRIPE_PUBLISHABLE_KEY } : {}),
    ...(checkout.payment_client_secret ? { intent_status: "requires_action" as const, intent_client_secret: checkout.payment_client_secret } : {}),
    ...(checkout.payment_error ? { payment_error: checkout.payment_error } : {}),
  };
}

export function checkoutJson(checkout: CheckoutRow, catalog: CheckoutCatalog, config: CheckoutSite) {
  const publicUrl = config.PUBLIC_URL;
  const offer = offerOf(catalog, checkout);
  const { price, discount } = offer;
  const offered = offer.products.map((product) => productJson(product, publicUrl));
  // As Polar shows a checkout's products to seller and buyer alike: the buyer's page reads this too.
  const shown = offered.map(publicProductJson);
  const amounts = checkoutAmounts(checkout, offer);
  const product = shown.find((candidate) => candidate.id === checkout.product_id) ?? null;
  const isFree = price.amount_type === "free";
  const card = cardRequirements(amounts.total_amount, { recurring: product?.is_recurring === true }, price);
  const trial = product?.is_recurring === true && product.trial_interval !== null && checkout.allow_trial;
  return {
    id: checkout.id,
    created_at: checkout.created_at,
    modified_at: checkout.modified_at,
    custom_field_data: checkout.custom_field_data,
    // The published SDK knows no other processor; the sandbox stands in for Stripe's test mode.
    payment_processor: "stripe" as const,
    status: checkout.status,
    seats: checkout.seats,
    min_seats: checkout.min_seats,
    max_seats: checkout.max_seats,
    // No price is per unit.
    units: null,
    min_units: null,
    max_units: null,
    // Cards are the one way to pay: named once the buyer confirmed a payment with one.
    payment_method_type: card.formRequired && checkout.status !== "open" && checkout.status !== "expired" ? "card" : null,
    client_secret: checkout.client_secret,
    url: `${publicUrl.replace(/\/$/, "")}/checkout/${checkout.client_secret}`,
    expires_at: checkout.expires_at,
    success_url: (checkout.success_url ?? `${publicUrl.replace(/\/$/, "")}/checkout/${checkout.client_secret}/confirmation`).replaceAll("{CHECKOUT_ID}", checkout.id),
    return_url: checkout.return_url,
    embed_origin: checkout.embed_origin,
    ...amounts,
    currency: checkout.currency,
    allow_trial: checkout.allow_trial,
    active_trial_interval: trial ? product?.trial_interval ?? null : null,
    active_trial_interval_count: trial ? product?.trial_interval_count ?? null : null,
    trial_end: null,
    organization_id: checkout.organization_id,
    product_id: checkout.product_id,
    product_price_id: checkout.product_price_id,
    discount_id: checkout.discount_id,
    allow_discount_codes: checkout.allow_discount_codes,
    require_billing_address: checkout.require_billing_address,
    is_discount_applicable: !isFree,
    is_free_product_price: isFree,
    is_payment_required: card.paymentRequired,
    is_payment_setup_required: card.setupRequired,
    is_payment_form_required: card.formRequired,
    customer_id: checkout.customer_id,
    is_business_customer: checkout.is_business_customer,
    customer_name: checkout.customer_name,
    customer_email: checkout.customer_email,
    customer_ip_address: checkout.customer_ip_address,
    customer_billing_name: checkout.customer_billing_name,
    customer_billing_address: checkout.customer_billing_address,
    customer_tax_id: checkout.customer_tax_id,
    locale: checkout.locale,
    payment_processor_metadata: processorMetadata(checkout, config),
    billing_address_fields: billingAddressFields(checkout, card.formRequired),
    trial_interval: null,
    trial_interval_count: null,
    metadata: checkout.metadata,
    external_customer_id: checkout.external_customer_id,
    products: shown,
    product,
    product_price: priceJson(price),
    prices: Object.fromEntries(shown.map((offered) => [offered.id, offered.prices.filter((candidate) => !candidate.is_archived)])),
    discount: discount ? checkoutDiscountJson(discount) : null,
    subscription_id: null,
    attached_custom_fields: offered.find((candidate) => candidate.id === checkout.product_id)?.attached_custom_fields ?? [],
    customer_metadata: checkout.customer_metadata,
  };
}

export type CheckoutJson = ReturnType<typeof checkoutJson>;

/** The checkout as the customer's page sees it (Polar's CheckoutPublic), made from the seller's view: no seller metadata, with the seller's name. */
export function checkoutPublicJson(full: CheckoutJson, catalog: CheckoutCatalog) {
  const seller = catalog.sellers.get(full.organization_id);
  if (!seller) throw new Error(`checkout ${full.id} belongs to no seller`);
  const { metadata: _metadata, customer_metadata: _customerMetadata, external_customer_id: _external, subscription_id: _subscription, trial_interval: _interval, trial_interval_count: _count, ...shown } = full;
  return { ...shown, organization: sellerSummaryJson(seller) };
}
