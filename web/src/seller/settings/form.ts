import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { addressFields, addressNeedsCountry } from "../../forms/address";
import { email, optionalUrl, required, says, trimmed } from "../../forms/schemas";

const messages = defineMessages({
  socialUrl: { id: "forms.socials.url", defaultMessage: "Enter the profile's address starting with https://" },
  aSellerName: { id: "forms.required.aSellerName", defaultMessage: "Enter the name buyers know you by" },
  registrationCountry: { id: "forms.tax.registrationCountry", defaultMessage: "Enter the country's two-letter code, or EU for every member state" },
  rate: { id: "forms.tax.rate", defaultMessage: "Enter the rate in percent, such as 8.875, or leave it empty for the EU standard rate" },
});

export const SOCIAL_PLATFORMS = ["x", "github", "facebook", "instagram", "youtube", "tiktok", "linkedin", "threads", "discord", "other"] as const;

/** The seller's profile as buyers see it on checkouts and in the portal. */
export const sellerProfileForm = z.object({
  name: required(messages.aSellerName),
  email: z.union([z.literal(""), email]),
  website: optionalUrl,
  termsUrl: optionalUrl,
  refundsUrl: optionalUrl,
  avatarUrl: optionalUrl,
  socials: z.array(z.object({ platform: z.enum(SOCIAL_PLATFORMS), url: z.url({ protocol: /^https?$/, ...says(messages.socialUrl) }) })),
});
export type SellerProfileForm = z.infer<typeof sellerProfileForm>;

/** How the seller's subscriptions behave (Polar's subscription settings that billing takes). */
export const subscriptionSettingsForm = z.object({
  allowMultipleSubscriptions: z.boolean(),
  allowCustomerUpdates: z.boolean(),
  customersMayPause: z.boolean(),
  prorationBehavior: z.enum(["invoice", "prorate"]),
});
export type SubscriptionSettingsForm = z.infer<typeof subscriptionSettingsForm>;

/**
 * Where the seller charges tax and what their invoices say of them: the address (its country is
 * where the business is established), the VAT or tax number, how prices are taxed by default, and
 * each place registered with its rate (none: the EU standard rate Tollgate ships).
 */
export const taxSettingsForm = z
  .object({
    ...addressFields,
    taxId: trimmed(),
    defaultTaxBehavior: z.enum(["location", "inclusive", "exclusive"]),
    registrations: z.array(
      z.object({
        country: trimmed(z.regex(/^[A-Za-z]{2}$/, says(messages.registrationCountry)), z.toUpperCase()),
        state: trimmed(),
        rate: trimmed(z.regex(/^(\d{1,3}([.,]\d{1,3})?)?$/, says(messages.rate))),
      }),
    ),
  })
  .check(addressNeedsCountry);
export type TaxSettingsForm = z.input<typeof taxSettingsForm>;
export type TaxSettingsValues = z.output<typeof taxSettingsForm>;
