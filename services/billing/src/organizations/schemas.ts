import { z } from "zod";
import { isoTimestamp, listResource, paging, pgInteger, sorting, webUrl } from "@tollgate/kit";
import { Address, addressInput } from "../http/address.js";
import { CUSTOMER_EMAILS } from "./output.js";
import { SELLER_SORTABLE } from "./organizations.sql.js";

export const SOCIAL_PLATFORMS = ["x", "github", "facebook", "instagram", "youtube", "tiktok", "linkedin", "threads", "discord", "other"] as const;

/** How prices are taxed: a seller's default, and each price's own. */
export const TaxBehavior = z.enum(["location", "inclusive", "exclusive"]);

/** What a subscription change charges now: billing takes only these two (Polar also has next_period and reset). */
const ProrationBehavior = z.enum(["invoice", "prorate"]);

const OrganizationSocialLink = z.strictObject({ platform: z.enum(SOCIAL_PLATFORMS), url: z.string() }).meta({ id: "OrganizationSocialLink" });

/**
 * Polar's feature flags, as the SDK sends them back on update (they are kept as they come), beside
 * the two every seller has.
 */
export const OrganizationFeatureSettings = z
  .strictObject({
    issue_funding_enabled: z.boolean(),
    usage_based_billing_enabled: z.boolean(),
    seat_based_pricing_enabled: z.boolean().optional(),
    wallets_enabled: z.boolean().optional(),
    member_model_enabled: z.boolean().optional(),
    tinybird_read: z.boolean().optional(),
    tinybird_compare: z.boolean().optional(),
    checkout_localization_enabled: z.boolean().optional(),
    overview_metrics: z.array(z.string()).nullable().optional(),
    reset_proration_behavior_enabled: z.boolean().optional(),
  })
  .meta({ id: "OrganizationFeatureSettings" });

const OrganizationSubscriptionSettings = z
  .strictObject({
    allow_multiple_subscriptions: z.boolean(),
    proration_behavior: ProrationBehavior,
    benefit_revocation_grace_period: z.int(),
    prevent_trial_abuse: z.boolean(),
    allow_customer_updates: z.boolean(),
  })
  .meta({ id: "OrganizationSubscriptionSettings" });

const OrganizationNotificationSettings = z.strictObject({ new_order: z.boolean(), new_subscription: z.boolean() }).meta({ id: "OrganizationNotificationSettings" });

const customerEmailSwitches = Object.fromEntries(CUSTOMER_EMAILS.map((email) => [email, z.boolean()]));

export const OrganizationCustomerEmailSettings = z
  // No reminder of a card about to expire is sent, so that switch is off.
  .strictObject({ ...customerEmailSwitches, payment_method_expiration_reminder: z.literal(false) })
  .meta({ id: "OrganizationCustomerEmailSettings" });

export const OrganizationCustomerPortalSettings = z
  .strictObject({
    usage: z.strictObject({ show: z.boolean() }).meta({ id: "CustomerPortalUsageSettings" }),
    subscription: z
      .strictObject({ update_seats: z.boolean(), update_plan: z.boolean(), pause: z.boolean().optional().meta({ description: "Whether customers may pause and resume their subscriptions in the portal (off unless turned on)" }) })
      .meta({ id: "CustomerPortalSubscriptionSettings" }),
    customer: z.strictObject({ allow_email_change: z.boolean().optional() }).meta({ id: "CustomerPortalCustomerSettings" }).optional(),
  })
  .meta({ id: "OrganizationCustomerPortalSettings" });

const OrganizationCapabilities = z
  .strictObject({
    checkout_payments: z.boolean(),
    subscription_renewals: z.boolean(),
    payouts: z.boolean(),
    refunds: z.boolean(),
    api_access: z.boolean(),
    dashboard_access: z.boolean(),
  })
  .meta({ id: "OrganizationCapabilities" });

/** Who sells: what a buyer sees of the seller beside what they buy. */
const sellerSummary = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  name: z.string(),
  slug: z.string(),
  avatar_url: z.string().nullable(),
  proration_behavior: ProrationBehavior,
  allow_customer_updates: z.boolean(),
  customer_portal_settings: OrganizationCustomerPortalSettings,
  // How a buyer reaches the seller and what they agree to: shown on the checkout.
  email: z.string().nullable(),
  website: z.string().nullable(),
  terms_of_service_url: z.string().nullable().meta({ description: "The seller's terms of service, linked from its checkouts (a Tollgate addition)" }),
  refund_policy_url: z.string().nullable().meta({ description: "The seller's refund policy, linked from its checkouts (a Tollgate addition)" }),
};

/** The seller beside a checkout, a portal's purchases and benefits (Polar's CheckoutOrganization and BenefitSubscriberOrganization are the same, without the portal settings). */
export const CustomerOrganization = z.strictObject(sellerSummary).meta({ id: "CustomerOrganization" });

export const Organization = z
  .strictObject({
    ...sellerSummary,
    socials: z.array(OrganizationSocialLink),
    // Self-hosted: nobody reviews a seller before it may sell.
    status: z.literal("active"),
    details_submitted_at: isoTimestamp().nullable(),
    onboarding_resubmission_requested_at: z.null(),
    // Members sign in as the platform lets them (organization SSO is not offered).
    sso_enforced: z.literal(false),
    default_presentment_currency: z.string(),
    default_tax_behavior: TaxBehavior,
    feature_settings: OrganizationFeatureSettings,
    subscription_settings: OrganizationSubscriptionSettings,
    notification_settings: OrganizationNotificationSettings,
    customer_email_settings: OrganizationCustomerEmailSettings,
    // Disputes are answered by the seller, none conceded for them.
    dispute_settings: z.strictObject({ auto_accept_below_amount: z.null() }).meta({ id: "OrganizationDisputeSettings" }),
    // The checkout may be embedded anywhere (its page sets no frame-ancestors), so no list of hosts narrows it.
    embed_hosts: z.array(z.string()).max(0),
    country: z.string().nullable(),
    account_id: z.null(),
    payout_account_id: z.null(),
    capabilities: OrganizationCapabilities,
  })
  .meta({ id: "Organization" });

export const OrganizationList = listResource(Organization, "ListResource_Organization_");

const url = webUrl();

export const OrganizationUpdate = z.object({
  name: z.string().nullish(),
  avatar_url: url.nullish(),
  email: z.email().nullish(),
  website: url.nullish(),
  terms_of_service_url: url.nullish(),
  refund_policy_url: url.nullish(),
  socials: z.array(z.object({ platform: z.enum(SOCIAL_PLATFORMS), url })).nullish(),
  details: z.looseObject({ switching: z.boolean().optional() }).nullish(),
  country: z.string().length(2).nullish(),
  /*
   * Settings take the fields the organization shows, each one optional. Others (flags of a newer SDK)
   * are dropped rather than stored: the organization could not show them back.
   */
  feature_settings: z.object(OrganizationFeatureSettings.shape).partial().nullish(),
  subscription_settings: z
    .object({
      allow_multiple_subscriptions: z.boolean().optional(),
      allow_customer_updates: z.boolean().optional(),
      proration_behavior: z.enum(["invoice", "prorate"]).optional(),
      benefit_revocation_grace_period: pgInteger().min(0).optional(),
      prevent_trial_abuse: z.boolean().optional(),
    })
    .nullish(),
  notification_settings: z.object({ new_order: z.boolean(), new_subscription: z.boolean() }).partial().nullish(),
  customer_email_settings: z
    .object({
      ...customerEmailSwitches,
      // Off, and it stays off: a seller turning it on would wait for mails that never come.
      payment_method_expiration_reminder: z.literal(false, { error: "Tollgate sends no reminders of cards about to expire yet" }),
    })
    .partial()
    .nullish(),
  customer_portal_settings: z.object(OrganizationCustomerPortalSettings.shape).partial().nullish(),
  default_presentment_currency: z.string().length(3).nullish(),
  default_tax_behavior: z.enum(["location", "inclusive", "exclusive"]).nullish(),
});

/**
 * Polar's create: a name and a slug (as Polar slugifies them: lower-case letters, digits and single
 * hyphens), with the settings an update takes.
 */
export const OrganizationCreate = OrganizationUpdate.extend({
  name: z.string().trim().min(3),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .min(3)
    .max(64)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "The slug can only contain ASCII letters, numbers and hyphens." }),
});

/** The properties a list of organizations may be sorted by. */
export const SELLER_SORT_KEYS = Object.keys(SELLER_SORTABLE) as (keyof typeof SELLER_SORTABLE)[];

export const OrganizationListQuery = z.object({ ...paging, slug: z.string().optional(), sorting: sorting(SELLER_SORT_KEYS, "created_at") });

/** A rate as a percentage (19, 8.875), kept to thousandths of a percent. */
const percentage = z.number().gt(0).max(100).refine((rate) => Number.isInteger(Math.round(rate * 1000 * 1e6) / 1e6), { error: "Give the rate to at most three decimals" });

const TaxRegistration = z
  .strictObject({
    country: z.string().regex(/^[A-Z]{2}$/),
    state: z.string().nullable(),
    rate: z.number().describe("The rate in percent."),
    standard_rate: z.boolean().describe("Whether this is the member state's standard VAT rate, as Tollgate ships it."),
  })
  .meta({ id: "TaxRegistration" });

/** Tollgate's own: where a seller charges tax, and what their invoices say of them. */
export const TaxSettings = z
  .strictObject({
    organization_id: z.string(),
    country: z.string().nullable().describe("Where the business is established."),
    address: Address.nullable(),
    tax_id: z.string().nullable(),
    default_tax_behavior: TaxBehavior,
    registrations: z.array(TaxRegistration),
  })
  .meta({ id: "TaxSettings" });

export const TaxSettingsUpdate = z.strictObject({
  country: z.string().regex(/^[A-Za-z]{2}$/, { error: "Use the country's two-letter ISO code" }).nullish(),
  address: addressInput.nullish(),
  tax_id: z.string().trim().max(64).nullish(),
  default_tax_behavior: TaxBehavior.optional(),
  registrations: z
    .array(
      z.strictObject({
        country: z.string().regex(/^[A-Za-z]{2}$/, { error: "Use the country's two-letter ISO code, or EU for every member state" }),
        state: z.string().trim().min(1).max(3).nullish(),
        rate: percentage.nullish(),
      }),
    )
    .max(100)
    .optional(),
});
