import { randomBytes } from "node:crypto";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import { startTestService, type TestEnvironment } from "@tollgate/kit/testing";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";
import { startBillingStack, type BillingStack } from "./billing.js";
import type { DispatcherEnv } from "../../services/webhook-dispatcher/src/config.js";
import { webhookDispatcherService, type DispatcherApp } from "../../services/webhook-dispatcher/src/service.js";

export interface DispatcherStack extends BillingStack {
  webhooks: RunningService<ServiceConfig<DispatcherEnv>, DispatcherApp>;
  /** The settings the dispatcher runs with, for starting more replicas of it. */
  dispatcherEnv: Record<string, string>;
  /** Announces a billing event as billing does: through its outbox, so it reaches the dispatcher over the bus. */
  announce(type: WebhookEventType, organizationId: string, payload: Record<string, unknown>): Promise<void>;
}

/** The dispatcher's own secret: the key that seals endpoints' signing secrets at rest. */
export const DISPATCHER_SECRETS = { WEBHOOK_SECRET_KEYS: `test:${randomBytes(32).toString("base64")}` };

/** Settings that make retries quick enough to watch; loopback receivers are allowed. */
export const QUICK_RETRIES = {
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_POLL_INTERVAL_MS: "50",
  WEBHOOK_TIMEOUT_MS: "1000",
};

/** Auth, organization, billing and the webhook dispatcher behind a real gateway. */
export async function startDispatcherStack(env: Record<string, string> = {}, authEnv: Record<string, string> = {}): Promise<DispatcherStack> {
  let webhooks: RunningService<ServiceConfig<DispatcherEnv>, DispatcherApp> | undefined;
  let environment: TestEnvironment | undefined;
  const settings = { ...DISPATCHER_SECRETS, ...QUICK_RETRIES, ...env };
  const stack = await startBillingStack(
    {},
    {
      webhooks: async (shared) => {
        environment = shared;
        return (webhooks = await startTestService(webhookDispatcherService, shared, settings));
      },
    },
    authEnv,
  );
  if (!webhooks || !environment) throw new Error("the webhook dispatcher did not start");
  const { units } = stack.billing.context;
  return {
    ...stack,
    webhooks,
    dispatcherEnv: { ...environment.env, ...settings },
    async announce(type, organizationId, payload) {
      await units.run((unit) => Promise.resolve(unit.announce(billingEvents[type], { organization_id: organizationId, payload })));
    },
  };
}
