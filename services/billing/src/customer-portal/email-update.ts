import { HttpError, invalidField, isUniqueViolation, notFound, notPermitted, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { changeCustomer } from "../customers/service.js";
import { findCustomer, findCustomerByEmail, updateCustomer } from "../customers/customers.sql.js";
import { portalUrlOf, requestCustomerMail } from "../customers/mail.js";
import { customerOf, EMAIL_VERIFICATION_MINUTES, emailVerificationIsLive, issueEmailVerification, openVerifiedSession, redeemEmailVerification } from "../customer-sessions/service.js";
import { findSeller } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";

/** Polar's answer to a token that is wrong, used or expired: one answer for all three. */
const invalidToken = () => new HttpError(401, "InvalidCustomerEmailUpdate", "This email update request is invalid or has expired.");

/** The seller's portal settings let customers change their address (on unless the seller turned it off). */
const allowsEmailChange = (settings: Record<string, unknown>) => (settings as { customer?: { allow_email_change?: boolean } }).customer?.allow_email_change !== false;

/**
 * The customer asks to use another address: a link to confirm it goes to that address, in the
 * customer's language, and until it is followed nothing changes. A new request replaces the last one.
 */
export async function requestEmailUpdate({ db, units, config }: Pick<Parts, "db" | "units" | "config">, identity: IdentityClaims, email: string): Promise<void> {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const [customer, seller] = await Promise.all([findCustomer(db, customerId), findSeller(db, organizationId)]);
  if (!customer || !seller) throw notFound("Customer");
  if (!allowsEmailChange(seller.customer_portal_settings)) throw notPermitted("Email changes are not enabled for this organization.");
  // A team's address is not one person's to move; its members keep their own.
  if (customer.type === "team") throw invalidField(["email"], "Only individual customers can change their email.", email);
  const address = email.toLowerCase();
  if (customer.email === address) throw invalidField(["email"], "New email is the same as your current email.", email);
  await units.run(async (unit) => {
    const token = await issueEmailVerification(unit.db, customer, address);
    const verifyUrl = `${portalUrlOf(config.PUBLIC_URL, seller)}?email_update_token=${token}`;
    requestCustomerMail(unit, seller, { email: address, locale: customer.locale }, { kind: "email_change", verify_url: verifyUrl, valid_minutes: EMAIL_VERIFICATION_MINUTES });
  });
}

/** Whether a token from the mail still works (the link's page asks before it shows anything); 401 when it does not. */
export async function checkEmailUpdate(db: Knex, token: string): Promise<void> {
  if (!(await emailVerificationIsLive(db, token))) throw invalidToken();
}

/** Polar's refusal of an address another customer of the seller has. */
const addressInUse = (email: string) => invalidField(["token"], "This email address is already in use.", email);

/**
 * Follows the link: the token is used up, the customer takes the new address (announced as any change
 * to a customer is), and a new portal session is opened for them, as they proved they read it.
 */
export async function verifyEmailUpdate(parts: Pick<Parts, "db" | "units">, token: string): Promise<{ token: string }> {
  const verification = await redeemEmailVerification(parts.db, token);
  if (!verification) throw invalidToken();
  const holder = await findCustomerByEmail(parts.db, verification.organization_id, verification.email);
  if (holder && holder.id !== verification.customer_id) throw addressInUse(verification.email);
  const customer = await changeCustomer(parts, "customer.updated", (unit) => updateCustomer(unit.db, verification.customer_id, { email: verification.email, email_verified: true })).catch((error: unknown) => {
    throw isUniqueViolation(error) ? addressInUse(verification.email) : error;
  });
  return { token: (await openVerifiedSession(parts.db, customer)).token };
}
