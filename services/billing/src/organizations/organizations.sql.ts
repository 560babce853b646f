import { pageOf, type Knex, type Sort } from "@tollgate/kit";
import { jsonbArray } from "../db/arrays.js";
import type { Address } from "../db/address.js";
import type { TaxRegistration } from "../taxes/calculation.js";

export interface SocialLink {
  platform: string;
  url: string;
}

/** A seller: the organization service's organization, with what billing keeps about it. */
export interface SellerRow {
  id: string;
  name: string;
  slug: string;
  avatar_url: string | null;
  email: string | null;
  website: string | null;
  /** The seller's own policies, linked from its checkouts. */
  terms_of_service_url: string | null;
  refund_policy_url: string | null;
  socials: SocialLink[];
  details: Record<string, unknown> | null;
  details_submitted_at: Date | null;
  country: string | null;
  default_presentment_currency: string;
  default_tax_behavior: string;
  /** Where the seller charges tax (taxes/), and the address and tax number their invoices carry. */
  tax_registrations: TaxRegistration[];
  address: Address | null;
  tax_id: string | null;
  feature_settings: Record<string, unknown>;
  subscription_settings: Record<string, unknown>;
  notification_settings: Record<string, unknown>;
  customer_email_settings: Record<string, unknown>;
  customer_portal_settings: Record<string, unknown>;
  /** How far the sandbox's test clock has been moved ahead (see test-clock/). */
  clock_offset_seconds: number;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export type SellerChanges = Partial<Omit<SellerRow, "id" | "created_at" | "modified_at" | "deleted_at">>;


export const sellers = (db: Knex) => db<SellerRow>("organizations").whereNull("deleted_at");

export const findSeller = (db: Knex, id: string) => sellers(db).where({ id }).first();

/** What a seller's changes write, its array columns as jsonb. */
function columnsOf(db: Knex, changes: SellerChanges) {
  const { socials, tax_registrations: registrations, ...rest } = changes;
  return { ...rest, ...(socials && { socials: jsonbArray(db, socials) }), ...(registrations && { tax_registrations: jsonbArray(db, registrations) }) };
}

/** A new seller, with settings of its own if given; none when it is already known. */
export async function insertSeller(db: Knex, seller: Pick<SellerRow, "id" | "name" | "slug"> & SellerChanges): Promise<SellerRow | undefined> {
  const [row] = await db<SellerRow>("organizations").insert(columnsOf(db, seller)).onConflict("id").ignore().returning("*");
  return row;
}

export async function updateSeller(db: Knex, id: string, changes: SellerChanges): Promise<SellerRow | undefined> {
  const [row] = await sellers(db)
    .where({ id })
    .update({ ...columnsOf(db, changes), modified_at: new Date() })
    .returning("*");
  return row;
}

export const deleteSeller = (db: Knex, id: string) => db<SellerRow>("organizations").where({ id }).update({ deleted_at: new Date() });

/** A seller whether or not it has been deleted: its customers' invoices still carry its slug. */
export const findSellerIncludingDeleted = (db: Knex, id: string) => db<SellerRow>("organizations").where({ id }).first();

export const SELLER_SORTABLE = { created_at: "created_at", slug: "slug", name: "name" } as const;

/** The sellers among `ids` (with the slug given, if one is). */
export function pageOfSellers(db: Knex, filter: { ids: string[]; slug?: string }, page: { page: number; limit: number; sort: Sort<keyof typeof SELLER_SORTABLE> }) {
  const found = sellers(db).whereIn("id", filter.ids);
  if (filter.slug) void found.where({ slug: filter.slug });
  return pageOf<SellerRow, keyof typeof SELLER_SORTABLE>(found, { ...page, columns: SELLER_SORTABLE, table: "organizations" });
}

/** How far the seller's test clock is ahead of real time (none for a seller not known). */
export async function clockOffsetOf(db: Knex, id: string): Promise<number> {
  const seller = await db<SellerRow>("organizations").where({ id }).first<Pick<SellerRow, "clock_offset_seconds"> | undefined>("clock_offset_seconds");
  return seller?.clock_offset_seconds ?? 0;
}

/** Moves the seller's test clock ahead. */
export const advanceClockOffset = (db: Knex, id: string, seconds: number) => db<SellerRow>("organizations").where({ id }).increment("clock_offset_seconds", seconds);

export const findSellerBySlug = (db: Knex, slug: string) => sellers(db).where({ slug }).first();

/** The names and slugs of the sellers with the ids given. */
export const sellerNames = (db: Knex, ids: string[]) => sellers(db).whereIn("id", ids).select("id", "name", "slug");
