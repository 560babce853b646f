import { request } from "../../api/client";
import type { SOCIAL_PLATFORMS } from "../../forms/seller-settings";
import type { ProrationBehavior } from "../subscriptions/subscriptions-api";

export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** What the console reads and changes of the seller (Polar's Organization). */
export interface Organization {
  id: string;
  name: string;
  email: string | null;
  website: string | null;
  avatar_url: string | null;
  socials: { platform: SocialPlatform; url: string }[];
  subscription_settings: { allow_multiple_subscriptions: boolean; allow_customer_updates: boolean; proration_behavior: ProrationBehavior };
}

/** Polar's OrganizationUpdate, the parts the settings screen sends. */
export interface OrganizationUpdate {
  name?: string;
  email?: string | null;
  website?: string | null;
  avatar_url?: string | null;
  socials?: { platform: SocialPlatform; url: string }[];
  subscription_settings?: Partial<Organization["subscription_settings"]>;
}

export const organizationQueryKey = (id: string) => ["organization", id];

export const getOrganization = (id: string) => request<Organization>(`/v1/organizations/${id}`);

export const updateOrganization = (id: string, body: OrganizationUpdate) => request<Organization>(`/v1/organizations/${id}`, { method: "PATCH", body });
