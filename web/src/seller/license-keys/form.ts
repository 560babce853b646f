import { defineMessage, defineMessages } from "react-intl";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";

const messages = defineMessages({
  wholeNumber: defineMessage<{ min: number }>({ id: "forms.licenseKey.wholeNumber", defaultMessage: "Enter a whole number of at least {min}, or nothing" }),
  activations: { id: "forms.licenseKey.activations", defaultMessage: "Enter a number from 1 to 50, or nothing" },
  usage: { id: "forms.licenseKey.usage", defaultMessage: "Enter a whole number of at least 0" },
});

/** A count typed in a field: empty for no limit, else a whole number within `min`–`max`. */
const optionalCount = (min: number, max: number, message: () => string) =>
  z.string().check(z.trim(), z.refine((value) => value === "" || (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max), { error: message }));

/** A license key's limits as the seller edits them (Polar's LicenseKeyUpdate); empty means none. */
export const licenseKeyLimitsForm = z.object({
  usage: z.string().check(z.trim(), z.regex(/^\d+$/, { error: () => t(messages.usage) })),
  limitUsage: optionalCount(1, 2_147_483_647, () => t(messages.wholeNumber, { min: 1 })),
  limitActivations: optionalCount(1, 50, () => t(messages.activations)),
  /** A day (YYYY-MM-DD) the key works until, or nothing. */
  expiresOn: z.string(),
});
export type LicenseKeyLimitsForm = z.infer<typeof licenseKeyLimitsForm>;

/** A field's count as the API takes it: null for none. */
export const countOrNull = (value: string) => (value === "" ? null : Number(value));
