/**
 * `npm run bench:checkout` — complete checkouts through one billing process (create → card token →
 * confirm with card 4242 → order paid), once with the sandbox processor and once with Stripe (the
 * tests' local Stripe, through the official SDK, its webhooks included), each in two phases:
 *   1. throughput: as many buyers at once as BENCH_CONCURRENCY, as fast as they can go;
 *   2. latency: a new buyer every 1/BENCH_STEADY_RATE s for BENCH_STEADY_SECONDS, and how long after
 *      each confirm its order.paid reached the bus. Under saturation (phase 1) that time is mostly
 *      the queue, so it is printed too but the latency figure is the steady one, as in bench/webhooks;
 *      it starts once the work phase 1 left behind is done.
 * Billing runs as `npm start` runs it, in a process of its own (NODE_ENV=production); the buyers,
 * the listener on the bus and the local Stripe are this process. Prints figures and where the CPU
 * went, and the Stripe run's rate beside the sandbox's (target: at least 0.8 of it); asserts nothing.
 *
 * Env: BENCH_WARMUP (checkouts made first and not measured, while V8 compiles the hot paths; default
 * 300), BENCH_CHECKOUTS (default 2000), BENCH_CONCURRENCY (default 32), BENCH_STEADY_RATE (checkouts/s,
 * default 20), BENCH_STEADY_SECONDS (default 15), BENCH_PROCESSORS (default "sandbox,stripe"),
 * BENCH_CPU_PROF (a directory: billing's V8 CPU profile goes there), and the usual DATABASE_URL,
 * NATS_URL, REDIS_URL.
 */
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { cpuUse, snapshot, type CpuGroups, type CpuUse } from "../cpu.js";
import { envInteger, formatMs, formatRate, isDisturbed, latencySummary, progress, openBenchRun, removeBenchRun, startBillingAlone } from "../support.js";
import { startBenchStripe, type BenchStripe } from "./stripe.js";

const WARMUP = envInteger("BENCH_WARMUP", 300);
const CHECKOUTS = envInteger("BENCH_CHECKOUTS", 2_000);
const CONCURRENCY = envInteger("BENCH_CONCURRENCY", 32);
const STEADY_RATE = envInteger("BENCH_STEADY_RATE", 20);
const STEADY_SECONDS = envInteger("BENCH_STEADY_SECONDS", 15);
const CPU_PROFILES = process.env.BENCH_CPU_PROF;
const TARGETS = { rate: 100, p99Ms: 250, stripeShare: 0.8 };
const PROCESSORS = (process.env.BENCH_PROCESSORS ?? "sandbox,stripe").split(",").map((name) => name.trim()) as Processor[];

type Processor = "sandbox" | "stripe";
const nextYear = new Date().getUTCFullYear() + 1;

/** Milliseconds of CPU per checkout for each group, from a measurement's share of a core. */
function cpuPerCheckout(cpu: CpuUse, rate: number): string {
  return Object.entries(cpu.cores)
    .filter(([, cores]) => cores >= 0.005)
    .map(([group, cores]) => `${group} ${((cores * 1000) / rate).toFixed(1)} ms (${Math.round(cores * 100)} % of a core)`)
    .join(", ");
}

/** One processor's run, on a database and billing process of its own; its throughput rate. */
async function measure(processor: Processor): Promise<number> {
  const run = await openBenchRun(`checkout_${processor}`);
  const { id, database, admin, db, bus, processes } = run;
  const stripe: BenchStripe | null = processor === "stripe" ? await startBenchStripe() : null;
  try {
    const { url: billingUrl, as } = await startBillingAlone(run, {
      env: stripe?.env,
      nodeArgs: CPU_PROFILES ? ["--cpu-prof", `--cpu-prof-dir=${resolve(CPU_PROFILES, `${id}-billing`)}`] : [],
    });

    // The seller, as the organization service's events would have made it.
    const organizationId = `org_${id}`;
    await db("organizations").insert({ id: organizationId, name: "Bench shop", slug: `bench-${id}` });
    const seller = as({ kind: "organization_token", token_id: "oat_bench", organization_id: organizationId, scopes: ["products:write", "checkouts:write", "checkouts:read"] });
    const buyer = as({ kind: "anonymous" });
    stripe?.sendWebhooksTo(billingUrl, () => buyer()[IDENTITY_HEADER]!);
    // node:http on kept-alive connections rather than fetch, whose own CPU per request is several
    // times larger: the buyers share the machine with what they measure.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const call = <Result>(path: string, headers: () => Record<string, string>, body: unknown): Promise<Result> =>
      new Promise((done, fail) => {
        const sent = request(`${billingUrl}${path}`, { method: "POST", headers: headers(), agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            if ((response.statusCode ?? 0) >= 300) fail(new Error(`${path} answered ${response.statusCode}: ${text}`));
            else done(JSON.parse(text) as Result);
          });
          response.on("error", fail);
        });
        sent.on("error", fail);
        sent.end(JSON.stringify(body));
      });
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
      const paid = new Promise<void>((done) => waiting.set(checkout.id, done));
      const token = stripe ? await stripe.confirmationToken() : (await call<{ id: string }>("/v1/sandbox/confirmation-tokens", buyer, { card_number: "4242424242424242", exp_month: 12, exp_year: nextYear, cvc: "123" })).id;
      confirmedAt.set(checkout.id, performance.now());
      await call(`/v1/checkouts/client/${checkout.client_secret}/confirm`, buyer, {
        customer_email: `buyer${index}@example.com`,
        customer_billing_address: { country: "US", state: "NY", postal_code: "10001" },
        confirmation_token_id: token,
      });
      await paid;
      waiting.delete(checkout.id);
      return paidAfter.get(checkout.id) ?? 0;
    };

    // Where the cores go: billing, the database's backends and Postgres's own processes, NATS, and
    // this process (the buyers and the listener).
    const groups = async (): Promise<CpuGroups> => {
      const backends = await admin.select<{ pid: number }[]>("pid").from("pg_stat_activity").where((where) => void where.where("datname", database).orWhereNull("datname"));
      const nats = (await snapshot())?.byPid ?? new Map<number, { name: string }>();
      return {
        billing: [processes.pid("billing") ?? NaN],
        postgres: backends.map((backend) => backend.pid),
        nats: [...nats].filter(([, running]) => running.name === "nats-server").map(([pid]) => pid),
        [stripe ? "bench (buyers, Stripe)" : "bench (buyers)"]: [process.pid],
      };
    };

    /** `count` checkouts by CONCURRENCY buyers at once; each one's confirm → paid time. */
    const burst = async (count: number): Promise<number[]> => {
      const latencies: number[] = [];
      let begun = 0;
      const timer = setInterval(() => progress(`${latencies.length} of ${count} paid`), 1_000);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (begun++ < count) latencies.push(await purchase());
        }),
      );
      clearInterval(timer);
      return latencies;
    };
    progress(`warm-up: ${WARMUP} checkouts`);
    await burst(WARMUP);

    progress(`throughput: ${CHECKOUTS} checkouts, ${CONCURRENCY} buyers at a time`);
    const before = await snapshot();
    const started = performance.now();
    const saturated = await burst(CHECKOUTS);
    const seconds = (performance.now() - started) / 1000;
    const cpu = await cpuUse(before, await snapshot(), await groups());
    const rate = CHECKOUTS / seconds;

    // The burst leaves work behind (each new customer's state, announced once its changes settle);
    // the steady phase starts once that is done, so it measures the steady rate alone.
    progress("waiting for the work the burst left behind to settle");
    const backlog = async () => {
      const [states, unpublished] = await Promise.all([db("customer_state_changes").count<{ count: string }[]>({ count: "*" }), db("outbox").whereNull("published_at").count<{ count: string }[]>({ count: "*" })]);
      return Number(states[0]?.count ?? 0) + Number(unpublished[0]?.count ?? 0);
    };
    while ((await backlog()) > 0) await new Promise((done) => setTimeout(done, 250));

    progress(`latency: ${STEADY_RATE} checkouts/s for ${STEADY_SECONDS} s`);
    const steadyStarted = performance.now();
    const steady = await Promise.all(
      Array.from({ length: STEADY_RATE * STEADY_SECONDS }, async (_, index) => {
        await new Promise((done) => setTimeout(done, steadyStarted + (index * 1000) / STEADY_RATE - performance.now()));
        return purchase();
      }),
    );
    subscription.unsubscribe();
    agent.destroy();

    const underLoad = latencySummary(saturated);
    const atSteadyRate = latencySummary(steady);
    console.log(`\ncheckouts, one billing process, ${processor === "stripe" ? "Stripe (local, official SDK, webhooks)" : "sandbox"} card 4242 (create → token → confirm → order.paid on the bus)`);
    console.log(`  complete checkouts            ${formatRate(rate)}  (${CHECKOUTS} in ${seconds.toFixed(1)} s, ${CONCURRENCY} buyers at a time)`);
    if (cpu) {
      console.log(`  CPU per checkout              ${cpuPerCheckout(cpu, rate)}; the machine ${Math.round((cpu.machineCores / availableParallelism()) * 100)} % busy`);
      for (const other of cpu.others) console.log(`  also running                  ${other.command} (pid ${other.pid}): ${Math.round(other.cores * 100)} % of a core`);
    }
    // CPU that none of the measured processes used took cores the checkouts could have had.
    const disturbed = isDisturbed(cpu);
    console.log(`  confirm → order.paid, saturated     p50 ${formatMs(underLoad.p50)}, p99 ${formatMs(underLoad.p99)}, max ${formatMs(underLoad.max)}`);
    console.log(`  confirm → order.paid at ${STEADY_RATE}/s    p50 ${formatMs(atSteadyRate.p50)}, p99 ${formatMs(atSteadyRate.p99)}, max ${formatMs(atSteadyRate.max)} (${steady.length} checkouts)`);
    if (stripe) console.log(`  Stripe's webhooks              ${stripe.webhookAnswers()}`);
    console.log(`  targets: ≥ ${TARGETS.rate}/s (${rate >= TARGETS.rate ? "met" : "missed"}${disturbed ? ", disturbed: see 'other' above" : ""}), p99 ≤ ${TARGETS.p99Ms} ms at ${STEADY_RATE}/s (${atSteadyRate.p99 <= TARGETS.p99Ms ? "met" : "missed"})`);
    return rate;
  } finally {
    await removeBenchRun(run);
    await stripe?.stop();
  }
}

const rates = new Map<Processor, number>();
for (const processor of PROCESSORS) rates.set(processor, await measure(processor));
const [sandboxRate, stripeRate] = [rates.get("sandbox"), rates.get("stripe")];
if (sandboxRate && stripeRate) {
  const share = stripeRate / sandboxRate;
  console.log(`\nStripe beside the sandbox: ${formatRate(stripeRate)} against ${formatRate(sandboxRate)}, ${share.toFixed(2)} of its rate (target ≥ ${TARGETS.stripeShare}: ${share >= TARGETS.stripeShare ? "met" : "missed"})`);
}
