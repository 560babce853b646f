import { z } from "zod";

/** What every type of field shows on the checkout form. */
const form = {
  form_label: z.string().min(1).optional(),
  form_help_text: z.string().min(1).optional(),
  form_placeholder: z.string().min(1).optional(),
};

const bounded = <Shape extends { ge?: number; le?: number }>(properties: Shape) => properties.ge === undefined || properties.le === undefined || properties.ge <= properties.le;

/** Each type's properties, as Polar takes them, with the same checks. */
export const PROPERTIES = {
  text: z
    .object({ ...form, textarea: z.boolean().optional(), min_length: z.int().min(0).optional(), max_length: z.int().min(0).optional() })
    .refine((properties) => properties.min_length === undefined || properties.max_length === undefined || properties.min_length <= properties.max_length, {
      error: "min_length must not be greater than max_length",
      path: ["min_length"],
    }),
  number: z.object({ ...form, ge: z.int().optional(), le: z.int().optional() }).refine(bounded, { error: "ge must not be greater than le", path: ["ge"] }),
  date: z.object({ ...form, ge: z.int().optional(), le: z.int().optional() }).refine(bounded, { error: "ge must not be greater than le", path: ["ge"] }),
  checkbox: z.object(form),
  select: z.object({ ...form, options: z.array(z.object({ value: z.string().min(1), label: z.string().min(1) })).min(1) }),
} as const;

export type CustomFieldType = keyof typeof PROPERTIES;
export const CUSTOM_FIELD_TYPES = Object.keys(PROPERTIES) as CustomFieldType[];
