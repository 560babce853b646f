import { createHash, randomInt } from "node:crypto";
import { HttpError, invalidField, notFound, polarErrors, randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { accessTokenRevoked, type IdentityClaims } from "@tollgate/proto";
import { namedCustomer, type CustomerNamed } from "../customers/named.js";
import { findSeller } from "../organizations/organizations.sql.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import { findMemberByExternalId, findMemberOfCustomer, ownersOf, type MemberRow } from "../members/members.sql.js";
import { deleteCustomerSessions, deleteMemberSessions, insertCustomerSession, liveEmailVerification, replaceEmailVerification, replaceSessionCode, takeEmailVerification, takeSessionCode, type CustomerSessionRow, type EmailVerificationRow } from "./customer-sessions.sql.js";
import { customerSessionJson } from "./output.js";
import type { Parts } from "../parts.js";

/** How long a session a seller opens lasts: its link may travel, so not long. */
const SESSION_LIFETIME_MS = 60 * 60 * 1000;
/** How long a session the customer opened with a code from their own mail lasts. */
const CODE_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How long a sign-in code works, as its mail says. */
export const SIGN_IN_CODE_MINUTES = 15;
/**
 * Letters and digits no reader takes for another (no I, O, 0 or 1). Eight of them make 32⁸ ≈ 10¹²
 * codes: with the gateway's limit on tries, guessing any live one is out of reach.
 */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 8;

const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** A code as typed: case and the spaces or dashes a reader may add do not matter. */
const normalCode = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, "");

/** A new session for the customer: its row, and its bearer token, which exists only here. */
async function startSession(db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">, lifetimeMs: number, returnUrl: string | null, memberId: string | null = null): Promise<{ session: CustomerSessionRow; token: string }> {
  const token = `polar_cst_${randomId(48)}`;
  const session = await insertCustomerSession(db, {
    id: randomId(32),
    token_hash: tokenHashOf(token),
    organization_id: customer.organization_id,
    customer_id: customer.id,
    member_id: memberId,
    return_url: returnUrl,
    expires_at: new Date(Date.now() + lifetimeMs),
  });
  return { session, token };
}

/**
 * A portal session of one member of a customer (a seat just claimed, say): they see what is theirs,
 * and, as an owner or billing manager, manage the team. Its token exists only in what this returns.
 */
export const openMemberSession = (db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">, member: Pick<MemberRow, "id">, returnUrl: string | null = null) =>
  startSession(db, customer, SESSION_LIFETIME_MS, returnUrl, member.id);

/**
 * A session for the customer a checkout just made, so its thank-you page can show what was bought
 * and lead on to the portal; short-lived, as a seller's link is.
 */
export const openPurchaseSession = (db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">) => startSession(db, customer, SESSION_LIFETIME_MS, null);

/** A new sign-in code for the customer, or for one member of theirs, replacing any earlier one; only its digest is kept. */
export async function issueSignInCode(db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">, member: Pick<MemberRow, "id"> | null): Promise<string> {
  const code = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
  await replaceSessionCode(db, {
    id: randomId(32),
    code_hash: tokenHashOf(code),
    organization_id: customer.organization_id,
    customer_id: customer.id,
    member_id: member?.id ?? null,
    expires_at: new Date(Date.now() + SIGN_IN_CODE_MINUTES * 60_000),
  });
  return code;
}

/** Opens a session with a sign-in code, which is used up: the customer's, or the member's it was asked for; null when no live code is that one. */
export async function redeemSignInCode(db: Knex, typed: string): Promise<{ session: CustomerSessionRow; token: string } | null> {
  const code = await takeSessionCode(db, tokenHashOf(normalCode(typed)));
  return code ? startSession(db, { id: code.customer_id, organization_id: code.organization_id }, CODE_SESSION_LIFETIME_MS, null, code.member_id) : null;
}

/** How long the link confirming a customer's new address works (Polar's lifetime), as its mail says. */
export const EMAIL_VERIFICATION_MINUTES = 30;

/** A token for the link that confirms a new address for the customer, replacing any earlier one; only its digest is kept. */
export async function issueEmailVerification(db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">, email: string): Promise<string> {
  const token = `polar_cev_${randomId(48)}`;
  await replaceEmailVerification(db, { id: randomId(32), token_hash: tokenHashOf(token), email, organization_id: customer.organization_id, customer_id: customer.id, expires_at: new Date(Date.now() + EMAIL_VERIFICATION_MINUTES * 60_000) });
  return token;
}

/** Whether the token is a live one. */
export const emailVerificationIsLive = async (db: Knex, token: string): Promise<boolean> => (await liveEmailVerification(db, tokenHashOf(token))) !== undefined;

/** Uses up a live token: what it confirms, or none. */
export const redeemEmailVerification = (db: Knex, token: string): Promise<EmailVerificationRow | undefined> => takeEmailVerification(db, tokenHashOf(token));

/** A session for a customer who just proved they read their new address, lasting as one opened with a code does. */
export const openVerifiedSession = (db: Knex, customer: Pick<CustomerRow, "id" | "organization_id">) => startSession(db, customer, CODE_SESSION_LIFETIME_MS, null);

/**
 * The member a seller's session is for, as Polar resolves it: the one named by id or external id,
 * else an individual's owner; a team's session must name its member.
 */
async function sessionMember(db: Knex, customer: CustomerRow, request: { member_id?: string | null | undefined; external_member_id?: string | null | undefined }): Promise<MemberRow> {
  const absent = (field: string, value: string): never => {
    throw invalidField([field], "Member does not exist for this customer.", value);
  };
  if (request.member_id) return (await findMemberOfCustomer(db, customer.id, request.member_id)) ?? absent("member_id", request.member_id);
  if (request.external_member_id) return (await findMemberByExternalId(db, customer.id, request.external_member_id)) ?? absent("external_member_id", request.external_member_id);
  if (customer.type === "team") throw invalidField(["member_id"], "member_id is required for team customers.", null);
  const [owner] = await ownersOf(db, customer.id);
  if (!owner) throw invalidField(["customer_id"], "No owner member found for this customer.", customer.id);
  return owner;
}

/** A seller opens the customer portal for one of their customers: a new bearer token, and the portal's address with it. */
export async function openCustomerSession(
  { db, access, config }: Pick<Parts, "db" | "access" | "config">,
  identity: IdentityClaims,
  request: CustomerNamed & { member_id?: string | null | undefined; external_member_id?: string | null | undefined; return_url?: string | null | undefined },
) {
  const { customer, field, input } = await namedCustomer(db, await access.organizationIds(identity, "customer_sessions:write"), request);
  if (!customer) throw invalidField([field], "Customer not found", input);
  const member = await sessionMember(db, customer, request);
  const { session, token } = await startSession(db, customer, SESSION_LIFETIME_MS, request.return_url ?? null, member.id);
  const seller = await findSeller(db, customer.organization_id);
  return customerSessionJson(session, token, customer, `${config.PUBLIC_URL.replace(/\/$/, "")}/${seller?.slug ?? customer.organization_id}/portal?customer_session_token=${token}`);
}

/**
 * Ends every portal session of a deleted customer, and has the gateway drop its cached copy of
 * each: a customer session is a bearer token there, forgotten through the same event as a revoked
 * access token.
 */
export async function endCustomerSessions(unit: UnitOfWork, customerId: string): Promise<void> {
  forgetSessions(unit, await deleteCustomerSessions(unit.db, customerId));
}

/** Ends every portal session of a member who was removed, as `endCustomerSessions` does a customer's. */
export async function endMemberSessions(unit: UnitOfWork, memberId: string): Promise<void> {
  forgetSessions(unit, await deleteMemberSessions(unit.db, memberId));
}

/** Has the gateway drop its cached copy of each session deleted. */
function forgetSessions(unit: UnitOfWork, sessions: Pick<CustomerSessionRow, "id" | "token_hash">[]): void {
  for (const session of sessions) unit.announce(accessTokenRevoked, { id: session.id, token_hash: session.token_hash });
}

/** The customer a portal call is for: only a customer session opens the portal. */
export function customerOf(identity: IdentityClaims): { customer_id: string; organization_id: string; session_id?: string | undefined; member_id?: string | undefined } {
  if (identity.kind !== "customer_session") throw new HttpError(401, polarErrors.codes.unauthorized, "A customer session token is required.");
  return identity;
}

/** The row, found among the customer's own, or 404 whether it is someone else's or nobody's. */
export function mine<Row>(found: Row | undefined, what: string): Row {
  if (!found) throw notFound(what);
  return found;
}
