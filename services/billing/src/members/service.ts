import { HttpError, invalidField, isUniqueViolation, notFound, notPermitted, randomId, ValidationError, type Knex, type UnitOfWork } from "@tollgate/kit";
import type { CustomerNamed } from "../customers/named.js";
import { endMemberSessions } from "../customer-sessions/service.js";
import { customerIdsWithExternalIds, lockCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { announceBilling } from "../events.js";
import { findMemberByEmail, findMemberByExternalId, findMemberOfCustomer, insertMember, membersOfCustomer, ownersOf, pageOfMembers, removeMembers, updateMember, type MemberChanges, type MemberRole, type MemberRow } from "./members.sql.js";
import { keepingOneOwner } from "./owners.js";
import { memberJson } from "./output.js";
import type { Parts } from "../parts.js";

// The reads the routes and other domains make, as the store has them.
export { findMember, findMemberByExternalId, membersOfCustomer, membersWithEmail, ownersOf, type MemberRole, type MemberRow } from "./members.sql.js";

const announceMember = (unit: UnitOfWork, type: "member.created" | "member.updated" | "member.deleted", member: MemberRow) => announceBilling(unit, type, member.organization_id, memberJson(member));

/** The customer's live member with this id, or null (removed, someone else's, or nobody's). */
export const memberOfCustomer = async (db: Knex, customerId: string, memberId: string): Promise<MemberRow | null> => (await findMemberOfCustomer(db, customerId, memberId)) ?? null;

/** A new member as the seller or the team's managers add them; ownership is not given this way but handed on (`reviseMember`). */
export interface MemberInput {
  email: string;
  name?: string | null | undefined;
  external_id?: string | null | undefined;
  role?: Exclude<MemberRole, "owner"> | undefined;
}

/** Inserts a member and tells of it; undefined when a live one of the customer has the e-mail or external id already. */
async function inserted(unit: UnitOfWork, customer: Pick<CustomerRow, "id" | "organization_id">, input: Omit<MemberInput, "role"> & { role: MemberRole }): Promise<MemberRow | undefined> {
  const member = await insertMember(unit.db, {
    id: randomId(32),
    organization_id: customer.organization_id,
    customer_id: customer.id,
    email: input.email.trim(),
    name: input.name ?? null,
    external_id: input.external_id ?? null,
    role: input.role,
  });
  if (member) announceMember(unit, "member.created", member);
  return member;
}

/**
 * Adds a member to the customer, as Polar's create does: an individual has their owner alone (403);
 * a member with the e-mail already is the one answered, unchanged; an external id another member
 * has is refused. The customer is locked, so two adds to an individual cannot both pass.
 */
export async function addMember(unit: UnitOfWork, customer: Pick<CustomerRow, "id" | "organization_id">, input: MemberInput): Promise<MemberRow> {
  const locked = await lockCustomer(unit.db, customer.id);
  if (!locked) throw notFound("Customer");
  if (locked.type === "individual" && (await membersOfCustomer(unit.db, customer.id)).length > 0) {
    throw notPermitted("Individual customers can only have one member (the owner). Upgrade to a team customer to add more members.");
  }
  const existing = await findMemberByEmail(unit.db, customer.id, input.email.trim());
  if (existing) return existing;
  const member = await inserted(unit, customer, { ...input, role: input.role ?? "member" });
  // Polar answers a clash of external ids with a server error; it is the seller's input at fault.
  if (!member) throw invalidField(["external_id"], "A member with this external ID already exists for this customer.", input.external_id);
  return member;
}

/** The owner a customer is made with: Polar's `owner` of the create body, else the customer's own e-mail, name and external id. */
export interface OwnerInput {
  email: string;
  name?: string | null | undefined;
  external_id?: string | null | undefined;
}

/** The customer's owner, made with them (in the unit that makes them): every customer has one. */
export async function addOwner(unit: UnitOfWork, customer: CustomerRow, owner?: OwnerInput | null): Promise<MemberRow> {
  const member = await inserted(unit, customer, { email: owner?.email ?? customer.email, name: owner?.name ?? customer.name, external_id: owner?.external_id ?? customer.external_id, role: "owner" });
  if (!member) throw new Error(`customer ${customer.id} has a member already as it is made`);
  return member;
}

/** How a seat (or anyone) names the member it is for: an e-mail, the seller's external id for them, or both. */
export type MemberLookup = { email: string; external_id?: string | null | undefined; name?: string | null | undefined } | { email?: string | null | undefined; external_id: string; name?: string | null | undefined };

/** Polar's refusal of an external id whose member has another e-mail than the one given. */
const emailMismatch = (externalId: string, email: string) =>
  new HttpError(400, "MemberEmailMismatch", `Member with external_member_id '${externalId}' exists but has a different email than '${email}'`);

/**
 * The customer's live member the lookup names, made (role member) when there is none, as Polar's
 * seat assignment resolves one: by external id first (its e-mail must then agree), else by e-mail
 * whatever its case, linking the external id to a member found by e-mail that has none. An external
 * id alone that names nobody is 404; an e-mail alone always gives a member. Not locked: concurrent
 * lookups of one e-mail give one member (the second reads the first's back).
 */
export async function findOrAddMember(unit: UnitOfWork, customer: Pick<CustomerRow, "id" | "organization_id">, lookup: MemberLookup): Promise<MemberRow> {
  const email = lookup.email?.trim() || null;
  const externalId = lookup.external_id ?? null;
  if (externalId !== null) {
    const known = await findMemberByExternalId(unit.db, customer.id, externalId);
    if (known) {
      if (email && known.email.toLowerCase() !== email.toLowerCase()) throw emailMismatch(externalId, email);
      return known;
    }
    if (!email) throw new HttpError(404, "MemberNotFound", `Member not found: ${externalId}`);
  }
  if (!email) throw new Error("a member lookup names an e-mail or an external id");
  const member = (await findMemberByEmail(unit.db, customer.id, email)) ?? (await inserted(unit, customer, { email, name: lookup.name, role: "member" })) ?? (await findMemberByEmail(unit.db, customer.id, email));
  if (!member) throw new Error(`customer ${customer.id}: no member could be found or made for ${email}`);
  if (externalId === null || member.external_id === externalId) return member;
  if (member.external_id !== null) throw emailMismatch(externalId, email);
  try {
    const linked = await updateMember(unit.db, member.id, { external_id: externalId });
    announceMember(unit, "member.updated", linked);
    return linked;
  } catch (error) {
    // Another member took the external id meanwhile.
    if (isUniqueViolation(error)) throw emailMismatch(externalId, email);
    throw error;
  }
}

/** A change to a member: Polar's MemberUpdate (a null leaves a field as it is). */
export interface MemberRevision {
  name?: string | null | undefined;
  email?: string | null | undefined;
  role?: MemberRole | null | undefined;
}

/**
 * Who changes a member: the seller, who may hand ownership to anyone, or a member of the team in
 * the portal, who may only if they are the owner.
 */
export type MemberChanger = { seller: true } | { member: MemberRow };

/** What an e-mail change must respect: an individual's owner follows the customer's e-mail, and e-mails are unique in a team. */
async function checkEmailChange(db: Knex, customer: CustomerRow, member: MemberRow, email: string): Promise<void> {
  if (customer.type === "individual") throw invalidField(["email"], "Cannot change the email of an individual customer's owner. Update the customer's email instead.", email);
  const holder = await findMemberByEmail(db, customer.id, email);
  if (holder && holder.id !== member.id) throw invalidField(["email"], "A member with this email already exists for this customer.", email);
}

/**
 * Changes a member's name, e-mail or role, as Polar's update does. Made owner, they take the
 * ownership from the current owner, who stays a billing manager; the only owner cannot be demoted.
 */
export function reviseMember(unit: UnitOfWork, customerId: string, memberId: string, revision: MemberRevision, by: MemberChanger): Promise<MemberRow> {
  const onlyOwner = () => invalidField(["role"], "Cannot change role. Customer must have exactly one owner.", revision.role);
  return keepingOneOwner(unit, customerId, onlyOwner, async (customer) => {
    const member = await findMemberOfCustomer(unit.db, customerId, memberId);
    if (!member) throw notFound("Member");
    const changes: MemberChanges = {};
    if (revision.role && revision.role !== member.role) {
      const [owner] = revision.role === "owner" ? await ownersOf(unit.db, customerId) : [];
      if (owner) {
        if (!("seller" in by) && by.member.role !== "owner") throw invalidField(["role"], "Only the owner can transfer ownership.", revision.role);
        announceMember(unit, "member.updated", await updateMember(unit.db, owner.id, { role: "billing_manager" }));
      }
      changes.role = revision.role;
    }
    const email = revision.email?.trim();
    if (email && email !== member.email) {
      await checkEmailChange(unit.db, customer, member, email);
      changes.email = email;
    }
    if (revision.name !== undefined && revision.name !== null) changes.name = revision.name;
    if (Object.keys(changes).length === 0) return member;
    const changed = await updateMember(unit.db, member.id, changes);
    announceMember(unit, "member.updated", changed);
    return changed;
  });
}

/**
 * Keeps an individual's owner on the customer's e-mail, as Polar does: the owner of an individual
 * is the customer, and a drifted address would make another owner at their next sign-in.
 */
export async function followCustomerEmail(unit: UnitOfWork, customer: CustomerRow): Promise<void> {
  if (customer.type !== "individual") return;
  const [owner] = await ownersOf(unit.db, customer.id);
  if (!owner || owner.email.toLowerCase() === customer.email.toLowerCase()) return;
  announceMember(unit, "member.updated", await updateMember(unit.db, owner.id, { email: customer.email }));
}

/** Removes a member (kept, as removed) and ends their portal sessions; the only owner cannot be removed. */
export function removeMember(unit: UnitOfWork, customerId: string, memberId: string): Promise<MemberRow> {
  const onlyOwner = () => invalidField([], "Cannot delete the only owner. Transfer ownership first.", memberId);
  return keepingOneOwner(unit, customerId, onlyOwner, async () => {
    const member = await findMemberOfCustomer(unit.db, customerId, memberId);
    if (!member) throw notFound("Member");
    const [removed] = await removeMembers(unit.db, [member.id]);
    if (!removed) throw notFound("Member");
    await endMemberSessions(unit, member.id);
    announceMember(unit, "member.deleted", removed);
    return removed;
  });
}

/** Removes every member of a customer who is being deleted: no owner is left to keep. */
export async function removeMembersOfCustomer(unit: UnitOfWork, customerId: string): Promise<void> {
  const members = await membersOfCustomer(unit.db, customerId);
  for (const removed of await removeMembers(unit.db, members.map((member) => member.id))) announceMember(unit, "member.deleted", removed);
}

/** A page of the sellers' members, narrowed to a customer by id or by the seller's external id for them. */
export function listMembers(db: Knex, filter: { organizationIds: string[]; customerId?: string | undefined; externalCustomerId?: string | undefined; role: MemberRole | undefined }, page: Parameters<typeof pageOfMembers>[2]) {
  const { organizationIds, externalCustomerId } = filter;
  const customerIds = externalCustomerId === undefined ? undefined : customerIdsWithExternalIds(db, organizationIds, [externalCustomerId]);
  return pageOfMembers(db, { organizationIds, customerId: filter.customerId, customerIds, role: filter.role }, page);
}

/** The seller adds a member to a customer they reach. */
export const createMember = (parts: Pick<Parts, "units">, customer: CustomerRow, input: MemberInput) => parts.units.run((unit) => addMember(unit, customer, input));

/** The seller changes a member, and may hand the ownership to them. */
export const changeMember = (parts: Pick<Parts, "units">, member: MemberRow, revision: MemberRevision) =>
  parts.units.run((unit) => reviseMember(unit, member.customer_id, member.id, revision, { seller: true }));

/** The seller removes a member. */
export const deleteMember = (parts: Pick<Parts, "units">, member: MemberRow) => parts.units.run((unit) => removeMember(unit, member.customer_id, member.id));

/** 0.47 names the customer a member's external id is unique in by exactly one of its ids, as a query. */
export function customerOfQuery(query: { customer_id?: string | undefined; external_customer_id?: string | undefined }): CustomerNamed {
  if (query.customer_id !== undefined && query.external_customer_id !== undefined) {
    throw new ValidationError([{ location: "query", path: [], message: "Only one of customer_id or external_customer_id may be provided.", code: "value_error", input: null }]);
  }
  if (query.customer_id !== undefined) return { customer_id: query.customer_id };
  if (query.external_customer_id !== undefined) return { external_customer_id: query.external_customer_id };
  throw new ValidationError([{ location: "query", path: [], message: "One of customer_id or external_customer_id must be provided.", code: "missing", input: null }]);
}
