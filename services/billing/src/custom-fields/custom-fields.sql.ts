import { pageOf, type Knex, type Sort } from "@tollgate/kit";
import type { Metadata } from "../db/metadata.js";

export interface CustomFieldRow {
  id: string;
  organization_id: string;
  type: "text" | "number" | "select" | "checkbox" | "date";
  slug: string;
  name: string;
  properties: Record<string, unknown>;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export const customFields = (db: Knex) => db<CustomFieldRow>("custom_fields");

export const findCustomField = (db: Knex, id: string) => customFields(db).where({ id }).first();

/** The ids among `ids` of the organization's custom fields. */
export const customFieldIdsOf = async (db: Knex, organizationId: string, ids: string[]) =>
  (await customFields(db).where({ organization_id: organizationId }).whereIn("id", ids).select("id")).map((row) => row.id);

export async function insertCustomField(db: Knex, field: Omit<CustomFieldRow, "created_at" | "modified_at">): Promise<CustomFieldRow> {
  const [row] = await customFields(db).insert(field).returning("*");
  if (!row) throw new Error("insert into custom_fields returned no row");
  return row;
}

export async function updateCustomField(db: Knex, id: string, changes: Partial<Pick<CustomFieldRow, "slug" | "name" | "properties" | "metadata">>): Promise<CustomFieldRow | undefined> {
  const [row] = await customFields(db)
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

export const deleteCustomField = (db: Knex, id: string) => customFields(db).where({ id }).delete();

export const CUSTOM_FIELD_SORTABLE = { created_at: "created_at", slug: "slug", name: "name", type: "type" } as const;

/** Which custom fields a list asks for, within the organizations given. */
export interface CustomFieldFilter {
  organizationIds: string[];
  organization_id?: string[];
  type?: CustomFieldRow["type"][];
  /** Part of the name or slug, in any case. */
  query?: string;
}

export function pageOfCustomFields(db: Knex, filter: CustomFieldFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CUSTOM_FIELD_SORTABLE> }) {
  const found = customFields(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  if (filter.type) void found.whereIn("type", filter.type);
  const { query } = filter;
  if (query) void found.where((match) => void match.whereILike("name", `%${query}%`).orWhereILike("slug", `%${query}%`));
  return pageOf<CustomFieldRow, keyof typeof CUSTOM_FIELD_SORTABLE>(found, { ...page, columns: CUSTOM_FIELD_SORTABLE, table: "custom_fields" });
}
