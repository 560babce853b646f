import { EU_STANDARD_RATES, RATE_SCALE } from "../taxes/rates.js";
import type { SellerRow } from "./organizations.sql.js";

/** What billing assumes until a seller says otherwise (Polar's defaults, with proration). */
export const DEFAULT_SUBSCRIPTION_SETTINGS = {
  allow_multiple_subscriptions: false,
  proration_behavior: "prorate",
  benefit_revocation_grace_period: 0,
  prevent_trial_abuse: false,
  allow_customer_updates: true,
};

// Usage billing is every seller's (Polar dropped the flag); a seller may still switch it off.
const DEFAULT_FEATURE_SETTINGS = { issue_funding_enabled: false, usage_based_billing_enabled: true };
const DEFAULT_NOTIFICATION_SETTINGS = { new_order: true, new_subscription: true };
export const CUSTOMER_EMAILS = [
  "order_confirmation",
  "subscription_cancellation",
  "subscription_confirmation",
  "subscription_cycled",
  "subscription_cycled_after_trial",
  "subscription_past_due",
  "subscription_paused",
  "subscription_renewal_reminder",
  "subscription_resumed",
  "subscription_revoked",
  "subscription_trial_conversion_reminder",
  "subscription_uncanceled",
  "subscription_updated",
];
const DEFAULT_CUSTOMER_PORTAL_SETTINGS = { usage: { show: true }, subscription: { update_seats: true, update_plan: true, pause: false }, customer: { allow_email_change: true } };

/** Whether the seller lets customers pause and resume their subscriptions in the portal (Polar's `customer_portal_settings.subscription.pause`, off by default). */
export const customersMayPause = (seller: Pick<SellerRow, "customer_portal_settings">) => (seller.customer_portal_settings as { subscription?: { pause?: boolean } }).subscription?.pause === true;

/** Whether the seller lets customers change their seats in the portal (Polar's `customer_portal_settings.subscription.update_seats`, on by default). */
export const customersMayUpdateSeats = (seller: Pick<SellerRow, "customer_portal_settings">) => (seller.customer_portal_settings as { subscription?: { update_seats?: boolean } }).subscription?.update_seats !== false;

export const subscriptionSettingsOf = (seller: Pick<SellerRow, "subscription_settings">) => ({ ...DEFAULT_SUBSCRIPTION_SETTINGS, ...seller.subscription_settings });

/** A seller as Polar's Organization: every field present, settings over their defaults. */
export function sellerJson(seller: SellerRow) {
  const subscriptionSettings = subscriptionSettingsOf(seller);
  return {
    id: seller.id,
    created_at: seller.created_at,
    modified_at: seller.modified_at,
    name: seller.name,
    slug: seller.slug,
    avatar_url: seller.avatar_url,
    proration_behavior: subscriptionSettings.proration_behavior,
    allow_customer_updates: subscriptionSettings.allow_customer_updates,
    email: seller.email,
    website: seller.website,
    terms_of_service_url: seller.terms_of_service_url,
    refund_policy_url: seller.refund_policy_url,
    socials: seller.socials,
    // Self-hosted: nobody reviews a seller before it may sell.
    status: "active",
    details_submitted_at: seller.details_submitted_at,
    onboarding_resubmission_requested_at: null,
    sso_enforced: false,
    default_presentment_currency: seller.default_presentment_currency,
    default_tax_behavior: seller.default_tax_behavior,
    feature_settings: { ...DEFAULT_FEATURE_SETTINGS, ...seller.feature_settings },
    subscription_settings: subscriptionSettings,
    notification_settings: { ...DEFAULT_NOTIFICATION_SETTINGS, ...seller.notification_settings },
    customer_email_settings: { ...Object.fromEntries(CUSTOMER_EMAILS.map((name) => [name, true])), ...seller.customer_email_settings, payment_method_expiration_reminder: false },
    customer_portal_settings: { ...DEFAULT_CUSTOMER_PORTAL_SETTINGS, ...seller.customer_portal_settings },
    dispute_settings: { auto_accept_below_amount: null },
    embed_hosts: [],
    country: seller.country,
    account_id: null,
    payout_account_id: null,
    capabilities: { checkout_payments: true, subscription_renewals: true, payouts: false, refunds: true, api_access: true, dashboard_access: true },
  };
}

/** The seller as a buyer sees it beside what they buy (checkout page, portal): who, not how it is run. */
export function sellerSummaryJson(seller: SellerRow) {
  const { id, created_at, modified_at, name, slug, avatar_url, proration_behavior, allow_customer_updates, customer_portal_settings, email, website, terms_of_service_url, refund_policy_url } = sellerJson(seller);
  return { id, created_at, modified_at, name, slug, avatar_url, proration_behavior, allow_customer_updates, customer_portal_settings, email, website, terms_of_service_url, refund_policy_url };
}

/** A seller's tax settings as they go out: each registration's rate in percent, and whether it is the shipped EU standard rate. */
export function taxSettingsJson(seller: SellerRow) {
  return {
    organization_id: seller.id,
    country: seller.country,
    address: seller.address,
    tax_id: seller.tax_id,
    default_tax_behavior: seller.default_tax_behavior as "location" | "inclusive" | "exclusive",
    registrations: seller.tax_registrations.map((registration) => ({
      country: registration.country,
      state: registration.state,
      rate: (registration.rate ?? EU_STANDARD_RATES[registration.country] ?? 0) / (RATE_SCALE / 100),
      standard_rate: registration.rate === null,
    })),
  };
}
