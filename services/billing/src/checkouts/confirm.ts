import { HttpError, invalidField, randomId, ValidationError, type Knex, type ValidationIssue } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { customers, insertCustomer, scheduleStateChange, type CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import { emitBillingEvent } from "../events.js";
import { checkouts, updateCheckout, type CheckoutChanges, type CheckoutRow } from "./checkouts.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import { announceCheckout } from "./lifecycle.js";
import { billingAddressFields, type CheckoutJson } from "./output.js";
import { cardRequirements, checkoutAmounts } from "./pricing.js";
import type { PriceRow } from "../products/prices.js";
import { findProduct } from "../products/products.sql.js";
import { findDiscount } from "../discounts/discounts.sql.js";

/** Polar's answer for acting on a checkout that is no longer open. */
export const notOpen = (checkout: CheckoutRow) => new HttpError(403, "NotOpenCheckout", `Checkout is not open: ${checkout.status}`);

/**
 * Everything the customer must have given before paying, each missing piece reported where it
 * belongs: an e-mail, the billing address fields the form requires, the seller's required custom
 * fields, and the card (as a confirmation token) when there is something to pay.
 */
export async function checkComplete(db: Knex, checkout: CheckoutRow, confirmationTokenId: string | null | undefined): Promise<void> {
  const issues: ValidationIssue[] = [];
  const missing = (path: string[], message = "Field required") => issues.push({ location: "body", path, message, code: "missing", input: null });
  if (!checkout.customer_email) missing(["customer_email"]);
  const card = await cardRequirementsOf(db, checkout);
  const fields = billingAddressFields(checkout, card.formRequired);
  for (const [field, mode] of Object.entries(fields)) {
    if (mode !== "required") continue;
    const given = checkout.customer_billing_address?.[field as keyof typeof fields];
    if (!given) missing(["customer_billing_address", field]);
  }
  const required = await db("product_custom_fields")
    .join("custom_fields", "custom_fields.id", "product_custom_fields.custom_field_id")
    .where({ "product_custom_fields.product_id": checkout.product_id, "product_custom_fields.required": true })
    .select<{ slug: string; type: string }[]>("custom_fields.slug", "custom_fields.type");
  for (const field of required) {
    const answer = checkout.custom_field_data[field.slug];
    // A required checkbox must be ticked (terms of sale), not merely answered.
    if (answer === undefined || answer === null || answer === "" || (field.type === "checkbox" && answer !== true)) missing(["custom_field_data", field.slug]);
  }
  // A subscription keeps the card for its renewals even when nothing is due today.
  if (card.formRequired && !confirmationTokenId) missing(["confirmation_token_id"], "Card details are required: send the confirmation token made from the card");
  if (issues.length > 0) throw new ValidationError(issues);
}

/** What the checkout asks of the card, from its product, price and discount as they stand. */
export async function cardRequirementsOf(db: Knex, checkout: CheckoutRow) {
  const [product, price, discount] = await Promise.all([
    findProduct(db, checkout.product_id),
    db<PriceRow>("product_prices").where({ id: checkout.product_price_id }).first(),
    checkout.discount_id ? findDiscount(db, checkout.discount_id) : Promise.resolve(undefined),
  ]);
  if (!product || !price) throw new Error(`checkout ${checkout.id} has lost its product or price`);
  const amounts = checkoutAmounts(checkout, discount ?? null);
  return { product, price, amounts, ...cardRequirements(amounts.total_amount, { recurring: product.recurring_interval !== null }, price) };
}

/** The seller's customer paying: the one named on the checkout, else found by external id or e-mail, else a new one. */
async function payingCustomer(billing: Billing, trx: Knex.Transaction, checkout: CheckoutRow): Promise<CustomerRow> {
  const email = (checkout.customer_email ?? "").toLowerCase();
  const mine = () => customers(trx).where({ organization_id: checkout.organization_id });
  const known =
    (checkout.customer_id ? await mine().where({ id: checkout.customer_id }).first() : undefined) ??
    (checkout.external_customer_id ? await mine().where({ external_id: checkout.external_customer_id }).first() : undefined) ??
    (await mine().where({ email }).first());
  if (known) return known;
  const created = await insertCustomer(trx, {
    id: randomId(32),
    organization_id: checkout.organization_id,
    email,
    name: checkout.customer_name,
    external_id: checkout.external_customer_id,
    billing_address: checkout.customer_billing_address,
    tax_id: checkout.customer_tax_id,
    locale: checkout.locale,
    metadata: checkout.customer_metadata,
  });
  await emitBillingEvent(billing.outbox, trx, "customer.created", created.organization_id, customerJson(created));
  await scheduleStateChange(trx, created.id, billing.config.CUSTOMER_STATE_DEBOUNCE_MS);
  return created;
}

/**
 * Confirms an open checkout: takes a redemption of its discount (failing if the last one just went),
 * settles who the customer is, and queues the payment, all in one transaction with the checkout row
 * locked, so two confirms at once give one confirmation and the other a 403.
 */
export async function confirmCheckout(billing: Billing, checkoutId: string, changes: CheckoutChanges, confirmationTokenId: string | null | undefined): Promise<CheckoutJson> {
  return billing.db.transaction(async (trx) => {
    const checkout = await checkouts(trx).where({ id: checkoutId }).forUpdate().first();
    if (!checkout) throw new Error(`checkout ${checkoutId} is gone`);
    if (checkout.status !== "open" || checkout.expires_at <= (await sellerNow(trx, checkout.organization_id))) throw notOpen(checkout.status === "open" ? { ...checkout, status: "expired" } : checkout);
    const discountId = changes.discount_id === undefined ? checkout.discount_id : changes.discount_id;
    if (discountId) {
      const redeemed = await trx("discounts")
        .where({ id: discountId })
        .where((open) => void open.whereNull("max_redemptions").orWhereRaw("redemptions_count < max_redemptions"))
        .increment("redemptions_count", 1);
      if (redeemed === 0) throw invalidField(["discount_code"], "This discount code has been used up.", discountId);
    }
    const customer = await payingCustomer(billing, trx, { ...checkout, ...changes });
    const confirmed = await updateCheckout(trx, checkout.id, { ...changes, status: "confirmed", customer_id: customer.id, payment_error: null });
    await trx("checkout_payment_jobs").insert({
      checkout_id: checkout.id,
      // A fresh key per confirmation: paying again after a decline is a new payment, a retry of this one is not.
      idempotency_key: `checkout:${checkout.id}:${randomId(16)}`,
      confirmation_token_id: confirmationTokenId ?? null,
      run_at: new Date(),
    });
    const json = await announceCheckout(billing, trx, confirmed);
    trx.executionPromise.then(() => billing.wakePayments(), () => undefined);
    return json;
  });
}
