import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput } from "../http/metadata.js";
import { CUSTOM_FIELD_TYPES, PROPERTIES } from "./properties.js";
import { CUSTOM_FIELD_SORTABLE } from "./custom-fields.sql.js";

/** Answers to a seller's custom fields, by slug: taken on checkouts, kept on orders and subscriptions. */
export const CustomFieldData = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

const CustomFieldSelectOption = z.strictObject({ value: z.string(), label: z.string() }).meta({ id: "CustomFieldSelectOption" });

/** Each type's properties are stored as they were taken (PROPERTIES), so they go out with the same fields. */
const fieldOf = <Type extends string, Properties extends z.ZodType>(type: Type, properties: Properties, id: string) =>
  z
    .strictObject({
      created_at: isoTimestamp(),
      modified_at: isoTimestamp().nullable(),
      id: z.string(),
      metadata: metadataOutput,
      type: z.literal(type),
      slug: z.string(),
      name: z.string(),
      organization_id: z.string(),
      properties,
    })
    .meta({ id });

export const CustomField = z
  .discriminatedUnion("type", [
    fieldOf("text", z.strictObject(PROPERTIES.text.shape).meta({ id: "CustomFieldTextProperties" }), "CustomFieldText"),
    fieldOf("number", z.strictObject(PROPERTIES.number.shape).meta({ id: "CustomFieldNumberProperties" }), "CustomFieldNumber"),
    fieldOf("date", z.strictObject(PROPERTIES.date.shape).meta({ id: "CustomFieldDateProperties" }), "CustomFieldDate"),
    fieldOf("checkbox", z.strictObject(PROPERTIES.checkbox.shape).meta({ id: "CustomFieldCheckboxProperties" }), "CustomFieldCheckbox"),
    fieldOf("select", z.strictObject({ ...PROPERTIES.select.shape, options: z.array(CustomFieldSelectOption) }).meta({ id: "CustomFieldSelectProperties" }), "CustomFieldSelect"),
  ])
  .meta({ id: "CustomField" });

export const CustomFieldList = listResource(CustomField, "ListResource_CustomField_");

/** A custom field a product asks for, in the order the form shows it. */
export const AttachedCustomField = z.strictObject({ custom_field_id: z.string(), custom_field: CustomField, order: z.int(), required: z.boolean() }).meta({ id: "AttachedCustomField" });

/** A custom field's slug is the key its values are stored under: lower-case letters, digits, `-` and `_`. */
const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, { error: "Use lower-case letters, digits, - and _" }).max(100);

const common = { slug, name: z.string().min(1).max(250), metadata: metadataInput.default({}), organization_id: z.string().nullish() };

export const CustomFieldCreate = z.discriminatedUnion("type", [
  z.object({ ...common, type: z.literal("text"), properties: PROPERTIES.text }),
  z.object({ ...common, type: z.literal("number"), properties: PROPERTIES.number }),
  z.object({ ...common, type: z.literal("date"), properties: PROPERTIES.date }),
  z.object({ ...common, type: z.literal("checkbox"), properties: PROPERTIES.checkbox }),
  z.object({ ...common, type: z.literal("select"), properties: PROPERTIES.select }),
]);

/** A field keeps its type; its properties, when given, are checked against that type's. */
export const CustomFieldUpdate = z.object({
  type: z.enum(CUSTOM_FIELD_TYPES),
  slug: slug.nullish(),
  name: z.string().min(1).max(250).nullish(),
  metadata: metadataInput.optional(),
  properties: z.record(z.string(), z.unknown()).nullish(),
});

/** The properties a list of custom fields may be sorted by. */
export const CUSTOM_FIELD_SORT_KEYS = Object.keys(CUSTOM_FIELD_SORTABLE) as (keyof typeof CUSTOM_FIELD_SORTABLE)[];

export const CustomFieldListQuery = z.object({
  ...paging,
  ...sellerFilter,
  query: z.string().optional(),
  type: repeated(z.enum(CUSTOM_FIELD_TYPES)),
  sorting: sorting(CUSTOM_FIELD_SORT_KEYS, "slug"),
});
