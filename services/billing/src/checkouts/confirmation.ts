import { invalidField, randomId, ValidationError, type UnitOfWork, type ValidationIssue } from "@tollgate/kit";
import { answerIssues } from "../custom-fields/answers.js";
import { findCustomer, findCustomerByExternalId, findOrCreateCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { openPurchaseSession } from "../customer-sessions/service.js";
import { redeemDiscount } from "../discounts/discounts.sql.js";
import { welcomeCustomer } from "../customers/service.js";
import { changedCheckout, insertPaymentJob, type CheckoutRow } from "./checkouts.sql.js";
import { billingAddressFields } from "./output.js";
import { cardRequirementsOf, offerOf, type Offer } from "./pricing.js";
import { revise, type Revision } from "./revision.js";
import { announceCheckout, changeOpenCheckout, type ChangedCheckout } from "./service.js";
import type { Parts } from "../parts.js";


/**
 * Everything the customer must have given before paying, each missing piece reported where it
 * belongs: an e-mail, a business's name, the billing address fields the form requires, the seller's required custom
 * fields (and every answer valid for its field), and the card (as a confirmation token) when there
 * is something to pay.
 */
function checkComplete(checkout: CheckoutRow, offer: Offer, confirmationTokenId: string | null | undefined): void {
  const issues: ValidationIssue[] = [];
  const missing = (path: string[], message = "Field required") => issues.push({ location: "body", path, message, code: "missing", input: null });
  if (!checkout.customer_email) missing(["customer_email"]);
  if (checkout.is_business_customer && !checkout.customer_billing_name) missing(["customer_billing_name"], "A business buys under its name: enter it");
  const card = cardRequirementsOf(checkout, offer);
  const fields = billingAddressFields(checkout, card.formRequired);
  for (const [field, mode] of Object.entries(fields)) {
    if (mode !== "required") continue;
    const given = checkout.customer_billing_address?.[field as keyof typeof fields];
    if (!given) missing(["customer_billing_address", field]);
  }
  // Answers kept from before are checked again: the seller may have changed a field since.
  issues.push(...answerIssues(offer.product.custom_fields, checkout.custom_field_data, true));
  // A subscription keeps the card for its renewals even when nothing is due today.
  if (card.formRequired && !confirmationTokenId) missing(["confirmation_token_id"], "Card details are required: send the confirmation token made from the card");
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * The seller's customer paying: the one named on the checkout, else found by external id or
 * e-mail, else a new one, whose customer.created (and state) joins the confirmation's changes.
 */
async function payingCustomer(unit: UnitOfWork, checkout: CheckoutRow): Promise<{ customer: CustomerRow; created: boolean }> {
  const named = checkout.customer_id ? await findCustomer(unit.db, checkout.customer_id) : undefined;
  const known = (named?.organization_id === checkout.organization_id ? named : undefined) ?? (checkout.external_customer_id ? await findCustomerByExternalId(unit.db, [checkout.organization_id], checkout.external_customer_id) : undefined);
  if (known) return { customer: known, created: false };
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
  const paying = (await findOrCreateCustomer(unit.db, draft)) ?? (await findOrCreateCustomer(unit.db, draft));
  if (!paying) throw new Error(`checkout ${checkout.id}: no customer could be found or made for ${draft.email}`);
  if (paying.created) await welcomeCustomer(unit, paying.customer);
  return paying;
}

/**
 * Confirms an open checkout with what the payment form sent: checks it is complete, takes a
 * redemption of its discount (failing if the last one just went), settles who the customer is and
 * queues the payment, in one transaction with the checkout row locked, so two confirms at once give
 * one confirmation and the other a 403. A customer the checkout made gets a customer session token
 * for the thank-you page; one that existed gets none, since whoever holds a checkout's client secret
 * may have typed another person's e-mail (they reach their portal by a code sent to it).
 */
export async function confirmCheckout(
  parts: Pick<Parts, "db" | "units" | "access" | "config"> & { wakePayments: () => void },
  clientSecret: string,
  revision: Revision,
  confirmationTokenId: string | null | undefined,
): Promise<ChangedCheckout & { customerSessionToken: string | null }> {
  let customerSessionToken: string | null = null;
  const changed = await changeOpenCheckout(parts, { client_secret: clientSecret }, async (checkout, catalog, unit) => {
    const revisionChanges = await revise(unit.db, checkout, revision, catalog);
    const revised = { ...checkout, ...revisionChanges };
    checkComplete(revised, offerOf(catalog, revised), confirmationTokenId);
    if (revised.discount_id && !(await redeemDiscount(unit.db, revised.discount_id))) throw invalidField(["discount_code"], "This discount code has been used up.", revised.discount_id);
    const { customer, created } = await payingCustomer(unit, revised);
    customerSessionToken = created ? (await openPurchaseSession(unit.db, customer)).token : null;
    const confirmed = changedCheckout(unit, checkout, { ...revisionChanges, status: "confirmed", customer_id: customer.id, payment_error: null });
    unit.change(
      insertPaymentJob(unit.db, {
        checkout_id: checkout.id,
        // A fresh key per confirmation: paying again after a decline is a new payment, a retry of this one is not.
        idempotency_key: `checkout:${checkout.id}:${randomId(16)}`,
        confirmation_token_id: confirmationTokenId ?? null,
        run_at: new Date(),
      }),
    );
    unit.afterCommit(parts.wakePayments);
    return announceCheckout(parts, unit, confirmed, catalog);
  });
  return { ...changed, customerSessionToken };
}
