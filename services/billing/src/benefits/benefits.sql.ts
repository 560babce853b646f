import { pageOf, type Knex, type Sort } from "@tollgate/kit";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import type { BenefitType } from "./properties.js";

export interface BenefitGrantRow {
  id: string;
  benefit_id: string;
  customer_id: string;
  /** The seat member the grant is for; none for a grant to the customer as a whole. */
  member_id: string | null;
  subscription_id: string | null;
  order_id: string | null;
  granted_at: Date | null;
  revoked_at: Date | null;
  properties: Record<string, unknown>;
  error: { message: string; type: string; timestamp: string } | null;
  created_at: Date;
  modified_at: Date | null;
}

/** What a grant comes from: a subscription, or the order of a one-time purchase. */
export type GrantSource = { subscription_id: string; order_id?: undefined } | { order_id: string; subscription_id?: undefined };

export interface BenefitRow {
  id: string;
  organization_id: string;
  type: BenefitType;
  description: string;
  properties: Record<string, unknown>;
  metadata: Metadata;
  selectable: boolean;
  deletable: boolean;
  is_deleted: boolean;
  created_at: Date;
  modified_at: Date | null;
}

export const benefits = (db: Knex) => db<BenefitRow>("benefits").where({ is_deleted: false });

export const findBenefit = (db: Knex, id: string) => benefits(db).where({ id }).first();

/** The ids among `ids` of the organization's live benefits a seller may attach to a product. */
export const selectableBenefitIds = async (db: Knex, organizationId: string, ids: string[]) =>
  (await benefits(db).where({ organization_id: organizationId, selectable: true }).whereIn("id", ids).select("id")).map((row) => row.id);

export const BENEFIT_SORTABLE = { created_at: "created_at", description: "description", type: "type", user_order: "created_at" } as const;

/** Which benefits a list asks for, within the organizations given. */
export interface BenefitFilter {
  organizationIds: string[];
  organization_id?: string[];
  type?: BenefitType[];
  id?: string[];
  exclude_id?: string[];
  /** Part of the description, in any case. */
  query?: string;
  /** Metadata values wanted, by key (see metadataFilters). */
  metadata: Map<string, string[]>;
}

export function pageOfBenefits(db: Knex, filter: BenefitFilter, page: { page: number; limit: number; sort: Sort<keyof typeof BENEFIT_SORTABLE> }) {
  const found = benefits(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  if (filter.type) void found.whereIn("type", filter.type);
  if (filter.id) void found.whereIn("id", filter.id);
  if (filter.exclude_id) void found.whereNotIn("id", filter.exclude_id);
  if (filter.query) void found.whereILike("description", `%${filter.query}%`);
  whereMetadata(found, "metadata", filter.metadata);
  return pageOf<BenefitRow, keyof typeof BENEFIT_SORTABLE>(found, { ...page, columns: BENEFIT_SORTABLE, table: "benefits" });
}

export async function insertBenefit(db: Knex, benefit: Pick<BenefitRow, "id" | "organization_id" | "type" | "description" | "properties" | "metadata">): Promise<BenefitRow> {
  const [row] = await db<BenefitRow>("benefits").insert(benefit).returning("*");
  if (!row) throw new Error("insert into benefits returned no row");
  return row;
}

export async function updateBenefit(db: Knex, id: string, changes: Partial<Pick<BenefitRow, "description" | "properties" | "metadata" | "is_deleted">>): Promise<BenefitRow | undefined> {
  const [row] = await db<BenefitRow>("benefits")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

/** The grants a purchase (its subscription, or its order) gave. */
export const grantsOf = (db: Knex, source: GrantSource) =>
  db<BenefitGrantRow>("benefit_grants").where(source.subscription_id ? { subscription_id: source.subscription_id } : { order_id: source.order_id });

/** The purchase's grants not revoked yet (granted or waiting for an account); only the member's, when one is named (a seat given back). */
export function unrevokedGrantsOf(db: Knex, source: GrantSource, memberId?: string): Knex.QueryBuilder<BenefitGrantRow, BenefitGrantRow[]> {
  const found = grantsOf(db, source).whereNull("revoked_at");
  return memberId ? found.where({ member_id: memberId }) : found;
}

/** The purchase's grants in effect: granted and not revoked. */
export const grantedGrantsOf = (db: Knex, source: GrantSource) => unrevokedGrantsOf(db, source).whereNotNull("granted_at");

/** The meter credits a subscription's grants in effect give: each benefit's meter, units and rollover. */
export const meterCreditsOf = async (db: Knex, subscriptionId: string): Promise<{ meter_id: string; units: number; rollover: boolean }[]> =>
  (
    await grantedGrantsOf(db, { subscription_id: subscriptionId })
      .join("benefits", "benefits.id", "benefit_grants.benefit_id")
      .where("benefits.type", "meter_credit")
      .select<{ properties: { meter_id: string; units: number; rollover: boolean } }[]>("benefits.properties")
  ).map(({ properties }) => ({ meter_id: properties.meter_id, units: properties.units, rollover: properties.rollover }));

/** Whether a live meter credit benefit credits the meter. */
export const meterInUseByBenefits = async (db: Knex, meterId: string): Promise<boolean> =>
  (await benefits(db).where({ type: "meter_credit" }).whereRaw("properties ->> 'meter_id' = ?", [meterId]).first("id")) !== undefined;

export const insertGrant = (db: Knex, grant: Omit<BenefitGrantRow, "created_at"> & Partial<Pick<BenefitGrantRow, "created_at">>) => db<BenefitGrantRow>("benefit_grants").insert(grant);

type GrantChanges = Partial<Pick<BenefitGrantRow, "granted_at" | "revoked_at" | "properties" | "error" | "modified_at">>;

/** A change to a grant: to write with a unit's others. */
export const changeGrant = (db: Knex, id: string, changes: GrantChanges) => db<BenefitGrantRow>("benefit_grants").where({ id }).update(changes);

/** The grant that issued a license key shows the key's new last characters once the key is rotated. */
export const showRotatedKey = (db: Knex, licenseKeyId: string, displayKey: string) =>
  db("benefit_grants")
    .whereRaw("properties->>'license_key_id' = ?", [licenseKeyId])
    .update({ properties: db.raw("jsonb_set(properties, '{display_key}', to_jsonb(?::text))", [displayKey]), modified_at: new Date() });

export async function updateGrant(db: Knex, id: string, changes: GrantChanges): Promise<BenefitGrantRow | undefined> {
  const [row] = await changeGrant(db, id, changes).returning("*");
  return row;
}

/** A benefit by id, deleted or not: a grant keeps pointing at the benefit it was made from. */
export const findAnyBenefit = (db: Knex, id: string) => db<BenefitRow>("benefits").where({ id }).first();

/** The customer's grants, each with its benefit joined for filtering and sorting (what the customer portal lists). */
const customersGrants = (db: Knex, customerId: string) =>
  db<BenefitGrantRow>("benefit_grants").join("benefits", "benefits.id", "benefit_grants.benefit_id").where("benefit_grants.customer_id", customerId).select<BenefitGrantRow[]>("benefit_grants.*");

// Grants are made in the order of the product's benefits, so creation order is that order.
export const CUSTOMER_GRANT_SORTABLE = {
  granted_at: "benefit_grants.granted_at",
  type: "benefits.type",
  organization: "benefits.organization_id",
  product_benefit: "benefit_grants.created_at",
} as const;

/** What a customer's list of grants is narrowed to; `fromCheckouts` are queries of the order and subscription ids the checkouts asked for became. */
export interface CustomerGrantFilter {
  text?: string | undefined;
  types?: string[] | undefined;
  benefitIds?: string[] | undefined;
  orderIds?: string[] | undefined;
  subscriptionIds?: string[] | undefined;
  fromCheckouts?: { orderIds: Knex.QueryBuilder; subscriptionIds: Knex.QueryBuilder } | undefined;
  /** Grants held by these seat members. */
  memberIds?: string[] | undefined;
}

/** Narrows grants to those held by the seat members named. */
const whereHeldByMembers = (found: Knex.QueryBuilder, memberIds: string[] | undefined) => void (memberIds && found.whereIn("benefit_grants.member_id", memberIds));

/** One page of a customer's grants. */
export function pageOfCustomersGrants(db: Knex, customerId: string, filter: CustomerGrantFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CUSTOMER_GRANT_SORTABLE> }) {
  const found = customersGrants(db, customerId);
  if (filter.text) void found.whereILike("benefits.description", `%${filter.text}%`);
  if (filter.types) void found.whereIn("benefits.type", filter.types);
  if (filter.benefitIds) void found.whereIn("benefit_grants.benefit_id", filter.benefitIds);
  if (filter.orderIds) void found.whereIn("benefit_grants.order_id", filter.orderIds);
  if (filter.subscriptionIds) void found.whereIn("benefit_grants.subscription_id", filter.subscriptionIds);
  const fromCheckouts = filter.fromCheckouts;
  if (fromCheckouts) void found.where((made) => void made.whereIn("benefit_grants.order_id", fromCheckouts.orderIds).orWhereIn("benefit_grants.subscription_id", fromCheckouts.subscriptionIds));
  whereHeldByMembers(found, filter.memberIds);
  return pageOf<BenefitGrantRow, keyof typeof CUSTOMER_GRANT_SORTABLE>(found, { ...page, columns: CUSTOMER_GRANT_SORTABLE, table: "benefit_grants" });
}

/** One of the customer's grants. */
export const findCustomersGrant = (db: Knex, customerId: string, id: string) => customersGrants(db, customerId).where("benefit_grants.id", id).first();

/** The benefits with the ids given, deleted ones too (a grant still shows what it was made from). */
export const benefitsWithIds = (db: Knex, ids: string[]) => db<BenefitRow>("benefits").whereIn("id", ids);

/** The customer's live grants of downloadables benefits (of one benefit, when named). */
export function liveDownloadableGrants(db: Knex, customerId: string, benefitId: string | undefined): Promise<BenefitGrantRow[]> {
  const found = customersGrants(db, customerId).where("benefits.type", "downloadables").whereNotNull("benefit_grants.granted_at").whereNull("benefit_grants.revoked_at");
  if (benefitId) void found.where("benefit_grants.benefit_id", benefitId);
  return found;
}

export const GRANT_SORTABLE = { created_at: "benefit_grants.created_at", granted_at: "benefit_grants.granted_at", revoked_at: "benefit_grants.revoked_at" } as const;

/** Which grants a list asks for: to customers of the organizations given, filtered as the grant endpoints allow. */
export interface GrantFilter {
  organizationIds: string[];
  benefitIds?: string[];
  customer_id?: string[];
  externalCustomerIds?: string[];
  is_granted?: boolean;
  member_id?: string[];
}

/** One page of grants, with the benefits they are of. */
export async function pageOfGrants(db: Knex, filter: GrantFilter, page: { page: number; limit: number; sort: Sort<keyof typeof GRANT_SORTABLE> }) {
  // crosses into customers: a grant's organization (and external id) is its customer's, filtered in the one statement that pages.
  const found = db<BenefitGrantRow>("benefit_grants")
    .join("customers", "customers.id", "benefit_grants.customer_id")
    .whereIn("customers.organization_id", filter.organizationIds)
    .select("benefit_grants.*");
  if (filter.benefitIds) void found.whereIn("benefit_grants.benefit_id", filter.benefitIds);
  if (filter.customer_id) void found.whereIn("benefit_grants.customer_id", filter.customer_id);
  if (filter.externalCustomerIds) void found.whereIn("customers.external_id", filter.externalCustomerIds);
  if (filter.is_granted === true) void found.whereNotNull("benefit_grants.granted_at").whereNull("benefit_grants.revoked_at");
  if (filter.is_granted === false) void found.where((revoked) => void revoked.whereNull("benefit_grants.granted_at").orWhereNotNull("benefit_grants.revoked_at"));
  whereHeldByMembers(found, filter.member_id);
  const { rows, total } = await pageOf<BenefitGrantRow, keyof typeof GRANT_SORTABLE>(found, { ...page, columns: GRANT_SORTABLE, table: "benefit_grants" });
  return { rows, total, benefits: await benefitsWithIds(db, rows.map((grant) => grant.benefit_id)) };
}
