import path from "node:path";
import { Router } from "express";
import { defineService, membershipConsumer, mountEndpoints, OrganizationAccess, polarErrors, serveApiDescription, StartupError, type ApiDescription, type Knex, type ServiceContext } from "@tollgate/kit";
import { resolveAccessToken, resolveCustomerSession } from "@tollgate/proto";
import { accessTokenEndpoints } from "./access-tokens/routes.js";
import { useAccessToken } from "./access-tokens/tokens.sql.js";
import { idempotency } from "./api/idempotency.js";
import type { Billing, BillingConfig } from "./billing.js";
import { billingEnv } from "./config.js";
import { billingMigrations } from "./migrations/index.js";
import { sellersConsumer } from "./organizations/consumer.js";
import { organizationEndpoints } from "./organizations/routes.js";
import { benefitEndpoints } from "./benefits/routes.js";
import { customFieldEndpoints } from "./custom-fields/routes.js";
import { checkoutLinkEndpoints } from "./checkout-links/routes.js";
import { checkoutEndpoints } from "./checkouts/routes.js";
import { CheckoutExpirySweep } from "./checkouts/lifecycle.js";
import { CheckoutPayments } from "./checkouts/payer.js";
import { customerEndpoints } from "./customers/routes.js";
import { orderEndpoints } from "./orders/routes.js";
import { licenseKeyEndpoints } from "./license-keys/routes.js";
import { purchaseEndpoints } from "./customer-portal/purchases.js";
import { benefitGrantEndpoints } from "./customer-portal/benefit-grants.js";
import { profileEndpoints } from "./customer-portal/profile.js";
import { customerPortalEndpoints } from "./customer-portal/routes.js";
import { portalOrganizationEndpoints } from "./customer-portal/organization.js";
import { peopleConsumer } from "./people/people.js";
import { customerSessionEndpoints, liveSession } from "./customer-sessions/sessions.js";
import { refundEndpoints } from "./refunds/routes.js";
import { SubscriptionCycles } from "./subscriptions/cycles.js";
import { subscriptionEndpoints } from "./subscriptions/routes.js";
import { testClockEndpoints } from "./test-clock/routes.js";
import { CustomerStateAnnouncer } from "./customers/state.js";
import { discountEndpoints } from "./discounts/routes.js";
import { LocalFileStorage } from "./files/local-storage.js";
import { fileEndpoints, localUploadEndpoints } from "./files/routes.js";
import { S3FileStorage } from "./files/s3-storage.js";
import { sandboxEndpoints } from "./payments/routes.js";
import { SandboxProcessor } from "./payments/sandbox.js";
import { productEndpoints } from "./products/routes.js";

function fileStorageOf(config: BillingConfig): LocalFileStorage | S3FileStorage {
  if (config.FILE_STORAGE === "local") {
    if (!config.FILE_URL_SECRET) throw new StartupError("FILE_URL_SECRET is not set: FILE_STORAGE=local signs upload and download URLs with it (32 or more random characters)");
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

/** The payment processor PAYMENT_PROCESSOR names; the sandbox is the only one so far. */
function paymentsOf(db: Knex): Pick<Billing, "processor" | "sandbox"> {
  const sandbox = new SandboxProcessor(db);
  return { processor: sandbox, sandbox };
}

interface Running {
  billing: Billing;
  payments: CheckoutPayments;
  cycles: SubscriptionCycles;
}

const bundles = new WeakMap<ServiceContext<BillingConfig>, Running>();

/** The service's parts, built once per running service and shared by its routes, consumers and workers. */
function runningOf(context: ServiceContext<BillingConfig>): Running {
  let running = bundles.get(context);
  if (!running) {
    const { config, db, outbox, logger, redis } = context;
    if (!redis) throw new Error("billing runs with Redis");
    const billing: Billing = {
      config,
      db,
      outbox,
      logger,
      redis,
      access: new OrganizationAccess(db),
      storage: fileStorageOf(config),
      ...paymentsOf(db),
      wakePayments: () => payments.wake(),
      wakeRenewals: () => cycles.wake(),
    };
    const payments = new CheckoutPayments(billing);
    const cycles = new SubscriptionCycles(billing);
    running = { billing, payments, cycles };
    bundles.set(context, running);
  }
  return running;
}

const billingOf = (context: ServiceContext<BillingConfig>) => runningOf(context).billing;

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
  routes(router, context) {
    const { billing, cycles } = runningOf(context);
    const api = Router({ strict: false });
    api.use(idempotency(billing.redis, context.config.IDEMPOTENCY_TTL_SECONDS));
    const endpoints = [
      ...organizationEndpoints(billing),
      ...accessTokenEndpoints(billing),
      ...productEndpoints(billing),
      ...customFieldEndpoints(billing),
      ...discountEndpoints(billing),
      ...benefitEndpoints(billing),
      ...customerEndpoints(billing),
      ...checkoutEndpoints(billing),
      ...checkoutLinkEndpoints(billing),
      ...orderEndpoints(billing),
      ...subscriptionEndpoints(billing),
      ...refundEndpoints(billing),
      ...licenseKeyEndpoints(billing),
      ...customerSessionEndpoints(billing),
      ...profileEndpoints(billing),
      ...customerPortalEndpoints(billing),
      ...portalOrganizationEndpoints(billing),
      ...benefitGrantEndpoints(billing),
      ...purchaseEndpoints(billing),
      ...fileEndpoints(billing),
      ...(billing.storage instanceof LocalFileStorage ? localUploadEndpoints(billing, billing.storage) : []),
      ...(billing.sandbox ? [...sandboxEndpoints(billing.sandbox), ...testClockEndpoints(billing, (organizationId) => cycles.catchUp(organizationId))] : []),
    ];
    mountEndpoints(api, endpoints);
    serveApiDescription(router, BILLING_API, endpoints);
    router.use(api);
  },
  consumers: (context) => [sellersConsumer(context.outbox), membershipConsumer("billing-memberships"), peopleConsumer()],
  workers: (context) => [new CustomerStateAnnouncer(billingOf(context)), runningOf(context).payments, runningOf(context).cycles, new CheckoutExpirySweep(billingOf(context))],
  responders(context) {
    const { db } = billingOf(context);
    context.respond(resolveCustomerSession, async ({ token_hash }) => {
      const session = await liveSession(db, token_hash);
      return { session: session ? { customer_id: session.customer_id, organization_id: session.organization_id, expires_at: session.expires_at.toISOString() } : null };
    });
    context.respond(resolveAccessToken, async ({ token_hash }) => {
      const token = await useAccessToken(db, token_hash);
      return { token: token ? { id: token.id, organization_id: token.organization_id, scopes: token.scopes, expires_at: token.expires_at?.toISOString() ?? null } : null };
    });
  },
});
