/**
 * `npm run bench:checkout` — complete checkouts through one billing process (create → card token →
 * confirm with the sandbox card → order paid), in two phases:
 *   1. throughput: as many buyers at once as BENCH_CONCURRENCY, as fast as they can go;
 *   2. latency: a new buyer every 1/BENCH_STEADY_RATE s for BENCH_STEADY_SECONDS, and how long after
 *      each confirm its order.paid reached the bus. Under saturation (phase 1) that time is mostly
 *      the queue, so it is printed too but the latency figure is the steady one, as in bench/webhooks;
 *      it starts once the work phase 1 left behind is done.
 * Prints figures; asserts nothing.
 *
 * Env: BENCH_CHECKOUTS (default 1000), BENCH_CONCURRENCY (default 32), BENCH_STEADY_RATE (checkouts/s,
 * default 20), BENCH_STEADY_SECONDS (default 15), and the usual DATABASE_URL, NATS_URL, REDIS_URL.
 */
import { billingService } from "@tollgate/billing";
import { envInteger, formatMs, formatRate, percentile, progress, startBenchService } from "../support.js";

const CHECKOUTS = envInteger("BENCH_CHECKOUTS", 1_000);
const CONCURRENCY = envInteger("BENCH_CONCURRENCY", 32);
const STEADY_RATE = envInteger("BENCH_STEADY_RATE", 20);
const STEADY_SECONDS = envInteger("BENCH_STEADY_SECONDS", 15);
const TARGETS = { rate: 100, p99Ms: 250 };
const nextYear = new Date().getUTCFullYear() + 1;

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
};

async function main(): Promise<void> {
  const bench = await startBenchService("checkout", billingService);
  const billing = bench.service;
  const { db, bus } = billing.context;
  const id = billing.context.config.NATS_PREFIX;
  try {
    // The seller, as the organization service's events would have made it.
    const organizationId = `org_${id}`;
    await db("organizations").insert({ id: organizationId, name: "Bench shop", slug: `bench-${id}` });
    const seller = bench.as({ kind: "organization_token", token_id: "oat_bench", organization_id: organizationId, scopes: ["products:write", "checkouts:write", "checkouts:read"] });
    const buyer = bench.as({ kind: "anonymous" });
    const call = async <Result>(path: string, headers: Record<string, string>, body: unknown): Promise<Result> => {
      const response = await fetch(`${billing.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as Result;
    };
    const product = await call<{ id: string }>("/v1/products/", seller, { name: "E-book", prices: [{ amount_type: "fixed", price_amount: 1_900, price_currency: "usd" }] });

    // order.paid as it reaches the bus, matched to its confirm by checkout id.
    const confirmedAt = new Map<string, number>();
    const paidAfter = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    const subscription = bus.nc.subscribe(bus.names.eventSubject("billing.order.paid"), {
      callback: (_error, message) => {
        const checkoutId = message.json<{ data: { payload: { checkout_id: string } } }>().data.payload.checkout_id;
        const started = confirmedAt.get(checkoutId);
        if (started !== undefined) paidAfter.set(checkoutId, performance.now() - started);
        waiting.get(checkoutId)?.();
      },
    });

    /** One buyer from creating the checkout to its order.paid on the bus; the confirm → paid time. */
    let bought = 0;
    const purchase = async (): Promise<number> => {
      const index = bought++;
      const checkout = await call<{ id: string; client_secret: string }>("/v1/checkouts/", seller, { products: [product.id] });
      const paid = new Promise<void>((resolve) => waiting.set(checkout.id, resolve));
      const token = await call<{ id: string }>("/v1/sandbox/confirmation-tokens", buyer, { card_number: "4242424242424242", exp_month: 12, exp_year: nextYear, cvc: "123" });
      confirmedAt.set(checkout.id, performance.now());
      await call(`/v1/checkouts/client/${checkout.client_secret}/confirm`, buyer, {
        customer_email: `buyer${index}@example.com`,
        customer_billing_address: { country: "US", state: "NY", postal_code: "10001" },
        confirmation_token_id: token.id,
      });
      await paid;
      waiting.delete(checkout.id);
      return paidAfter.get(checkout.id) ?? 0;
    };

    progress(`throughput: ${CHECKOUTS} checkouts, ${CONCURRENCY} buyers at a time`);
    // Statements are what bounds the rate (see bench/README.md), so the bench counts them.
    let statements = 0;
    const countStatement = () => void statements++;
    db.on("query", countStatement);
    const saturated: number[] = [];
    const started = performance.now();
    let begun = 0;
    const progressTimer = setInterval(() => progress(`${saturated.length} of ${CHECKOUTS} paid`), 1_000);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (begun++ < CHECKOUTS) saturated.push(await purchase());
      }),
    );
    clearInterval(progressTimer);
    db.off("query", countStatement);
    const seconds = (performance.now() - started) / 1000;
    const rate = CHECKOUTS / seconds;

    // The burst leaves work behind (each new customer's state, announced once its changes settle);
    // the steady phase starts once that is done, so it measures the steady rate alone.
    progress("waiting for the work the burst left behind to settle");
    const backlog = async () => {
      const [states, unpublished] = await Promise.all([db("customer_state_changes").count<{ count: string }[]>({ count: "*" }), db("outbox").whereNull("published_at").count<{ count: string }[]>({ count: "*" })]);
      return Number(states[0]?.count ?? 0) + Number(unpublished[0]?.count ?? 0);
    };
    while ((await backlog()) > 0) await new Promise((resolve) => setTimeout(resolve, 250));

    progress(`latency: ${STEADY_RATE} checkouts/s for ${STEADY_SECONDS} s`);
    const steadyStarted = performance.now();
    const steady = await Promise.all(
      Array.from({ length: STEADY_RATE * STEADY_SECONDS }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, steadyStarted + (index * 1000) / STEADY_RATE - performance.now()));
        return purchase();
      }),
    );
    subscription.unsubscribe();

    const underLoad = summary(saturated);
    const atSteadyRate = summary(steady);
    console.log("\ncheckouts, one billing process, sandbox card 4242 (create → token → confirm → order.paid on the bus)");
    console.log(`  complete checkouts            ${formatRate(rate)}  (${CHECKOUTS} in ${seconds.toFixed(1)} s, ${CONCURRENCY} buyers at a time)`);
    console.log(`  SQL statements per checkout   ${(statements / CHECKOUTS).toFixed(1)} (knex's query events, in the billing process)`);
    console.log(`  confirm → order.paid, saturated     p50 ${formatMs(underLoad.p50)}, p99 ${formatMs(underLoad.p99)}, max ${formatMs(underLoad.max)}`);
    console.log(`  confirm → order.paid at ${STEADY_RATE}/s    p50 ${formatMs(atSteadyRate.p50)}, p99 ${formatMs(atSteadyRate.p99)}, max ${formatMs(atSteadyRate.max)} (${steady.length} checkouts)`);
    console.log(`  targets: ≥ ${TARGETS.rate}/s (${rate >= TARGETS.rate ? "met" : "missed"}), p99 ≤ ${TARGETS.p99Ms} ms at ${STEADY_RATE}/s (${atSteadyRate.p99 <= TARGETS.p99Ms ? "met" : "missed"})`);
  } finally {
    await bench.stop();
  }
}

await main();
