import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { STRIPE_EVENT_TYPES } from "../../services/billing/src/stripe-events/service.js";
import { LocalStripe } from "../../test/stacks/stripe/local-stripe.js";

/**
 * Stripe for the bench's Stripe run: the tests' local Stripe in this process (where the real one
 * would be a network away), sending its webhooks to billing through a relay that adds the identity
 * header the gateway would, since the bench runs billing without a gateway.
 */
export interface BenchStripe {
  /** Billing's settings for it. */
  env: Record<string, string>;
  /** What Stripe.js's Payment Element does with the card on the page: a confirmation token, with the publishable key. */
  confirmationToken(): Promise<string>;
  /** How billing answered Stripe's webhook deliveries: a count by HTTP status. */
  webhookAnswers(): string;
  /** Points Stripe's webhook endpoint at billing, once billing has an address. */
  sendWebhooksTo(billingUrl: string, anonymousIdentity: () => string): void;
  stop(): Promise<void>;
}


export async function startBenchStripe(): Promise<BenchStripe> {
  const local = await LocalStripe.start();
  let relay: Server | null = null;
  const endpoint = local.addWebhookEndpoint("http://127.0.0.1:9/not-yet", [...STRIPE_EVENT_TYPES]);
  return {
    env: { PAYMENT_PROCESSOR: "stripe", STRIPE_SECRET_KEY: local.secretKey, STRIPE_PUBLISHABLE_KEY: local.publishableKey, STRIPE_WEBHOOK_SECRET: endpoint.secret, STRIPE_API_URL: local.url },
    async confirmationToken() {
      const answer = await fetch(`${local.url}/v1/confirmation_tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${local.publishableKey}`, "content-type": "application/x-www-form-urlencoded" },
        body: "payment_method_data[type]=card&payment_method_data[card][number]=4242424242424242&payment_method_data[card][exp_month]=12&payment_method_data[card][exp_year]=2035&payment_method_data[card][cvc]=123",
      });
      if (answer.status !== 200) throw new Error(`the local Stripe made no token: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { id: string }).id;
    },
    webhookAnswers() {
      const counts = new Map<number, number>();
      for (const delivery of local.webhooks.deliveries) counts.set(delivery.status, (counts.get(delivery.status) ?? 0) + 1);
      return [...counts].map(([status, count]) => `${count} answered ${status}`).join(", ") || "none delivered";
    },
    sendWebhooksTo(billingUrl, anonymousIdentity) {
      relay = createServer((incoming, outgoing) => {
        const forwarded = request(`${billingUrl}${incoming.url ?? "/"}`, { method: "POST", headers: { ...incoming.headers, [IDENTITY_HEADER]: anonymousIdentity() } }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
        forwarded.on("error", () => outgoing.writeHead(502).end());
        incoming.pipe(forwarded);
      });
      relay.listen(0, "127.0.0.1", () => {
        const { port } = relay?.address() as AddressInfo;
        local.webhooks.updateEndpoint(endpoint.id, { url: `http://127.0.0.1:${port}/v1/integrations/stripe/webhook` });
      });
    },
    async stop() {
      await local.stop();
      await new Promise<void>((done) => (relay ? relay.close(() => done()) : done()));
    },
  };
}
