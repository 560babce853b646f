import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";

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
