import { randomId, type Knex } from "@tollgate/kit";

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

export const findOrganizationById = (db: Knex, id: string) => db<OrganizationRow>("organizations").where({ id }).first();
export const findOrganizationBySlug = (db: Knex, slug: string) => db<OrganizationRow>("organizations").where({ slug }).first();

export async function insertOrganization(db: Knex, fields: Pick<OrganizationRow, "name" | "slug" | "logo" | "metadata">): Promise<OrganizationRow> {
  const [row] = await db<OrganizationRow>("organizations")
    .insert({ id: randomId(32), ...fields })
    .returning("*");
  if (!row) throw new Error("insert into organizations returned no row");
  return row;
}

export async function updateOrganization(db: Knex, id: string, changes: Partial<Pick<OrganizationRow, "name" | "slug" | "logo" | "metadata">>): Promise<OrganizationRow | undefined> {
  // pg sends objects as JSON, which is what the jsonb metadata column takes.
  const [row] = await db<OrganizationRow>("organizations").where({ id }).update(changes).returning("*");
  return row;
}

export const deleteOrganization = (db: Knex, id: string) => db<OrganizationRow>("organizations").where({ id }).delete();

export const organizationsOfUser = (db: Knex, userId: string) =>
  db<OrganizationRow>("organizations")
    .join("members", "members.organization_id", "organizations.id")
    .where("members.user_id", userId)
    .orderBy("organizations.created_at")
    .select<OrganizationRow[]>("organizations.*");
