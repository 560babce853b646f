import { pageOf, type Knex, type Sort } from "@tollgate/kit";

/** Polar's roles: one owner, who alone hands ownership on; billing managers, who manage the team with them; members. */
export const MEMBER_ROLES = ["owner", "billing_manager", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface MemberRow {
  id: string;
  organization_id: string;
  customer_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  role: MemberRole;
  created_at: Date;
  modified_at: Date | null;
  /** When the member was removed; kept so seats, grants and sessions that named them still read. */
  deleted_at: Date | null;
}

export type MemberDraft = Pick<MemberRow, "id" | "organization_id" | "customer_id" | "email" | "name" | "external_id" | "role"> & Partial<Pick<MemberRow, "created_at">>;
export type MemberChanges = Partial<Pick<MemberRow, "email" | "name" | "external_id" | "role">>;

/** The members not removed. */
const liveMembers = (db: Knex) => db<MemberRow>("members").whereNull("deleted_at");

/** A live member of the customer, by id. */
export const findMemberOfCustomer = (db: Knex, customerId: string, id: string) => liveMembers(db).where({ customer_id: customerId, id }).first();

/** A live member by id, among the sellers'. */
export const findMember = (db: Knex, organizationIds: string[], id: string) => liveMembers(db).whereIn("organization_id", organizationIds).where({ id }).first();

/** The customer's live member with this e-mail, whatever its case. */
export const findMemberByEmail = (db: Knex, customerId: string, email: string) => liveMembers(db).where({ customer_id: customerId }).whereRaw("lower(email) = lower(?)", [email]).first();

/** The seller's live members with this e-mail, whatever its case, across their customers: oldest first. */
export const membersWithEmail = (db: Knex, organizationId: string, email: string) =>
  liveMembers(db).where({ organization_id: organizationId }).whereRaw("lower(email) = lower(?)", [email]).orderBy([{ column: "created_at" }, { column: "id" }]);

/** The customer's live member known to the seller by this external id. */
export const findMemberByExternalId = (db: Knex, customerId: string, externalId: string) => liveMembers(db).where({ customer_id: customerId, external_id: externalId }).first();

/** The customer's live owners: one, but for a moment inside a transfer. */
export const ownersOf = (db: Knex, customerId: string) => liveMembers(db).where({ customer_id: customerId, role: "owner" }).orderBy("created_at");

/** The customer's live members, oldest first. */
export const membersOfCustomer = (db: Knex, customerId: string) => liveMembers(db).where({ customer_id: customerId }).orderBy([{ column: "created_at" }, { column: "id" }]);

/** The members with these ids, removed ones too (for the grants, keys and seats that name them). */
export const membersWithIds = (db: Knex, ids: string[]) => db<MemberRow>("members").whereIn("id", ids);

/**
 * Adds the member unless a live one of the customer has the e-mail or the external id already (the
 * unique indexes members_email and members_external_id); undefined then. A concurrent insert of the
 * same member waits for the other to commit, so the caller reads the winner back.
 */
export async function insertMember(db: Knex, draft: MemberDraft): Promise<MemberRow | undefined> {
  const [row] = await db<MemberRow>("members").insert(draft).onConflict().ignore().returning("*");
  return row;
}

export async function updateMember(db: Knex, id: string, changes: MemberChanges): Promise<MemberRow> {
  const [row] = await db<MemberRow>("members")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`member ${id} is gone`);
  return row;
}

/** Removes the members given (soft: see `deleted_at`); the rows as removed. */
export const removeMembers = (db: Knex, ids: string[]): Promise<MemberRow[]> =>
  liveMembers(db)
    .whereIn("id", ids)
    .update({ deleted_at: new Date(), modified_at: new Date() })
    .returning("*");

export const MEMBER_SORTABLE = { created_at: "created_at" } as const;

/** What a seller's list of members is narrowed to. */
export interface MemberFilter {
  organizationIds: string[];
  customerId: string | undefined;
  /** The customers with the seller's external id, as a subquery. */
  customerIds: Knex.QueryBuilder | undefined;
  role: MemberRole | undefined;
}

/** One page of sellers' live members. */
export function pageOfMembers(db: Knex, filter: MemberFilter, page: { page: number; limit: number; sort: Sort<keyof typeof MEMBER_SORTABLE> }) {
  const found = liveMembers(db).whereIn("organization_id", filter.organizationIds);
  if (filter.customerId) void found.where({ customer_id: filter.customerId });
  if (filter.customerIds) void found.whereIn("customer_id", filter.customerIds);
  if (filter.role) void found.where({ role: filter.role });
  return pageOf<MemberRow, keyof typeof MEMBER_SORTABLE>(found, { ...page, columns: MEMBER_SORTABLE, table: "members" });
}
