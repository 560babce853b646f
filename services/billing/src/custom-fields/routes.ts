import { z } from "zod";
import { defineEndpoint, randomId, type Endpoint, invalidField, isUniqueViolation, parseNested, pageJson, pageOf, paging, repeated, sorting, reachable } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { metadataInput } from "../api/metadata.js";
import { customFields, deleteCustomField, findCustomField, insertCustomField, updateCustomField, type CustomFieldRow } from "./custom-fields.sql.js";
import { customFieldJson } from "./output.js";
import { CUSTOM_FIELD_TYPES, PROPERTIES } from "./properties.js";
import { CustomField, CustomFieldList } from "./schemas.js";

/** A custom field's slug is the key its values are stored under: lower-case letters, digits, `-` and `_`. */
const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, { error: "Use lower-case letters, digits, - and _" }).max(100);

const common = { slug, name: z.string().min(1).max(250), metadata: metadataInput.default({}), organization_id: z.string().nullish() };

const createBody = z.discriminatedUnion("type", [
  z.object({ ...common, type: z.literal("text"), properties: PROPERTIES.text }),
  z.object({ ...common, type: z.literal("number"), properties: PROPERTIES.number }),
  z.object({ ...common, type: z.literal("date"), properties: PROPERTIES.date }),
  z.object({ ...common, type: z.literal("checkbox"), properties: PROPERTIES.checkbox }),
  z.object({ ...common, type: z.literal("select"), properties: PROPERTIES.select }),
]);

const updateBody = z.object({
  type: z.enum(CUSTOM_FIELD_TYPES),
  slug: slug.nullish(),
  name: z.string().min(1).max(250).nullish(),
  metadata: metadataInput.optional(),
  properties: z.record(z.string(), z.unknown()).nullish(),
});

const slugTaken = (value: string) => invalidField(["slug"], "A custom field with this slug already exists.", value);

const SORTABLE = { created_at: "created_at", slug: "slug", name: "name", type: "type" } as const;
const TAG = "custom-fields";

export function customFieldEndpoints(billing: Billing): Endpoint[] {
  const { db, access } = billing;
  const field = async (identity: Parameters<typeof access.allows>[0], scope: "custom_fields:read" | "custom_fields:write", id: string) =>
    reachable(access, identity, scope, await findCustomField(db, id), "Custom field");
  return [
    defineEndpoint("/v1/custom-fields/", { method: "POST", status: 201, body: createBody, response: CustomField, summary: "Create a custom field", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "custom_fields:write", body.organization_id);
      try {
        return customFieldJson(
          await insertCustomField(db, { id: randomId(32), organization_id: organizationId, type: body.type, slug: body.slug, name: body.name, properties: body.properties, metadata: body.metadata }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken(body.slug);
        throw error;
      }
    }),

    defineEndpoint(
      "/v1/custom-fields/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          query: z.string().optional(),
          type: repeated(z.enum(CUSTOM_FIELD_TYPES)),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "slug"),
        }),
        response: CustomFieldList,
        summary: "List custom fields",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const found = customFields(db).whereIn("organization_id", await access.organizationIds(identity, "custom_fields:read"));
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        if (query.type) void found.whereIn("type", query.type);
        if (query.query) void found.where((match) => void match.whereILike("name", `%${query.query}%`).orWhereILike("slug", `%${query.query}%`));
        const { rows, total } = await pageOf<CustomFieldRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "custom_fields" });
        return pageJson(rows.map(customFieldJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/custom-fields/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomField, summary: "Get a custom field", tag: TAG }, async ({ params, identity }) =>
      customFieldJson(await field(identity, "custom_fields:read", params.id)),
    ),

    defineEndpoint("/v1/custom-fields/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: CustomField, summary: "Update a custom field", tag: TAG }, async ({ params, body, identity }) => {
      const existing = await field(identity, "custom_fields:write", params.id);
      // A field's type is what its stored values mean: it never changes.
      if (body.type !== existing.type) throw invalidField(["type"], `This custom field is of type ${existing.type}`, body.type);
      let properties: Record<string, unknown> | undefined;
      if (body.properties) {
        properties = parseNested(PROPERTIES[existing.type], ["properties"], body.properties);
      }
      try {
        const updated = await updateCustomField(db, existing.id, {
          ...(body.slug ? { slug: body.slug } : {}),
          ...(body.name ? { name: body.name } : {}),
          ...(body.metadata ? { metadata: body.metadata } : {}),
          ...(properties ? { properties } : {}),
        });
        return customFieldJson(updated ?? existing);
      } catch (error) {
        if (isUniqueViolation(error) && body.slug) throw slugTaken(body.slug);
        throw error;
      }
    }),

    defineEndpoint("/v1/custom-fields/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a custom field", tag: TAG }, async ({ params, identity }) => {
      const existing = await field(identity, "custom_fields:write", params.id);
      // Products that asked for it stop asking; values already given are kept with their orders.
      await deleteCustomField(db, existing.id);
    }),
  ];
}
