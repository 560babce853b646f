import { HttpError, notPermitted, pageJson, ValidationError, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { findSession } from "../customer-sessions/customer-sessions.sql.js";
import { customerOf, mine } from "../customer-sessions/service.js";
import { addMember, listMembers, memberOfCustomer, ownersOf, removeMember, reviseMember, type MemberRole, type MemberRow } from "../members/service.js";
import { portalMemberJson } from "../members/output.js";
import type { Parts } from "../parts.js";

/**
 * Who a portal session is: one member of the customer, or, for a session of the customer's own (a
 * sign-in code, a checkout's thank-you page), the customer as their owner.
 */
async function portalActor(db: Knex, identity: IdentityClaims): Promise<{ customer: CustomerRow; member: MemberRow }> {
  const claims = customerOf(identity);
  const customer = mine(await findCustomer(db, claims.customer_id), "Customer");
  const member = claims.member_id ? await memberOfCustomer(db, customer.id, claims.member_id) : ((await ownersOf(db, customer.id))[0] ?? null);
  // A removed member's sessions end with them; one still cached at the gateway opens nothing more.
  if (!member) throw new HttpError(401, "Unauthorized", "The customer session is no longer valid.");
  return { customer, member };
}

/**
 * The member whose grants and keys alone a session sees: a team's plain member sees what their seat
 * gives them, never another member's; an owner or billing manager (and the customer's own session)
 * sees the whole customer's (null).
 */
export async function portalViewer(db: Knex, identity: IdentityClaims): Promise<string | null> {
  const claims = customerOf(identity);
  if (!claims.member_id) return null;
  const { member } = await portalActor(db, identity);
  return member.role === "member" ? member.id : null;
}

/** A plain member of a team sees the grants and keys they hold alone, whichever members a query names. */
export async function viewedMembers(db: Knex, identity: IdentityClaims, asked: string[] | undefined): Promise<string[] | undefined> {
  const viewer = await portalViewer(db, identity);
  return viewer ? [viewer] : asked;
}

/** The customer's grant or key, if the session may see it (a plain member, only what they hold); 404 as for someone else's. */
export async function seen<Held extends { member_id?: string | null }>(db: Knex, identity: IdentityClaims, found: Held | undefined, what: string): Promise<Held> {
  const viewer = await portalViewer(db, identity);
  return mine(found && (viewer === null || found.member_id === viewer) ? found : undefined, what);
}

/** The team's owner or a billing manager, managing a team customer's members (Polar's CustomerPortalBillingManager). */
async function teamManager(db: Knex, identity: IdentityClaims) {
  const actor = await portalActor(db, identity);
  if (actor.member.role === "member") throw notPermitted("Insufficient role for this operation");
  if (actor.customer.type !== "team") throw notPermitted("Member management is only available for team customers. Purchase a seat-based product to enable team features.");
  return actor;
}

/** Polar's refusal of a change a manager makes to themselves. */
const aboutThemselves = (id: string, message: string) => new ValidationError([{ location: "path", path: ["id"], message, code: "value_error", input: id }]);

export async function teamMemberPage(db: Knex, identity: IdentityClaims, page: { page: number; limit: number }) {
  const { customer } = await teamManager(db, identity);
  const { rows, total } = await listMembers(db, { organizationIds: [customer.organization_id], customerId: customer.id, role: undefined }, { ...page, sort: [{ property: "created_at", descending: false }] });
  return pageJson(rows.map(portalMemberJson), total, page.limit);
}

/** A manager adds a member (never an owner: there is one, who hands the place on); one with the e-mail already is answered as they are. */
export async function addTeamMember(parts: Pick<Parts, "db" | "units">, identity: IdentityClaims, body: { email: string; name?: string | null | undefined; role: MemberRole }) {
  const { customer } = await teamManager(parts.db, identity);
  const { role } = body;
  if (role === "owner") throw new ValidationError([{ location: "body", path: ["role"], message: "Cannot add a member as owner. There must be exactly one owner.", code: "value_error", input: role }]);
  return portalMemberJson(await parts.units.run((unit) => addMember(unit, customer, { ...body, role })));
}

/** A manager renames a member or changes their role, not their own; only the owner hands ownership on. */
export async function changeTeamMember(parts: Pick<Parts, "db" | "units">, identity: IdentityClaims, id: string, body: { name?: string | null | undefined; role?: MemberRole | null | undefined }) {
  const { customer, member: actor } = await teamManager(parts.db, identity);
  const member = mine((await memberOfCustomer(parts.db, customer.id, id)) ?? undefined, "Member");
  if (body.role && body.role !== member.role && member.id === actor.id) throw aboutThemselves(id, "You cannot modify your own role.");
  return portalMemberJson(await parts.units.run((unit) => reviseMember(unit, customer.id, member.id, body, { member: actor })));
}

/** A manager removes a member other than themselves; the only owner stays. */
export async function removeTeamMember(parts: Pick<Parts, "db" | "units">, identity: IdentityClaims, id: string): Promise<void> {
  const { customer, member: actor } = await teamManager(parts.db, identity);
  const member = mine((await memberOfCustomer(parts.db, customer.id, id)) ?? undefined, "Member");
  if (member.id === actor.id) throw aboutThemselves(id, "You cannot remove yourself from the team.");
  await parts.units.run((unit) => removeMember(unit, customer.id, member.id));
}

/** The member whose portal session the caller's is (a seat's, once claimed); null for a session of the customer as a whole. */
export async function sessionMember(db: Knex, identity: IdentityClaims): Promise<MemberRow | null> {
  const { session_id: sessionId, customer_id: customerId } = customerOf(identity);
  const session = sessionId ? await findSession(db, sessionId) : undefined;
  return session?.member_id ? memberOfCustomer(db, customerId, session.member_id) : null;
}

/**
 * The customer whose team the caller manages: a session of the customer as a whole always may (as
 * Polar lets a customer), a member's only as its owner or a billing manager.
 */
export async function billingManagerOf(db: Knex, identity: IdentityClaims): Promise<{ customer_id: string; member: MemberRow | null }> {
  const member = await sessionMember(db, identity);
  if (member && member.role === "member") throw notPermitted("Only owners and billing managers can access billing features.");
  return { customer_id: customerOf(identity).customer_id, member };
}
