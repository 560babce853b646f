import path from "node:path";
import { Router } from "express";
import { defineService, membershipConsumer, mountEndpoints, OrganizationAccess, polarErrors, StartupError, type ServiceContext } from "@tollgate/kit";
import { resolveAccessToken } from "@tollgate/proto";
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
import { customerEndpoints } from "./customers/routes.js";
import { CustomerStateAnnouncer } from "./customers/state.js";
import { discountEndpoints } from "./discounts/routes.js";
import { LocalFileStorage } from "./files/local-storage.js";
import { fileEndpoints, localUploadEndpoints } from "./files/routes.js";
import { S3FileStorage } from "./files/s3-storage.js";
import { productEndpoints } from "./products/routes.js";

function fileStorageOf(config: BillingConfig): LocalFileStorage | S3FileStorage {
  if (config.FILE_STORAGE === "local") return new LocalFileStorage(path.resolve(config.FILES_DIR), config.PUBLIC_URL, config.IDENTITY_TOKEN_SECRET);
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

const bundles = new WeakMap<ServiceContext<BillingConfig>, Billing>();

/** The service's parts, built once per running service and shared by its routes, consumers and workers. */
function billingOf(context: ServiceContext<BillingConfig>): Billing {
  let billing = bundles.get(context);
  if (!billing) {
    const { config, db, outbox, logger, redis } = context;
    if (!redis) throw new Error("billing runs with Redis");
    billing = {
      config,
      db,
      outbox,
      logger,
      redis,
      access: new OrganizationAccess(db),
      storage: fileStorageOf(config),
    };
    bundles.set(context, billing);
  }
  return billing;
}

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
    const billing = billingOf(context);
    const api = Router({ strict: false });
    api.use(idempotency(billing.redis, context.config.IDEMPOTENCY_TTL_SECONDS));
    mountEndpoints(api, [
      ...organizationEndpoints(billing),
      ...accessTokenEndpoints(billing),
      ...productEndpoints(billing),
      ...customFieldEndpoints(billing),
      ...discountEndpoints(billing),
      ...benefitEndpoints(billing),
      ...customerEndpoints(billing),
      ...fileEndpoints(billing),
      ...(billing.storage instanceof LocalFileStorage ? localUploadEndpoints(billing, billing.storage) : []),
    ]);
    router.use(api);
  },
  consumers: (context) => [sellersConsumer(context.outbox), membershipConsumer("billing-memberships")],
  workers: (context) => [new CustomerStateAnnouncer(billingOf(context))],
  responders(context) {
    const { db } = billingOf(context);
    context.respond(resolveAccessToken, async ({ token_hash }) => {
      const token = await useAccessToken(db, token_hash);
      return { token: token ? { id: token.id, organization_id: token.organization_id, scopes: token.scopes, expires_at: token.expires_at?.toISOString() ?? null } : null };
    });
  },
});
