import { Router } from "express";
import { defineService, membershipConsumer, mountEndpoints, OrganizationAccess, polarErrors, SecretVault, serveApiDescription, type ServiceContext } from "@tollgate/kit";
import { dispatcherEnv } from "./config.js";
import type { Dispatcher, DispatcherConfig } from "./dispatcher.js";
import { deliveryEndpoints } from "./deliveries/routes.js";
import { DeliveryScheduler } from "./deliveries/scheduler.js";
import { WebhookSender } from "./deliveries/sender.js";
import { endpointEndpoints } from "./endpoints/routes.js";
import { billingEventsConsumer } from "./events/consumer.js";
import { EventRetention } from "./events/retention.js";
import { dispatcherMigrations } from "./migrations/index.js";

interface Running {
  dispatcher: Dispatcher;
  scheduler: DeliveryScheduler;
}

const bundles = new WeakMap<ServiceContext<DispatcherConfig>, Running>();

/** The dispatcher's parts, built once per running service and shared by its routes, consumers and workers. */
function runningOf(context: ServiceContext<DispatcherConfig>): Running {
  let running = bundles.get(context);
  if (!running) {
    const { config, db, outbox, logger } = context;
    const sender = new WebhookSender({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowPrivateUrls: config.WEBHOOKS_ALLOW_PRIVATE_URLS, userAgent: `Tollgate-Webhooks/1.0 (+${config.PUBLIC_URL})` });
    const dispatcher: Dispatcher = {
      config,
      db,
      outbox,
      logger,
      access: new OrganizationAccess(db),
      vault: SecretVault.fromSettings(config.WEBHOOK_SECRET_KEYS),
      wakeScheduler: () => scheduler.wake(),
    };
    const scheduler = new DeliveryScheduler(dispatcher, sender);
    running = { dispatcher, scheduler };
    bundles.set(context, running);
  }
  return running;
}

/** Sellers' webhook endpoints and the signed, retried delivery of billing events to them. */
export const webhookDispatcherService = defineService({
  name: "webhook-dispatcher",
  schema: "webhooks",
  defaultPort: 3004,
  errors: polarErrors,
  env: dispatcherEnv,
  migrations: dispatcherMigrations,
  routes(router, context) {
    const { dispatcher } = runningOf(context);
    const api = Router({ strict: false });
    const endpoints = [...endpointEndpoints(dispatcher), ...deliveryEndpoints(dispatcher)];
    mountEndpoints(api, endpoints);
    serveApiDescription(router, { title: "Tollgate webhooks API", version: "1", errors: polarErrors }, endpoints);
    router.use(api);
  },
  consumers: (context) => [membershipConsumer("webhook-dispatcher-memberships"), billingEventsConsumer(runningOf(context).dispatcher)],
  workers: (context) => [runningOf(context).scheduler, new EventRetention(runningOf(context).dispatcher)],
});
