/**
 * `npm run bench:checkout` — complete checkouts per second through one billing process (create →
 * card token → confirm with the sandbox card → order paid), and how long after the confirm each
 * order.paid reached the bus. Prints figures; asserts nothing.
 *
 * Env: BENCH_CHECKOUTS (default 1000), BENCH_CONCURRENCY (buyers at once, default 32), and the usual
 * DATABASE_URL, NATS_URL, REDIS_URL.
 */
import { billingService } from "@tollgate/billing";
import { envInteger, formatMs, formatRate, percentile, progress, startBenchService } from "../support.js";

const CHECKOUTS = envInteger("BENCH_CHECKOUTS", 1_000);
const CONCURRENCY = envInteger("BENCH_CONCURRENCY", 32);
const TARGETS = { rate: 100, p99Ms: 250 };
const nextYear = new Date().getUTCFullYear() + 1;

async function main(): Promise<void> {
  const bench = await startBenchService("checkout", billingService);
  const billing = bench.service;
  const { db, bus } = billing.context;
  const counts = new Map<string, number>();
  db.on("query", (q: { sql: string }) => { const k = q.sql.replace(/\$\d+/g, "?").replace(/\(\?(, \?)*\)/g, "(…)").slice(0, 160); counts.set(k, (counts.get(k) ?? 0) + 1); });
  process.on("exit", () => { const total = [...counts.values()].reduce((a, b) => a + b, 0); console.log("TOTAL", total, total / CHECKOUTS); for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log((v / CHECKOUTS).toFixed(2), k); });
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

    // order.paid as it reaches the bus, matched to the confirm by checkout id.
    const confirmedAt = new Map<string, number>();
    const latencies: number[] = [];
    let paid = 0;
    let allPaid: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allPaid = resolve));
    const subscription = bus.nc.subscribe(bus.names.eventSubject("billing.order.paid"), {
      callback: (_error, message) => {
        const checkoutId = message.json<{ data: { payload: { checkout_id: string } } }>().data.payload.checkout_id;
        const started = confirmedAt.get(checkoutId);
        if (started !== undefined) latencies.push(performance.now() - started);
        if (++paid === CHECKOUTS) allPaid();
      },
    });

    const purchase = async (index: number) => {
      const checkout = await call<{ id: string; client_secret: string }>("/v1/checkouts/", seller, { products: [product.id] });
      const token = await call<{ id: string }>("/v1/sandbox/confirmation-tokens", buyer, { card_number: "4242424242424242", exp_month: 12, exp_year: nextYear, cvc: "123" });
      confirmedAt.set(checkout.id, performance.now());
      await call(`/v1/checkouts/client/${checkout.client_secret}/confirm`, buyer, {
        customer_email: `buyer${index}@example.com`,
        customer_billing_address: { country: "US", state: "NY", postal_code: "10001" },
        confirmation_token_id: token.id,
      });
    };

    progress(`${CHECKOUTS} checkouts, ${CONCURRENCY} buyers at a time`);
    const started = performance.now();
    let next = 0;
    const progressTimer = setInterval(() => progress(`${paid} of ${CHECKOUTS} paid`), 1_000);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CHECKOUTS) await purchase(next++);
      }),
    );
    await done;
    clearInterval(progressTimer);
    const seconds = (performance.now() - started) / 1000;
    subscription.unsubscribe();

    const sorted = latencies.sort((a, b) => a - b);
    const rate = CHECKOUTS / seconds;
    const p99 = percentile(sorted, 0.99);
    console.log("\ncheckouts, one billing process, sandbox card 4242 (create → token → confirm → order.paid on the bus)");
    console.log(`  complete checkouts   ${formatRate(rate)}  (${CHECKOUTS} in ${seconds.toFixed(1)} s, ${CONCURRENCY} buyers at a time)`);
    console.log(`  confirm → order.paid p50 ${formatMs(percentile(sorted, 0.5))}, p99 ${formatMs(p99)}, max ${formatMs(sorted.at(-1) ?? 0)}`);
    console.log(`  targets: ≥ ${TARGETS.rate}/s (${rate >= TARGETS.rate ? "met" : "missed"}), p99 ≤ ${TARGETS.p99Ms} ms (${p99 <= TARGETS.p99Ms ? "met" : "missed"})`);
  } finally {
    await bench.stop();
  }
}

await main();
