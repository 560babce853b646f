import type { z } from "zod";
import { invalidField, isUniqueViolation, parseNested, randomId, type Knex } from "@tollgate/kit";
import { deleteCustomField, insertCustomField, updateCustomField, type CustomFieldRow } from "./custom-fields.sql.js";
import { PROPERTIES } from "./properties.js";
import type { CustomFieldCreate, CustomFieldUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: a field by id, a page of them.
export { findCustomField, pageOfCustomFields } from "./custom-fields.sql.js";

/** Slugs are unique within an organization: they key the answers stored on orders. */
async function withSlugUnique<Result>(slug: string | null | undefined, write: () => Promise<Result>): Promise<Result> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error) && slug) throw invalidField(["slug"], "A custom field with this slug already exists.", slug);
    throw error;
  }
}

export const createCustomField = (db: Knex, organizationId: string, body: z.output<typeof CustomFieldCreate>): Promise<CustomFieldRow> =>
  withSlugUnique(body.slug, () =>
    insertCustomField(db, { id: randomId(32), organization_id: organizationId, type: body.type, slug: body.slug, name: body.name, properties: body.properties, metadata: body.metadata }),
  );

/** Changes a custom field. Its type is what its stored values mean: it never changes. */
export async function changeCustomField(db: Knex, existing: CustomFieldRow, body: z.output<typeof CustomFieldUpdate>): Promise<CustomFieldRow> {
  if (body.type !== existing.type) throw invalidField(["type"], `This custom field is of type ${existing.type}`, body.type);
  const properties = body.properties ? parseNested(PROPERTIES[existing.type], ["properties"], body.properties) : undefined;
  const updated = await withSlugUnique(body.slug, () =>
    updateCustomField(db, existing.id, {
      ...(body.slug ? { slug: body.slug } : {}),
      ...(body.name ? { name: body.name } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(properties ? { properties } : {}),
    }),
  );
  return updated ?? existing;
}

/** Products that asked for the field stop asking; values already given are kept with their orders. */
export async function removeCustomField(db: Knex, field: CustomFieldRow): Promise<void> {
  await deleteCustomField(db, field.id);
}
