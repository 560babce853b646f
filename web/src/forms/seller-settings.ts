import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { atMost, email, optionalUrl, required, says, trimmed } from "./schemas";

const messages = defineMessages({
  aComment: { id: "forms.accessToken.comment", defaultMessage: "Say what the token is for" },
  aScope: { id: "forms.accessToken.scopes", defaultMessage: "Choose at least one scope" },
  socialUrl: { id: "forms.socials.url", defaultMessage: "Enter the profile's address starting with https://" },
  aSellerName: { id: "forms.required.aSellerName", defaultMessage: "Enter the name buyers know you by" },
});

export const TOKEN_LIFETIMES = ["7", "30", "90", "365", "never"] as const;

/** A new organization access token: what it is for, how long it lives (days), and what it may do. */
export const accessTokenForm = z.object({
  comment: trimmed(z.minLength(1, says(messages.aComment)), z.maxLength(255, atMost(255))),
  lifetime: z.enum(TOKEN_LIFETIMES),
  scopes: z.array(z.string()).check(z.minLength(1, says(messages.aScope))),
});
export type AccessTokenForm = z.infer<typeof accessTokenForm>;

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
