import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import { CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldChange } from "./custom-fields-api";
import { aName, atMost, says, trimmed } from "../../forms/schemas";
import { isWholeNumber, wholeNumberMessage } from "../../forms/whole-number";

const messages = defineMessages({
  slug: { id: "forms.customField.slug", defaultMessage: "Use lower-case letters, digits, - and _, starting with a letter or digit" },
  bounds: { id: "forms.customField.bounds", defaultMessage: "The minimum must not be above the maximum" },
  optionValue: { id: "forms.customField.optionValue", defaultMessage: "Enter the value stored" },
  optionLabel: { id: "forms.customField.optionLabel", defaultMessage: "Enter the label buyers see" },
});

const LIMIT = 2_147_483_647;
const optionalText = trimmed(z.maxLength(250, atMost(250)));

/**
 * A custom field in the seller's console, every type's settings at once (the form shows the chosen
 * type's): a slug the answers are stored under, a name, what the checkout shows, and the type's limits.
 */
export const customFieldForm = z
  .object({
    type: z.enum(CUSTOM_FIELD_TYPES),
    slug: trimmed(z.minLength(1, says(messages.slug)), z.maxLength(100, atMost(100)), z.regex(/^[a-z0-9][a-z0-9_-]*$/, says(messages.slug))),
    name: aName(250),
    label: optionalText,
    helpText: optionalText,
    placeholder: optionalText,
    textarea: z.boolean(),
    min: z.string(),
    max: z.string(),
    options: z.array(z.object({ value: trimmed(z.minLength(1, says(messages.optionValue))), label: trimmed(z.minLength(1, says(messages.optionLabel))) })),
  })
  .check(
    z.superRefine((form, context) => {
      if (form.type === "text" || form.type === "number") {
        const lowest = form.type === "text" ? 0 : -LIMIT;
        for (const bound of ["min", "max"] as const) {
          if (form[bound].trim() && !isWholeNumber(form[bound], lowest, LIMIT)) context.addIssue({ code: "custom", path: [bound], message: wholeNumberMessage(lowest, LIMIT) });
        }
      }
      if (form.type !== "checkbox" && form.type !== "select" && form.min.trim() && form.max.trim() && boundOf(form.type, form.min) > boundOf(form.type, form.max)) {
        context.addIssue({ code: "custom", path: ["min"], message: t(messages.bounds) });
      }
    }),
  );
export type CustomFieldForm = z.infer<typeof customFieldForm>;

/** A bound as the API takes it: a number, or for dates the day's Unix seconds. */
const boundOf = (type: CustomField["type"], text: string) => (type === "date" ? Date.parse(`${text}T00:00:00Z`) / 1000 : Number(text));
const dayOf = (seconds: number | undefined) => (seconds === undefined ? "" : new Date(seconds * 1000).toISOString().slice(0, 10));

export const emptyCustomFieldForm = (): CustomFieldForm => ({ type: "text", slug: "", name: "", label: "", helpText: "", placeholder: "", textarea: false, min: "", max: "", options: [{ value: "", label: "" }] });

/** The form filled with a field's settings, for editing it. */
export function customFieldFormOf(field: CustomField): CustomFieldForm {
  const { properties } = field;
  const text = (value: number | undefined) => (field.type === "date" ? dayOf(value) : value === undefined ? "" : String(value));
  return {
    type: field.type,
    slug: field.slug,
    name: field.name,
    label: properties.form_label ?? "",
    helpText: properties.form_help_text ?? "",
    placeholder: properties.form_placeholder ?? "",
    textarea: field.type === "text" ? (field.properties.textarea ?? false) : false,
    min: text(field.type === "text" ? field.properties.min_length : field.type === "number" || field.type === "date" ? field.properties.ge : undefined),
    max: text(field.type === "text" ? field.properties.max_length : field.type === "number" || field.type === "date" ? field.properties.le : undefined),
    options: field.type === "select" && field.properties.options.length ? field.properties.options : emptyCustomFieldForm().options,
  };
}

/** Polar's CustomFieldCreate (and update) for what the form holds: only the chosen type's properties, empty ones left out. */
export function customFieldChangeOf(form: CustomFieldForm): CustomFieldChange {
  const given = (text: string) => (text.trim() ? boundOf(form.type, text) : undefined);
  const shown = { form_label: form.label || undefined, form_help_text: form.helpText || undefined, form_placeholder: form.placeholder || undefined };
  const named = { slug: form.slug, name: form.name };
  const bounds = { ge: given(form.min), le: given(form.max) };
  switch (form.type) {
    case "text":
      return { ...named, type: "text", properties: { ...shown, textarea: form.textarea, min_length: given(form.min), max_length: given(form.max) } };
    case "number":
      return { ...named, type: "number", properties: { ...shown, ...bounds } };
    case "date":
      return { ...named, type: "date", properties: { ...shown, ...bounds } };
    case "select":
      return { ...named, type: "select", properties: { ...shown, options: form.options } };
    case "checkbox":
      return { ...named, type: "checkbox", properties: shown };
  }
}
