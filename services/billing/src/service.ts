import path from "node:path";
import { Router } from "express";
import { defineService, membershipConsumer, mountEndpoints, OrganizationAccess, polarErrors, postgresTimeZones, serveApiDescription, StartupError, type ApiDescription, type Knex, type ServiceContext } from "@tollgate/kit";
import { resolveAccessToken, resolveCustomerSession } from "@tollgate/proto";
import { accessTokenEndpoints } from "./access-tokens/routes.js";
import { useAccessToken } from "./access-tokens/access-tokens.sql.js";
import { idempotency } from "./http/idempotency.js";
import type { Parts } from "./parts.js";
import { billingEnv, type BillingConfig } from "./config.js";
import { billingMigrations } from "./migrations/index.js";
import { sellersConsumer } from "./organizations/consumer.js";
import { customerMailsConsumer } from "./customer-mails/consumer.js";
import { creditNotesConsumer } from "./invoices/consumer.js";
import { invoiceEndpoints } from "./invoices/routes.js";
import { organizationEndpoints } from "./organizations/routes.js";
import { benefitEndpoints } from "./benefits/routes.js";
import { benefitGrantEndpoints } from "./benefit-grants/routes.js";
import { customFieldEndpoints } from "./custom-fields/routes.js";
import { checkoutLinkEndpoints } from "./checkout-links/routes.js";
import { checkoutEndpoints } from "./checkouts/routes.js";
import { CheckoutExpirySweep } from "./checkouts/expiry.js";
import { CheckoutPayments } from "./checkouts/payer.js";
import { customerEndpoints } from "./customers/routes.js";
import { memberEndpoints } from "./members/routes.js";
import { seatHoldersConsumer } from "./customer-seats/consumer.js";
import { customerSeatEndpoints } from "./customer-seats/routes.js";
import { metricEndpoints } from "./metrics/routes.js";
import { orderEndpoints } from "./orders/routes.js";
import { licenseKeyEndpoints } from "./license-keys/routes.js";
import { customerPortalEndpoints } from "./customer-portal/routes/index.js";
import { purchaseEndpoints } from "./purchases/routes.js";
import { peopleConsumer } from "./users/consumer.js";
import { linkedSeatsConsumer } from "./organization-links/consumer.js";
import { organizationLinkEndpoints } from "./organization-links/routes.js";
import { liveSession } from "./customer-sessions/customer-sessions.sql.js";
import { customerSessionEndpoints } from "./customer-sessions/routes.js";
import { refundEndpoints } from "./refunds/routes.js";
import { SubscriptionReminders } from "./customer-mails/reminders.js";
import { SubscriptionRenewals } from "./subscriptions/renewals.js";
import { subscriptionEndpoints } from "./subscriptions/routes.js";
import { testClockEndpoints } from "./test-clock/routes.js";
import { CustomerStateAnnouncer } from "./customer-state/announcer.js";
import { customerStateView } from "./customer-state/service.js";
import { discountEndpoints } from "./discounts/routes.js";
import { LocalFileStorage } from "./files/local-storage.js";
import { fileEndpoints, localUploadEndpoints } from "./files/routes.js";
import { S3FileStorage } from "./files/s3-storage.js";
import { paymentEndpoints, sandboxEndpoints } from "./payments/routes.js";
import { disputeEndpoints } from "./disputes/routes.js";
import { SandboxProcessor } from "./payments/sandbox.js";
import { StripeProcessor, stripeClient, type StripeSettings } from "./payments/stripe.js";
import { stripeWebhookEndpoints } from "./stripe-events/routes.js";
import { productEndpoints } from "./products/routes.js";
import { UsageMeasurer } from "./usage-events/measurer.js";
import { remeasuring } from "./usage-events/measurements.js";
import { meterEndpoints } from "./meters/routes.js";
import { eventTypeStatsEndpoints, meterQuantityEndpoints, usageEventEndpoints } from "./usage-events/routes.js";
import { eventTypeEndpoints } from "./event-types/routes.js";
import { customerMeterEndpoints } from "./customer-meters/routes.js";
import { setAsideWorkEndpoints } from "./set-aside.js";

function fileStorageOf(config: BillingConfig): LocalFileStorage | S3FileStorage {
  if (config.FILE_STORAGE === "local") {
    return new LocalFileStorage(path.resolve(config.FILES_DIR), config.PUBLIC_URL, config.FILE_URL_SECRET);
  }
  if (!config.S3_BUCKET) throw new StartupError("S3_BUCKET is not set: FILE_STORAGE=s3 needs the bucket that holds uploaded files");
  return new S3FileStorage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
}

/** The STRIPE_* settings PAYMENT_PROCESSOR=stripe needs, each one missing said on a line of its own. */
function stripeSettingsOf(config: BillingConfig): StripeSettings {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = config;
  const problems = [
    !secretKey && "STRIPE_SECRET_KEY is not set: PAYMENT_PROCESSOR=stripe calls Stripe with it (sk_live_… or sk_test_…, from Stripe's dashboard)",
    !publishableKey && "STRIPE_PUBLISHABLE_KEY is not set: PAYMENT_PROCESSOR=stripe gives it to Stripe.js on the hosted checkout (pk_…)",
    !webhookSecret && "STRIPE_WEBHOOK_SECRET is not set: PAYMENT_PROCESSOR=stripe checks Stripe's webhooks with it (whsec_…, the endpoint's signing secret)",
  ].filter((problem): problem is string => typeof problem === "string");
  if (problems.length > 0 || !secretKey || !webhookSecret) throw new StartupError(problems.join("\n"));
  return { client: stripeClient(config, secretKey), webhookSecret };
}

/** The payment processor PAYMENT_PROCESSOR names, with what only it has (the sandbox's tokens, Stripe's webhooks). */
function processorOf(config: BillingConfig, db: Knex): Pick<Parts, "processor" | "sandbox" | "stripe"> {
  if (config.PAYMENT_PROCESSOR === "stripe") {
    const stripe = stripeSettingsOf(config);
    return { processor: new StripeProcessor(stripe.client, db), sandbox: null, stripe };
  }
  const sandbox = new SandboxProcessor(db);
  return { processor: sandbox, sandbox, stripe: null };
}

/**
 * Billing's parts, built once: what the endpoints, consumers and workers use, and the workers that
 * requests wake (a confirmed checkout, a card saved for a past-due subscription, ingested events).
 */
async function partsOf(context: ServiceContext<BillingConfig>) {
  const { config, db, units, logger, redis } = context;
  if (!redis) throw new Error("billing runs with Redis");
  const timeZones = await postgresTimeZones(db);
  const parts: Parts = { config, db, units, logger, failures: context.failures, redis, access: new OrganizationAccess(db), request: context.request, storage: fileStorageOf(config), ...processorOf(config, db), timeZones };
  return {
    ...parts,
    payments: new CheckoutPayments(parts, units),
    renewals: new SubscriptionRenewals(parts, units),
    measurer: new UsageMeasurer(parts),
    checkoutExpiry: new CheckoutExpirySweep(parts),
    customerStates: new CustomerStateAnnouncer(parts),
    reminders: new SubscriptionReminders(parts),
  };
}

/** What billing's hooks (and a test that drives its parts) are given as `context.app`. */
export type BillingApp = Awaited<ReturnType<typeof partsOf>>;

/** What the `/v1` document says of billing's part of the API as a whole. */
const BILLING_API: ApiDescription = {
  title: "Tollgate billing API",
  version: "1",
  description: "Polar's public billing API: works with @polar-sh/sdk pointed at this site.",
  errors: polarErrors,
  securitySchemes: {
    access_token: { type: "http", scheme: "bearer", description: "An organization access token (polar_oat_…)" },
    customer_session: { type: "http", scheme: "bearer", description: "A customer session token (polar_cst_…), for the customer portal" },
  },
};

/** Sellers, access tokens, products, customers and the rest of Polar's `/v1` API. */
export const billingService = defineService({
  name: "billing",
  schema: "billing",
  defaultPort: 3003,
  errors: polarErrors,
  env: billingEnv,
  migrations: billingMigrations,
  redis: true,
  setup: partsOf,
  routes(router, context) {
    const billing = context.app;
    const { renewals, payments, measurer, reminders } = billing;
    const parts: Parts = billing;
    const api = Router({ strict: false });
    api.use(idempotency(billing.redis, context.config.IDEMPOTENCY_TTL_SECONDS));
    const endpoints = [
      ...organizationEndpoints(parts),
      ...accessTokenEndpoints(parts),
      ...productEndpoints(parts),
      ...customFieldEndpoints(parts),
      ...discountEndpoints(parts),
      ...benefitEndpoints(parts),
      ...benefitGrantEndpoints(parts),
      ...memberEndpoints(parts),
      ...customerEndpoints({ ...parts, state: customerStateView(parts.db) }),
      ...organizationLinkEndpoints(parts),
      ...checkoutEndpoints({ ...parts, wakePayments: () => payments.wake() }),
      ...checkoutLinkEndpoints(parts),
      ...orderEndpoints(parts),
      ...invoiceEndpoints(parts),
      ...metricEndpoints(parts),
      ...subscriptionEndpoints({ ...parts, renewNow: (subscriptionId) => renewals.renewNow(subscriptionId) }),
      ...refundEndpoints(parts),
      ...paymentEndpoints(parts),
      ...disputeEndpoints(parts),
      ...licenseKeyEndpoints(parts),
      ...customerSeatEndpoints(parts),
      ...meterEndpoints({ ...parts, remeasuring }),
      ...meterQuantityEndpoints(parts),
      ...usageEventEndpoints({ ...parts, wakeMeasurer: () => measurer.wake() }),
      ...eventTypeStatsEndpoints(parts),
      ...eventTypeEndpoints(parts),
      ...customerMeterEndpoints(parts),
      ...customerSessionEndpoints(parts),
      ...customerPortalEndpoints({ ...parts, wakeRenewals: () => renewals.wake(), renewNow: (subscriptionId) => renewals.renewNow(subscriptionId) }),
      ...purchaseEndpoints(parts),
      ...fileEndpoints(parts),
      ...(billing.storage instanceof LocalFileStorage ? localUploadEndpoints(billing.db, billing.storage) : []),
      ...setAsideWorkEndpoints(parts, billing),
      ...(billing.stripe ? stripeWebhookEndpoints({ db: billing.db, units: billing.units, wakePayments: () => payments.wake() }, billing.stripe) : []),
      ...(billing.sandbox ? [...sandboxEndpoints(billing.sandbox), ...testClockEndpoints(parts, async (organizationId) => {
            await renewals.catchUp(organizationId);
            reminders.wake();
          })] : []),
    ];
    mountEndpoints(api, endpoints);
    serveApiDescription(router, BILLING_API, endpoints);
    router.use(api);
  },
  consumers: ({ config, app }) => [sellersConsumer(), membershipConsumer("billing-memberships"), peopleConsumer(), linkedSeatsConsumer(), customerMailsConsumer(config.PUBLIC_URL), creditNotesConsumer(app.storage), seatHoldersConsumer()],
  workers: ({ app }) => [app.customerStates, app.payments, app.renewals, app.measurer, app.checkoutExpiry, app.reminders],
  responders(context) {
    const { db } = context;
    context.respond(resolveCustomerSession, async ({ token_hash }) => {
      const session = await liveSession(db, token_hash);
      return { session: session ? { id: session.id, customer_id: session.customer_id, member_id: session.member_id, organization_id: session.organization_id, expires_at: session.expires_at.toISOString() } : null };
    });
    context.respond(resolveAccessToken, async ({ token_hash }) => {
      const token = await useAccessToken(db, token_hash);
      return { token: token ? { id: token.id, organization_id: token.organization_id, scopes: token.scopes, expires_at: token.expires_at?.toISOString() ?? null } : null };
    });
  },
});
