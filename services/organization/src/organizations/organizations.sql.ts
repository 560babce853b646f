import { randomId, type Knex } from "@tollgate/kit";

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  /** Its members must have two-factor authentication to act for it (Tollgate's own, beside better-auth's fields). */
  require_two_factor: boolean;
  created_at: Date;
}

export const findOrganizationById = (db: Knex, id: string) => db<OrganizationRow>("organizations").where({ id }).first();
export const findOrganizationBySlug = (db: Knex, slug: string) => db<OrganizationRow>("organizations").where({ slug }).first();

/**
 * Slugs no organization may take: an organization's slug is the first part of its addresses on the
 * site (`/{slug}/portal`, its customer portal), so it must not be a path the gateway or the web app
 * already answers.
 */
const RESERVED_SLUGS = new Set(["api", "v1", "assets", "checkout", "organizations", "accept-invitation", "account", "purchases", "admin", "dev", "sign-in", "sign-up", "forgot-password", "reset-password", "verified", "auth-error", "healthz", "readyz", "metrics"]);

/** Whether `slug` is reserved or held by an organization other than `ownId`. */
export async function slugTaken(db: Knex, slug: string, ownId?: string): Promise<boolean> {
  if (RESERVED_SLUGS.has(slug.toLowerCase())) return true;
  const holder = await findOrganizationBySlug(db, slug);
  return holder !== undefined && holder.id !== ownId;
}

export async function insertOrganization(db: Knex, fields: Pick<OrganizationRow, "name" | "slug" | "logo" | "metadata">): Promise<OrganizationRow> {
  const [row] = await db<OrganizationRow>("organizations")
    .insert({ id: randomId(32), ...fields })
    .returning("*");
  if (!row) throw new Error("insert into organizations returned no row");
  return row;
}

export async function updateOrganization(db: Knex, id: string, changes: Partial<Pick<OrganizationRow, "name" | "slug" | "logo" | "metadata" | "require_two_factor">>): Promise<OrganizationRow | undefined> {
  // pg sends objects as JSON, which is what the jsonb metadata column takes.
  const [row] = await db<OrganizationRow>("organizations").where({ id }).update(changes).returning("*");
  return row;
}

/** Whether the organization requires two-factor of its members (false for one that does not exist). */
export async function requiresTwoFactor(db: Knex, id: string): Promise<boolean> {
  const row = await db<OrganizationRow>("organizations").where({ id }).first("require_two_factor");
  return row?.require_two_factor === true;
}

export const deleteOrganization = (db: Knex, id: string) => db<OrganizationRow>("organizations").where({ id }).delete();

/**
 * Locks an organization's row until the transaction ends, so changes that must see each other's
 * outcome (who is still an owner) run one at a time. FOR NO KEY UPDATE leaves rows that merely
 * reference it (new members, invitations, teams) free to be written meanwhile.
 */
export const lockOrganization = (db: Knex, id: string) => db<OrganizationRow>("organizations").where({ id }).forNoKeyUpdate().first("id");

export const organizationsOfUser = (db: Knex, userId: string) =>
  db<OrganizationRow>("organizations")
    .join("members", "members.organization_id", "organizations.id")
    .where("members.user_id", userId)
    .orderBy("organizations.created_at")
    .select<OrganizationRow[]>("organizations.*");
