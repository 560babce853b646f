import { invalidField, randomId } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { findCustomer, findCustomerByExternalId, type CustomerRow } from "../customers/customers.sql.js";
import { ChangeSet } from "../events.js";
import { sellerClock } from "../test-clock/clock.js";
import type { CheckoutCatalog } from "./catalog.js";
import { insertCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { announceCheckout, CHECKOUT_LIFETIME_MS, type ChangedCheckout } from "./lifecycle.js";
import { amountFor } from "./pricing.js";
import { chosenPrice, revise, type Revision } from "./revise.js";

/** What a new checkout is asked to offer and start with. */
export interface CheckoutRequest {
  productIds: string[];
  productId?: string | null | undefined;
  priceId?: string | null | undefined;
  amount?: number | null | undefined;
  currency?: string | null | undefined;
  customerId?: string | null | undefined;
  externalCustomerId?: string | null | undefined;
  /** The buyer's details and a discount, checked as any later change is. */
  revision: Revision;
  /** The seller's settings (metadata, URLs, flags) as columns. */
  settings: Partial<CheckoutRow>;
}

/**
 * Opens a checkout for products the caller has already found in `catalog` and may sell (one
 * seller's, none archived): the chosen product's price in the currency asked for or the seller's
 * default, its amount, and the request's details; written with its checkout.created in one
 * statement, and shown as announced.
 */
export async function openCheckout(billing: Billing, catalog: CheckoutCatalog, request: CheckoutRequest): Promise<ChangedCheckout> {
  const { db } = billing;
  const offered = request.productIds.flatMap((id) => catalog.products.get(id) ?? []);
  for (const [index, product] of offered.entries()) {
    if (product.is_archived) throw invalidField(["products", index], "This product is archived", product.id);
  }
  const first = offered.find((product) => product.id === (request.productId ?? request.productIds[0]));
  if (!first) throw invalidField(["product_id"], "This product is not offered in this checkout", request.productId);
  const organizationId = first.organization_id;
  const seller = catalog.sellers.get(organizationId);
  if (!seller) throw invalidField(["products", 0], "Product not found", first.id);
  const price = chosenPrice(first, request.currency ?? seller.default_presentment_currency, request.priceId, ["products", request.productIds.indexOf(first.id)]);
  let customer: CustomerRow | undefined;
  if (request.customerId) {
    customer = await findCustomer(db, request.customerId);
    if (customer?.organization_id !== organizationId) throw invalidField(["customer_id"], "Customer not found", request.customerId);
  } else if (request.externalCustomerId) {
    customer = await findCustomerByExternalId(db, [organizationId], request.externalCustomerId);
  }
  const draft: CheckoutRow = {
    id: randomId(32),
    organization_id: organizationId,
    client_secret: `polar_c_${randomId(48)}`,
    status: "open",
    product_ids: request.productIds,
    product_id: first.id,
    product_price_id: price.id,
    amount: amountFor(price, request.amount, ["amount"]),
    currency: price.price_currency,
    discount_id: null,
    allow_discount_codes: true,
    require_billing_address: false,
    allow_trial: true,
    // A known customer's details are filled in, as Polar does, so they need not type them again.
    customer_id: customer?.id ?? null,
    external_customer_id: request.externalCustomerId ?? customer?.external_id ?? null,
    is_business_customer: false,
    customer_name: customer?.name ?? null,
    customer_email: customer?.email ?? null,
    customer_ip_address: null,
    customer_billing_name: null,
    customer_billing_address: customer?.billing_address ?? null,
    customer_tax_id: customer?.tax_id ?? null,
    customer_metadata: {},
    custom_field_data: {},
    metadata: {},
    success_url: null,
    return_url: null,
    embed_origin: null,
    locale: null,
    payment_error: null,
    // In the seller's clock, so a sandbox seller who moved time ahead still gets a day to pay.
    expires_at: new Date(sellerClock(seller).getTime() + CHECKOUT_LIFETIME_MS),
    created_at: new Date(),
    modified_at: null,
  };
  const checkout = { ...draft, ...(await revise(db, draft, request.revision, catalog)), ...request.settings };
  // One statement, so no transaction: the checkout and its announcement are written together or not at all.
  const changes = new ChangeSet(billing.outbox, db).change(insertCheckout(db, checkout));
  const json = announceCheckout(billing, changes, checkout, catalog, "checkout.created");
  await changes.write();
  return { json, catalog };
}
