/**
 * `npm run bench:webhooks` — deliveries/s from one webhook dispatcher to a local receiver, beside
 * the raw POST rate autocannon reaches against the same receiver in the same run; then latency from
 * publishing a billing event to its receipt at a steady rate. Prints figures; asserts nothing.
 *
 * Env: BENCH_EVENTS (default 5000), BENCH_ENDPOINTS (default 4, each gets every event),
 * BENCH_STEADY_RATE (events/s, default 200), BENCH_STEADY_SECONDS (default 15), and the usual
 * DATABASE_URL, NATS_URL, REDIS_URL.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { billingEvents } from "@tollgate/proto";
import type { BusConnection, Knex } from "@tollgate/kit";
import { spawnTypeScript } from "@tollgate/kit/testing";
import { webhookDispatcherService } from "@tollgate/webhook-dispatcher";
import { envInteger, formatMs, formatRate, percentile, progress, startBenchService } from "../support.js";

const EVENTS = envInteger("BENCH_EVENTS", 5_000);
const ENDPOINTS = envInteger("BENCH_ENDPOINTS", 4);
const STEADY_RATE = envInteger("BENCH_STEADY_RATE", 200);
const STEADY_SECONDS = envInteger("BENCH_STEADY_SECONDS", 15);
const TARGETS = { rate: 1_000, ratio: 0.4, p99Ms: 250 };

/** A typical order.paid payload, about 1 KB as JSON. */
const orderPayload = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  created_at: new Date().toISOString(),
  status: "paid",
  paid: true,
  subtotal_amount: 1_900,
  discount_amount: 0,
  net_amount: 1_900,
  tax_amount: 380,
  total_amount: 2_280,
  currency: "usd",
  billing_reason: "subscription_cycle",
  customer_id: randomUUID(),
  product_id: randomUUID(),
  subscription_id: randomUUID(),
  customer: { id: randomUUID(), email: "jane.doe@example.com", name: "Jane Doe", metadata: { plan: "pro" } },
  product: { id: randomUUID(), name: "Pro plan (monthly)", recurring_interval: "month", is_archived: false },
  items: [{ label: "Pro plan (monthly)", amount: 1_900, tax_amount: 380, proration: false }],
  metadata: { campaign: "spring", seats: "5" },
  ...extra,
});

async function main(): Promise<void> {
  progress("starting the receiver process");
  const receiver = spawnTypeScript(fileURLToPath(new URL("./receiver.ts", import.meta.url)));
  const port = Number(/listening on (\d+)/.exec(await receiver.waitFor(/listening on \d+/, 30_000))?.[1]);
  const receiverUrl = `http://127.0.0.1:${port}/hooks`;
  const bench = await startBenchService("webhooks", webhookDispatcherService, { WEBHOOKS_ALLOW_PRIVATE_URLS: "true", WEBHOOK_CONCURRENCY: "200", WEBHOOK_ENDPOINT_CONCURRENCY: "64" });
  const dispatcher = bench.service;
  /** The identity header the gateway would send for an organization access token. */
  const asToken = (organizationId: string) => bench.as({ kind: "organization_token", token_id: `oat_${organizationId}`, organization_id: organizationId, scopes: ["webhooks:write"] });
  try {
    const raw = await rawRate(receiverUrl);
    const { db, bus } = dispatcher.context;
    const throughput = await deliveryRate(asToken, dispatcher.url, receiverUrl, db, bus);
    const latency = await steadyLatency(asToken, dispatcher.url, receiverUrl, `http://127.0.0.1:${port}/latencies`, bus);

    console.log("\nwebhook delivery, one dispatcher process → local receiver (its own process)");
    console.log(`  raw POST rate (autocannon, 64 connections)   ${formatRate(raw)}`);
    console.log(`  deliveries (${EVENTS} events × ${ENDPOINTS} unordered endpoints)  ${formatRate(throughput.rate)}  = ${Math.round((throughput.rate / raw) * 100)} % of raw`);
    console.log(`    from the first event published to the last delivery recorded: ${throughput.deliveries} in ${(throughput.seconds).toFixed(1)} s`);
    console.log(`  publish → receipt at ${STEADY_RATE} events/s for ${STEADY_SECONDS} s (one ordered endpoint): p50 ${formatMs(latency.p50)}, p99 ${formatMs(latency.p99)}, max ${formatMs(latency.max)} (${latency.count} events)`);
    console.log(`  targets: ≥ ${TARGETS.rate}/s (${throughput.rate >= TARGETS.rate ? "met" : "missed"}), ≥ ${TARGETS.ratio * 100} % of raw (${throughput.rate / raw >= TARGETS.ratio ? "met" : "missed"}), p99 ≤ ${TARGETS.p99Ms} ms (${latency.p99 <= TARGETS.p99Ms ? "met" : "missed"})`);
  } finally {
    await bench.stop();
    receiver.child.kill();
  }
}

async function rawRate(url: string): Promise<number> {
  progress("raw POST rate with autocannon for 5 s");
  const body = JSON.stringify({ type: "order.paid", timestamp: new Date().toISOString(), data: orderPayload() });
  const result = await autocannon({ url, method: "POST", body, headers: { "content-type": "application/json" }, connections: 64, duration: 5 });
  return result.requests.average;
}

/** Endpoints made through the dispatcher's own API, as an organization access token would. */
type AsToken = (organizationId: string) => Record<string, string>;

async function createEndpoints(asToken: AsToken, serviceUrl: string, organizationId: string, count: number, url: string, ordered: boolean): Promise<void> {
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${serviceUrl}/v1/webhooks/endpoints`, {
      method: "POST",
      headers: { "content-type": "application/json", ...asToken(organizationId) },
      body: JSON.stringify({ url, format: "raw", events: ["order.paid"], ordered }),
    });
    if (response.status !== 201) throw new Error(`creating an endpoint answered ${response.status}: ${await response.text()}`);
  }
}

/** Publishes as billing's outbox relay does: one envelope per event, the event id as the message id. */
async function publish(bus: BusConnection, organizationId: string, payload: Record<string, unknown>): Promise<void> {
  const envelope = { id: randomUUID(), type: billingEvents["order.paid"].type, occurred_at: new Date().toISOString(), source: "billing", data: { organization_id: organizationId, payload } };
  await bus.js.publish(bus.names.eventSubject(envelope.type), JSON.stringify(envelope), { msgID: envelope.id });
}

async function deliveryRate(asToken: AsToken, serviceUrl: string, receiverUrl: string, db: Knex, bus: BusConnection) {
  const organizationId = `org_${randomUUID()}`;
  await createEndpoints(asToken, serviceUrl, organizationId, ENDPOINTS, receiverUrl, false);
  const expected = EVENTS * ENDPOINTS;
  progress(`publishing ${EVENTS} events for ${ENDPOINTS} endpoints`);
  const started = performance.now();
  const published: Promise<void>[] = [];
  for (let index = 0; index < EVENTS; index++) published.push(publish(bus, organizationId, orderPayload()));
  await Promise.all(published);
  let delivered = 0;
  while (delivered < expected) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [row] = await db("webhook_events").where({ organization_id: organizationId, status: "succeeded" }).count<{ count: string }[]>({ count: "*" });
    delivered = Number(row?.count ?? 0);
    progress(`${delivered} of ${expected} delivered`);
  }
  const seconds = (performance.now() - started) / 1000;
  return { deliveries: expected, seconds, rate: expected / seconds };
}

async function steadyLatency(asToken: AsToken, serviceUrl: string, receiverUrl: string, latenciesUrl: string, bus: BusConnection) {
  const organizationId = `org_${randomUUID()}`;
  await createEndpoints(asToken, serviceUrl, organizationId, 1, receiverUrl, true);
  await fetch(latenciesUrl);
  const total = STEADY_RATE * STEADY_SECONDS;
  progress(`publishing ${STEADY_RATE} events/s for ${STEADY_SECONDS} s`);
  const started = performance.now();
  for (let index = 0; index < total; index++) {
    // Each event leaves at its scheduled moment, whatever the ones before it took.
    const due = started + (index * 1000) / STEADY_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    void publish(bus, organizationId, orderPayload({ sent_at: Date.now() }));
  }
  let latencies: number[] = [];
  for (let tries = 0; tries < 100 && latencies.length < total; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    latencies = latencies.concat((await (await fetch(latenciesUrl)).json()) as number[]);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}

await main();
