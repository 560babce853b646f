import { membershipMigrations, type Migrations } from "@tollgate/kit";
import { sellersAndTokens } from "./0001_sellers_and_tokens.js";
import { catalogAndCustomers } from "./0002_catalog_and_customers.js";
import { sandboxPayments } from "./0003_sandbox_payments.js";
import { checkoutsPaymentsOrders } from "./0004_checkouts_payments_orders.js";
import { subscriptionsAndTheTestClock } from "./0005_subscriptions_and_the_test_clock.js";
import { refunds } from "./0006_refunds.js";
import { grantsFromPurchasesAndLicenseKeys } from "./0007_grants_from_purchases_and_license_keys.js";
import { customerSessions } from "./0008_customer_sessions.js";
import { checkoutLinks } from "./0009_checkout_links.js";
import { invoiceNumbersPerCustomer } from "./0010_invoice_numbers_per_customer.js";
import { customerPaymentMethods } from "./0011_customer_payment_methods.js";
import { pendingProrations } from "./0012_pending_prorations.js";
import { people } from "./0013_people.js";
import { customerBillingNames } from "./0014_customer_billing_names.js";
import { sandboxTokenKeys } from "./0015_sandbox_token_keys.js";
import { subscriptionDiscountAppliedAt } from "./0016_subscription_discount_applied_at.js";
import { subscriptionLeases } from "./0017_subscription_leases.js";
import { subscriptionChargeOrders } from "./0018_subscription_charge_orders.js";
import { usageMeters } from "./0019_usage_meters.js";
import { metricsRollups } from "./0020_metrics_rollups.js";
import { usagePeriods } from "./0021_usage_periods.js";
import { unmeasuredFailures } from "./0022_unmeasured_failures.js";
import { subscriptionLeaseClaims } from "./0023_subscription_lease_claims.js";
import { customerStateChangedAt } from "./0024_customer_state_changed_at.js";
import { stripeProcessor } from "./0026_stripe_processor.js";
import { disputes } from "./0027_disputes.js";
import { paymentAwaitingSince } from "./0028_payment_awaiting_since.js";
import { customerSessionCodes } from "./0029_customer_session_codes.js";
import { orderDocuments } from "./0030_order_documents.js";
import { salesTax } from "./0031_sales_tax.js";
import { subscriptionReminders } from "./0032_subscription_reminders.js";
import { orderInvoicedAt } from "./0033_order_invoiced_at.js";
import { subscriptionPauses } from "./0034_subscription_pauses.js";
import { eventTypes } from "./0035_event_types.js";
import { metricsDashboards } from "./0036_metrics_dashboards.js";
import { answerFacts } from "./0037_answer_facts.js";
import { draftOrders } from "./0038_draft_orders.js";
import { fileDownloads } from "./0039_file_downloads.js";
import { customerEmailVerifications } from "./0040_customer_email_verifications.js";
import { subscriptionRetryTrigger } from "./0041_subscription_retry_trigger.js";
import { disputeDetails } from "./0042_dispute_details.js";
import { teamCustomersAndSeats } from "./0043_team_customers_and_seats.js";
import { customerOwners } from "./0044_customer_owners.js";
import { checkoutSeatBounds } from "./0045_checkout_seat_bounds.js";
import { organizationLinks } from "./0047_organization_links.js";
import { sellerPolicies } from "./0048_seller_policies.js";
import { memberSignInCodes } from "./0051_member_sign_in_codes.js";

/** In the order they run: a new migration is a new file, added here last, and never changes once released. */
export const billingMigrations: Migrations = {
  ...membershipMigrations,
  "0001_sellers_and_tokens": sellersAndTokens,
  "0002_catalog_and_customers": catalogAndCustomers,
  "0003_sandbox_payments": sandboxPayments,
  "0004_checkouts_payments_orders": checkoutsPaymentsOrders,
  "0005_subscriptions_and_the_test_clock": subscriptionsAndTheTestClock,
  "0006_refunds": refunds,
  "0007_grants_from_purchases_and_license_keys": grantsFromPurchasesAndLicenseKeys,
  "0008_customer_sessions": customerSessions,
  "0009_checkout_links": checkoutLinks,
  "0010_invoice_numbers_per_customer": invoiceNumbersPerCustomer,
  "0011_customer_payment_methods": customerPaymentMethods,
  "0012_pending_prorations": pendingProrations,
  "0013_people": people,
  "0014_customer_billing_names": customerBillingNames,
  "0015_sandbox_token_keys": sandboxTokenKeys,
  "0016_subscription_discount_applied_at": subscriptionDiscountAppliedAt,
  "0017_subscription_leases": subscriptionLeases,
  "0018_subscription_charge_orders": subscriptionChargeOrders,
  "0019_usage_meters": usageMeters,
  "0020_metrics_rollups": metricsRollups,
  "0021_usage_periods": usagePeriods,
  "0022_unmeasured_failures": unmeasuredFailures,
  "0023_subscription_lease_claims": subscriptionLeaseClaims,
  "0024_customer_state_changed_at": customerStateChangedAt,
  "0026_stripe_processor": stripeProcessor,
  "0027_disputes": disputes,
  "0028_payment_awaiting_since": paymentAwaitingSince,
  "0029_customer_session_codes": customerSessionCodes,
  "0030_order_documents": orderDocuments,
  "0031_sales_tax": salesTax,
  "0032_subscription_reminders": subscriptionReminders,
  "0033_order_invoiced_at": orderInvoicedAt,
  "0034_subscription_pauses": subscriptionPauses,
  "0035_event_types": eventTypes,
  "0036_metrics_dashboards": metricsDashboards,
  "0037_answer_facts": answerFacts,
  "0038_draft_orders": draftOrders,
  "0039_file_downloads": fileDownloads,
  "0040_customer_email_verifications": customerEmailVerifications,
  "0041_subscription_retry_trigger": subscriptionRetryTrigger,
  "0042_dispute_details": disputeDetails,
  "0043_team_customers_and_seats": teamCustomersAndSeats,
  "0044_customer_owners": customerOwners,
  "0045_checkout_seat_bounds": checkoutSeatBounds,
  "0047_organization_links": organizationLinks,
  "0048_seller_policies": sellerPolicies,
  "0051_member_sign_in_codes": memberSignInCodes,
};
