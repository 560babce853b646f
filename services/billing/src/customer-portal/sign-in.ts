import { HttpError, notFound, polarErrors, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer, findCustomerByEmail, type CustomerRow } from "../customers/customers.sql.js";
import { portalUrlOf, requestCustomerMail } from "../customers/mail.js";
import { findSession } from "../customer-sessions/customer-sessions.sql.js";
import { customerOf, issueSignInCode, redeemSignInCode, SIGN_IN_CODE_MINUTES } from "../customer-sessions/service.js";
import { memberOfCustomer, membersWithEmail, type MemberRow } from "../members/service.js";
import { findSeller } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";

/** Someone a sign-in code may be for: a customer by their own e-mail, or a member of a team by theirs. */
interface SignInCandidate {
  customer: CustomerRow;
  member: MemberRow | null;
}

/**
 * Whom an e-mail signs in as at this seller: the customer whose own address it is, and the members
 * of other customers (teams) who have it. A team's owner shares the customer's address and signs in
 * as the whole customer, as before teams had members.
 */
async function candidatesFor(db: Knex, sellerId: string, email: string): Promise<SignInCandidate[]> {
  const own = await findCustomerByEmail(db, sellerId, email);
  const candidates: SignInCandidate[] = own ? [{ customer: own, member: null }] : [];
  for (const member of await membersWithEmail(db, sellerId, email)) {
    if (candidates.some((candidate) => candidate.customer.id === member.customer_id)) continue;
    const customer = await findCustomer(db, member.customer_id);
    if (customer) candidates.push({ customer, member });
  }
  return candidates;
}

/**
 * A customer, or a team's member, asks for a sign-in code to their seller's portal by e-mail. Nothing
 * in the answer says whether the seller or the address exists (the route answers 202 either way):
 * only the mail, which reaches its owner alone, tells. An address that signs in as several customers
 * (a member of two teams) is answered as Polar does, 409 with the customers to choose from, until
 * `customer_id` picks one. A new code replaces the last one. `askedIn` is the language the request
 * asked for (the first of its Accept-Language), for someone who has none of their own.
 */
export async function requestSignInCode(
  { db, units, config }: Pick<Parts, "db" | "units" | "config">,
  request: { email: string; organization_id: string; customer_id?: string | null | undefined },
  askedIn: string | null,
): Promise<void> {
  const seller = await findSeller(db, request.organization_id);
  if (!seller) return;
  const candidates = (await candidatesFor(db, seller.id, request.email)).filter(({ customer }) => !request.customer_id || customer.id === request.customer_id);
  if (candidates.length > 1) {
    throw new HttpError(409, "customer_selection_required", "Multiple customers found for this email. Please select one.", {}, {
      customers: candidates.map(({ customer }) => ({ id: customer.id, name: customer.name })),
    });
  }
  const [candidate] = candidates;
  if (!candidate) return;
  const { customer, member } = candidate;
  await units.run(async (unit) => {
    const code = await issueSignInCode(unit.db, customer, member);
    // Whoever asks reads the language they asked in, unless the customer has one of their own.
    const to = { email: member?.email ?? customer.email, locale: customer.locale ?? askedIn };
    requestCustomerMail(unit, seller, to, { kind: "portal_code", code, valid_minutes: SIGN_IN_CODE_MINUTES, portal_url: portalUrlOf(config.PUBLIC_URL, seller) });
  });
}

/** Polar's refusal of a code that is wrong, used or expired: one answer for all three. */
const invalidCode = () => new HttpError(401, "CustomerSessionCodeInvalidOrExpired", "This customer session code is invalid or has expired.");

/** The customer session token a sign-in code opens; the code is used up. */
export async function authenticateWithCode({ db }: Pick<Parts, "db">, code: string): Promise<{ token: string }> {
  const opened = await redeemSignInCode(db, code);
  if (!opened) throw invalidCode();
  return { token: opened.token };
}

/** The session the caller's customer session token is, as Polar's introspection shows it. */
export async function introspectSession({ db }: Pick<Parts, "db">, identity: IdentityClaims) {
  const { session_id: sessionId, customer_id: customerId } = customerOf(identity);
  const session = sessionId ? await findSession(db, sessionId) : undefined;
  if (!session || session.customer_id !== customerId) throw new HttpError(401, polarErrors.codes.unauthorized, "A customer session token is required.");
  return { expires_at: session.expires_at, return_url: session.return_url };
}

/** Who the portal is open for: a customer (members of team customers come with seats). */
export async function portalUser({ db }: Pick<Parts, "db">, identity: IdentityClaims) {
  const customer = await findCustomer(db, customerOf(identity).customer_id);
  if (!customer) throw notFound("Customer");
  // A member's session is answered as Polar's: who they are in the team, and their role there.
  const { member_id: memberId } = customerOf(identity);
  const member = memberId ? await memberOfCustomer(db, customer.id, memberId) : null;
  if (member) return { type: "member", name: member.name, email: member.email, customer_id: customer.id, member_id: member.id, role: member.role };
  return { type: "customer", name: customer.name, email: customer.email, customer_id: customer.id, member_id: null, role: null };
}
