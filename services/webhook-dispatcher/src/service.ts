import { Router } from "express";
import { defineService, membershipConsumer, mountEndpoints, OrganizationAccess, polarErrors, SecretVault, serveApiDescription, setAsideEndpoints, type ServiceContext } from "@tollgate/kit";
import { dispatcherEnv, type DispatcherConfig } from "./config.js";
import type { Parts } from "./parts.js";
import { deliveryEndpoints } from "./deliveries/routes.js";
import { DeliveryScheduler } from "./deliveries/scheduler.js";
import { WebhookSender } from "./deliveries/sender.js";
import { WEBHOOK_DELIVERY } from "./deliveries/set-aside.js";
import { endpointEndpoints } from "./endpoints/routes.js";
import { billingEventsConsumer } from "./events/consumer.js";
import { requeue } from "./events/events.sql.js";
import { EventRetention } from "./events/retention.js";
import { dispatcherMigrations } from "./migrations/index.js";

/** The dispatcher's parts, built once when it starts and shared by its routes, consumers and workers. */
function partsOf({ config, db, units, logger, failures }: ServiceContext<DispatcherConfig>) {
  const sender = new WebhookSender({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowPrivateUrls: config.WEBHOOKS_ALLOW_PRIVATE_URLS, userAgent: `Tollgate-Webhooks/1.0 (+${config.PUBLIC_URL})` });
  const dispatcher: Parts = {
    config,
    db,
    units,
    logger,
    failures,
    access: new OrganizationAccess(db),
    vault: SecretVault.fromSettings(config.WEBHOOK_SECRET_KEYS),
    // The scheduler is built from the dispatcher it wakes: a call made only once both exist.
    wakeScheduler: () => scheduler.wake(),
  };
  const scheduler = new DeliveryScheduler(dispatcher, sender);
  return { dispatcher, scheduler, retention: new EventRetention(dispatcher) };
}

/** What the dispatcher's hooks (and a test that drives its parts) are given as `context.app`. */
export type DispatcherApp = ReturnType<typeof partsOf>;

/** Sellers' webhook endpoints and the signed, retried delivery of billing events to them. */
export const webhookDispatcherService = defineService({
  name: "webhook-dispatcher",
  schema: "webhooks",
  defaultPort: 3004,
  errors: polarErrors,
  env: dispatcherEnv,
  migrations: dispatcherMigrations,
  setup: partsOf,
  routes(router, context) {
    const { dispatcher } = context.app;
    const api = Router({ strict: false });
    const endpoints = [
      ...endpointEndpoints(dispatcher),
      ...deliveryEndpoints(dispatcher),
      ...setAsideEndpoints("/v1/webhooks/set-aside-work", {
        db: dispatcher.db,
        access: dispatcher.access,
        // A set-aside event was settled as failed: sending it again starts it afresh, as a redelivery does.
        workers: { [WEBHOOK_DELIVERY]: { read: "webhooks:read", write: "webhooks:write", putBack: requeue, wake: () => dispatcher.wakeScheduler() } },
        tag: "webhooks",
      }),
    ];
    mountEndpoints(api, endpoints);
    serveApiDescription(router, { title: "Tollgate webhooks API", version: "1", errors: polarErrors }, endpoints);
    router.use(api);
  },
  consumers: (context) => [membershipConsumer("webhook-dispatcher-memberships"), billingEventsConsumer(context.app.dispatcher.wakeScheduler)],
  workers: (context) => [context.app.scheduler, context.app.retention],
});
