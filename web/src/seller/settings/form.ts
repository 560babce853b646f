import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { email, optionalUrl, required, says } from "../../forms/schemas";

const messages = defineMessages({
  socialUrl: { id: "forms.socials.url", defaultMessage: "Enter the profile's address starting with https://" },
  aSellerName: { id: "forms.required.aSellerName", defaultMessage: "Enter the name buyers know you by" },
});

export const SOCIAL_PLATFORMS = ["x", "github", "facebook", "instagram", "youtube", "tiktok", "linkedin", "threads", "discord", "other"] as const;

/** The seller's profile as buyers see it on checkouts and in the portal. */
export const sellerProfileForm = z.object({
  name: required(messages.aSellerName),
  email: z.union([z.literal(""), email]),
  website: optionalUrl,
  avatarUrl: optionalUrl,
  socials: z.array(z.object({ platform: z.enum(SOCIAL_PLATFORMS), url: z.url({ protocol: /^https?$/, ...says(messages.socialUrl) }) })),
});
export type SellerProfileForm = z.infer<typeof sellerProfileForm>;

/** How the seller's subscriptions behave (Polar's subscription settings that billing takes). */
export const subscriptionSettingsForm = z.object({
  allowMultipleSubscriptions: z.boolean(),
  allowCustomerUpdates: z.boolean(),
  prorationBehavior: z.enum(["invoice", "prorate"]),
});
export type SubscriptionSettingsForm = z.infer<typeof subscriptionSettingsForm>;
