import { invalidField, randomId, ValidationError, type Knex, type ValidationIssue } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { customers, findOrCreateCustomer, scheduleStateChange, type CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import { redeemDiscount } from "../discounts/discounts.sql.js";
import type { ChangeSet } from "../events.js";
import { offerOf, type Offer } from "./catalog.js";
import { changedCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { announceCheckout, changeOpenCheckout, type ChangedCheckout } from "./lifecycle.js";
import { billingAddressFields } from "./output.js";
import { cardRequirements, checkoutAmounts } from "./pricing.js";
import { revise, type Revision } from "./revise.js";

/** What the checkout asks of the card, from its product, price and discount as they stand. */
export function cardRequirementsOf(checkout: CheckoutRow, offer: Offer) {
  const amounts = checkoutAmounts(checkout, offer.discount);
  return { amounts, ...cardRequirements(amounts.total_amount, { recurring: offer.product.recurring_interval !== null }, offer.price) };
}

/**
 * Everything the customer must have given before paying, each missing piece reported where it
 * belongs: an e-mail, the billing address fields the form requires, the seller's required custom
 * fields, and the card (as a confirmation token) when there is something to pay.
 */
function checkComplete(checkout: CheckoutRow, offer: Offer, confirmationTokenId: string | null | undefined): void {
  const issues: ValidationIssue[] = [];
  const missing = (path: string[], message = "Field required") => issues.push({ location: "body", path, message, code: "missing", input: null });
  if (!checkout.customer_email) missing(["customer_email"]);
  const card = cardRequirementsOf(checkout, offer);
  const fields = billingAddressFields(checkout, card.formRequired);
  for (const [field, mode] of Object.entries(fields)) {
    if (mode !== "required") continue;
    const given = checkout.customer_billing_address?.[field as keyof typeof fields];
    if (!given) missing(["customer_billing_address", field]);
  }
  for (const field of offer.product.custom_fields.filter((attached) => attached.required)) {
    const answer = checkout.custom_field_data[field.slug];
    // A required checkbox must be ticked (terms of sale), not merely answered.
    if (answer === undefined || answer === null || answer === "" || (field.type === "checkbox" && answer !== true)) missing(["custom_field_data", field.slug]);
  }
  // A subscription keeps the card for its renewals even when nothing is due today.
  if (card.formRequired && !confirmationTokenId) missing(["confirmation_token_id"], "Card details are required: send the confirmation token made from the card");
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * The seller's customer paying: the one named on the checkout, else found by external id or
 * e-mail, else a new one, whose customer.created (and state) joins the confirmation's changes.
 */
async function payingCustomer(billing: Billing, trx: Knex.Transaction, changes: ChangeSet, checkout: CheckoutRow): Promise<CustomerRow> {
  const mine = () => customers(trx).where({ organization_id: checkout.organization_id });
  const known = (checkout.customer_id ? await mine().where({ id: checkout.customer_id }).first() : undefined) ?? (checkout.external_customer_id ? await mine().where({ external_id: checkout.external_customer_id }).first() : undefined);
  if (known) return known;
  const draft = {
    id: randomId(32),
    organization_id: checkout.organization_id,
    email: (checkout.customer_email ?? "").toLowerCase(),
    name: checkout.customer_name,
    external_id: checkout.external_customer_id,
    billing_address: checkout.customer_billing_address,
    tax_id: checkout.customer_tax_id,
    locale: checkout.locale,
    metadata: checkout.customer_metadata,
  };
  // A second try finds the customer another confirmation made a moment ago.
  const paying = (await findOrCreateCustomer(trx, draft)) ?? (await findOrCreateCustomer(trx, draft));
  if (!paying) throw new Error(`checkout ${checkout.id}: no customer could be found or made for ${draft.email}`);
  if (paying.created) {
    changes.announce("customer.created", paying.customer.organization_id, customerJson(paying.customer));
    changes.change(scheduleStateChange(trx, paying.customer.id, billing.config.CUSTOMER_STATE_DEBOUNCE_MS));
  }
  return paying.customer;
}

/**
 * Confirms an open checkout with what the payment form sent: checks it is complete, takes a
 * redemption of its discount (failing if the last one just went), settles who the customer is and
 * queues the payment, in one transaction with the checkout row locked, so two confirms at once give
 * one confirmation and the other a 403.
 */
export function confirmCheckout(billing: Billing, clientSecret: string, revision: Revision, confirmationTokenId: string | null | undefined): Promise<ChangedCheckout> {
  return changeOpenCheckout(billing, { client_secret: clientSecret }, async (checkout, catalog, changes, trx) => {
    const revisionChanges = await revise(trx, checkout, revision, catalog);
    const revised = { ...checkout, ...revisionChanges };
    checkComplete(revised, offerOf(catalog, revised), confirmationTokenId);
    if (revised.discount_id && !(await redeemDiscount(trx, revised.discount_id))) throw invalidField(["discount_code"], "This discount code has been used up.", revised.discount_id);
    const customer = await payingCustomer(billing, trx, changes, revised);
    const confirmed = changedCheckout(changes, checkout, { ...revisionChanges, status: "confirmed", customer_id: customer.id, payment_error: null });
    changes.change(
      trx("checkout_payment_jobs").insert({
        checkout_id: checkout.id,
        // A fresh key per confirmation: paying again after a decline is a new payment, a retry of this one is not.
        idempotency_key: `checkout:${checkout.id}:${randomId(16)}`,
        confirmation_token_id: confirmationTokenId ?? null,
        run_at: new Date(),
      }),
    );
    trx.executionPromise.then(() => billing.wakePayments(), () => undefined);
    return announceCheckout(billing, changes, confirmed, catalog);
  });
}
