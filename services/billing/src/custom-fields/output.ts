import type { CustomFieldRow } from "./custom-fields.sql.js";

/** A custom field as Polar shows it. */
export const customFieldJson = (field: CustomFieldRow) => ({
  id: field.id,
  created_at: field.created_at,
  modified_at: field.modified_at,
  metadata: field.metadata,
  type: field.type,
  slug: field.slug,
  name: field.name,
  organization_id: field.organization_id,
  properties: field.properties,
});
