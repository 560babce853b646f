import type { Knex } from "@tollgate/kit";

/** A team customer's link to one of the buyer's Tollgate organizations. */
export interface OrganizationLinkRow {
  customer_id: string;
  /** The seller's organization. */
  organization_id: string;
  /** The buyer's organization; null while the link awaits an owner's consent. */
  linked_organization_id: string | null;
  linked_by_user_id: string | null;
  consent_token_hash: string | null;
  consent_token_expires_at: Date | null;
  requested_at: Date;
  linked_at: Date | null;
}

export type LinkedMemberStatus = "seated" | "refused" | "left";

/** A member of a linked organization as the customer's seats see them. */
export interface LinkedMemberRow {
  customer_id: string;
  user_id: string;
  email: string | null;
  seat_id: string | null;
  status: LinkedMemberStatus;
  /** Why a refused member holds no seat, in words for the people who can fix it. */
  reason: string | null;
  /** When the membership event last applied to them happened. */
  changed_at: Date;
}

const links = (db: Knex) => db<OrganizationLinkRow>("customer_organization_links");
const linkedMembers = (db: Knex) => db<LinkedMemberRow>("linked_organization_members");

export const findLink = (db: Knex, customerId: string) => links(db).where({ customer_id: customerId }).first();

/** The link, locked: consent and the membership events it lets in go one at a time per customer. */
export const lockLink = (db: Knex, customerId: string) => links(db).where({ customer_id: customerId }).forUpdate().first();

/** The customers whose seats follow this organization (every seller's), locked in a fixed order. */
export const lockLinksOf = (db: Knex, linkedOrganizationId: string) =>
  links(db).where({ linked_organization_id: linkedOrganizationId }).orderBy("customer_id").forUpdate();

/** A seller's request for a link; asking again leaves a request or a link as it is. */
export async function requestLink(db: Knex, link: Pick<OrganizationLinkRow, "customer_id" | "organization_id">): Promise<OrganizationLinkRow> {
  await links(db).insert(link).onConflict("customer_id").ignore();
  const row = await findLink(db, link.customer_id);
  if (!row) throw new Error(`the link of customer ${link.customer_id} vanished as it was asked for`);
  return row;
}

export const replaceConsentToken = (db: Knex, customerId: string, tokenHash: string, expiresAt: Date) =>
  links(db).where({ customer_id: customerId }).update({ consent_token_hash: tokenHash, consent_token_expires_at: expiresAt });

/** The link a live consent token opens, whatever its state. */
export const findLinkByConsentToken = (db: Knex, tokenHash: string) =>
  links(db).where({ consent_token_hash: tokenHash }).where("consent_token_expires_at", ">", db.fn.now()).first();

/** Links the customer to the organization, using up the consent token. */
export async function completeLink(db: Knex, customerId: string, linkedOrganizationId: string, userId: string): Promise<OrganizationLinkRow> {
  const [row] = await links(db)
    .where({ customer_id: customerId })
    .update({ linked_organization_id: linkedOrganizationId, linked_by_user_id: userId, linked_at: db.fn.now(), consent_token_hash: null, consent_token_expires_at: null })
    .returning("*");
  if (!row) throw new Error(`the link of customer ${customerId} vanished as it was consented to`);
  return row;
}

export const deleteLink = (db: Knex, customerId: string) => links(db).where({ customer_id: customerId }).delete();

export const linkedMembersOf = (db: Knex, customerId: string) => linkedMembers(db).where({ customer_id: customerId }).orderBy([{ column: "status" }, { column: "email" }]);

export const findLinkedMember = (db: Knex, customerId: string, userId: string) => linkedMembers(db).where({ customer_id: customerId, user_id: userId }).first();

export const saveLinkedMember = (db: Knex, member: LinkedMemberRow) =>
  linkedMembers(db).insert(member).onConflict(["customer_id", "user_id"]).merge(["email", "seat_id", "status", "reason", "changed_at"]);

/** The members still waiting for a seat, the longest-waiting first. */
export const refusedMembersOf = (db: Knex, customerId: string) => linkedMembers(db).where({ customer_id: customerId, status: "refused" }).orderBy("changed_at");
