import Stripe from "stripe";
import { STRIPE_EVENT_TYPES } from "../../../services/billing/src/stripe-events/service.js";
import { startBillingStack, type BillingStack } from "../billing.js";
import type { TEST_CARDS } from "./cards.js";
import { LocalStripe } from "./local-stripe.js";

export interface StripeBillingStack extends BillingStack {
  local: LocalStripe;
  /** The official SDK on the local Stripe with its secret key: what a test asks Stripe directly. */
  stripe: Stripe;
  /** What Stripe.js's Payment Element makes of a test card on the hosted page: a confirmation token. */
  confirmationToken(card: keyof typeof TEST_CARDS): Promise<string>;
}

/**
 * A billing stack whose processor is Stripe, reached through STRIPE_API_URL at a local Stripe that
 * sends its webhooks to the gateway's /v1/integrations/stripe/webhook, signed with the endpoint's
 * secret that billing is given as STRIPE_WEBHOOK_SECRET, as a seller sets it up in Stripe's dashboard.
 */
export async function startStripeBillingStack(env: Record<string, string> = {}): Promise<StripeBillingStack> {
  const local = await LocalStripe.start();
  // Made before billing starts, for its secret; pointed at the gateway once the gateway has an address.
  const endpoint = local.addWebhookEndpoint("http://127.0.0.1:9/not-yet", [...STRIPE_EVENT_TYPES]);
  const stack = await startBillingStack({
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: local.secretKey,
    STRIPE_PUBLISHABLE_KEY: local.publishableKey,
    STRIPE_WEBHOOK_SECRET: endpoint.secret,
    STRIPE_API_URL: local.url,
    ...env,
  }).catch(async (error: unknown) => {
    await local.stop();
    throw error;
  });
  const stripe = new Stripe(local.secretKey, { ...local.sdkOptions, maxNetworkRetries: 0 });
  await stripe.webhookEndpoints.update(endpoint.id, { url: `${stack.gateway.url}/v1/integrations/stripe/webhook` });
  return {
    ...stack,
    local,
    stripe,
    async confirmationToken(card) {
      return (await stripe.testHelpers.confirmationTokens.create({ payment_method: card })).id;
    },
    async stop() {
      await stack.stop();
      await local.stop();
    },
  };
}
