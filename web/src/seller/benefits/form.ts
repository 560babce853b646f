import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import { CREATABLE_TYPES, type Benefit, type BenefitChange, type CreatableType } from "./benefits-api";
import { atLeast, atMost, trimmed } from "../../forms/schemas";
import { isWholeNumber, wholeNumberMessage } from "../../forms/whole-number";

const messages = defineMessages({
  files: { id: "forms.benefit.files", defaultMessage: "Upload at least one file" },
  meter: { id: "forms.benefit.meter", defaultMessage: "Choose the meter to credit" },
});

/** The API's largest integer (Postgres' integer). */
const MAX_INTEGER = 2_147_483_647;

/**
 * A benefit in the seller's console, every type's fields at once (the form shows the chosen type's),
 * checked as Polar checks them: a description of 3 to 42 characters, keys that last 1 to 9999 units,
 * 1 to 50 activations, at least one file, a meter and at least one unit of credit.
 */
export const benefitForm = z
  .object({
    type: z.enum(CREATABLE_TYPES),
    description: trimmed(z.minLength(3, atLeast(3)), z.maxLength(42, atMost(42))),
    note: z.string(),
    prefix: trimmed(z.maxLength(32, atMost(32))),
    expires: z.boolean(),
    ttl: z.string(),
    timeframe: z.enum(["day", "month", "year"]),
    activations: z.boolean(),
    activationLimit: z.string(),
    customerAdmin: z.boolean(),
    limitUsage: z.string(),
    files: z.array(z.string()),
    meterId: z.string(),
    units: z.string(),
    rollover: z.boolean(),
  })
  .check(
    z.superRefine((form, context) => {
      const whole = (path: keyof typeof form, text: string, min: number, max: number) => {
        if (!isWholeNumber(text, min, max)) context.addIssue({ code: "custom", path: [path], message: wholeNumberMessage(min, max) });
      };
      if (form.type === "license_keys") {
        if (form.expires) whole("ttl", form.ttl, 1, 9_999);
        if (form.activations) whole("activationLimit", form.activationLimit, 1, 50);
        if (form.limitUsage.trim()) whole("limitUsage", form.limitUsage, 1, MAX_INTEGER);
      }
      if (form.type === "downloadables" && form.files.length === 0) context.addIssue({ code: "custom", path: ["files"], message: t(messages.files) });
      if (form.type === "meter_credit") {
        if (!form.meterId) context.addIssue({ code: "custom", path: ["meterId"], message: t(messages.meter) });
        whole("units", form.units, 1, MAX_INTEGER);
      }
    }),
  );
export type BenefitForm = z.infer<typeof benefitForm>;

export const emptyBenefitForm = (type: CreatableType = "custom"): BenefitForm => ({
  type,
  description: "",
  note: "",
  prefix: "",
  expires: false,
  ttl: "1",
  timeframe: "year",
  activations: false,
  activationLimit: "3",
  customerAdmin: true,
  limitUsage: "",
  files: [],
  meterId: "",
  units: "",
  rollover: false,
});

/** The form filled with a benefit's settings, for editing it. */
export function benefitFormOf(benefit: Benefit): BenefitForm {
  const form = emptyBenefitForm();
  switch (benefit.type) {
    case "custom":
      return { ...form, type: "custom", description: benefit.description, note: benefit.properties.note ?? "" };
    case "license_keys": {
      const { prefix, expires, activations, limit_usage } = benefit.properties;
      return {
        ...form,
        type: "license_keys",
        description: benefit.description,
        prefix: prefix ?? "",
        expires: expires !== null,
        ttl: String(expires?.ttl ?? 1),
        timeframe: expires?.timeframe ?? "year",
        activations: activations !== null,
        activationLimit: String(activations?.limit ?? 3),
        customerAdmin: activations?.enable_customer_admin ?? true,
        limitUsage: limit_usage === null ? "" : String(limit_usage),
      };
    }
    case "downloadables":
      return { ...form, type: "downloadables", description: benefit.description, files: benefit.properties.files };
    case "meter_credit":
      return { ...form, type: "meter_credit", description: benefit.description, meterId: benefit.properties.meter_id, units: String(benefit.properties.units), rollover: benefit.properties.rollover };
    default:
      return { ...form, description: benefit.description };
  }
}

/** Polar's BenefitCreate (and update) for what the form holds. */
export function benefitChangeOf(form: BenefitForm): BenefitChange {
  const { description } = form;
  switch (form.type) {
    case "custom":
      return { type: "custom", description, properties: { note: form.note.trim() || null } };
    case "license_keys":
      return {
        type: "license_keys",
        description,
        properties: {
          prefix: form.prefix || null,
          expires: form.expires ? { ttl: Number(form.ttl), timeframe: form.timeframe } : null,
          activations: form.activations ? { limit: Number(form.activationLimit), enable_customer_admin: form.customerAdmin } : null,
          limit_usage: form.limitUsage.trim() ? Number(form.limitUsage) : null,
        },
      };
    case "downloadables":
      return { type: "downloadables", description, properties: { files: form.files } };
    case "meter_credit":
      return { type: "meter_credit", description, properties: { meter_id: form.meterId, units: Number(form.units), rollover: form.rollover } };
  }
}
