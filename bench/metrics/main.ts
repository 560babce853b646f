/**
 * `npm run bench:metrics` — the seller dashboard's query: `GET /v1/metrics/` for a year of daily
 * buckets, every metric, through the gateway, for a seller with a million orders.
 *
 * Billing and the gateway run as `npm start` runs them, each in a process of its own
 * (NODE_ENV=production). The seller's year is seeded in SQL (`insert … select generate_series`):
 * BENCH_ORDERS orders (default 1,000,000; one in six for a subscription, one in fifty partly
 * refunded), BENCH_SUBSCRIPTIONS subscriptions (default 10,000; a fifth of them canceled) and
 * checkouts for the orders plus a fifth that never paid. Then BENCH_REQUESTS requests (default 300,
 * after 20 not measured) are sent one after another with an organization access token; the bench
 * prints p50/p99/max and where the CPU went, and asserts nothing.
 */
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import type { Knex } from "@tollgate/kit";
import { insertAccessToken } from "../../services/billing/src/access-tokens/access-tokens.sql.js";
import { cpuUse, snapshot } from "../cpu.js";
import { cpuLines, envInteger, formatMs, latencySummary, progress, openBenchRun, removeBenchRun, startBillingBehindGateway } from "../support.js";

const ORDERS = envInteger("BENCH_ORDERS", 1_000_000);
const SUBSCRIPTIONS = envInteger("BENCH_SUBSCRIPTIONS", 10_000);
const REQUESTS = envInteger("BENCH_REQUESTS", 300);
const WARMUP = 20;
const CUSTOMERS = 50_000;
const TARGET_P99_MS = 100;
const TIMEZONE = "Europe/Paris";

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The seller's year: customers, subscriptions, orders and checkouts, spread evenly over the 366 days before now. */
async function seedYear(db: Knex, organizationId: string, products: { oneTime: Price; monthly: Price; yearly: Price }): Promise<void> {
  const year = { organization: organizationId, since: new Date(Date.now() - 366 * 86_400_000).toISOString(), seconds: 366 * 86_400 };
  progress(`seeding ${CUSTOMERS.toLocaleString("en-US")} customers and ${SUBSCRIPTIONS.toLocaleString("en-US")} subscriptions`);
  await db.raw(`insert into customers (id, organization_id, email) select 'cus_' || g, :organization, 'buyer' || g || '@example.com' from generate_series(1, ${CUSTOMERS}) g`, year);
  await db.raw(
    `insert into subscriptions (id, organization_id, customer_id, product_id, product_price_id, status, amount, currency, recurring_interval, recurring_interval_count,
       current_period_start, current_period_end, started_at, canceled_at, ends_at, customer_cancellation_reason)
     select 'sub_' || g, :organization, 'cus_' || (g % ${CUSTOMERS} + 1), plan.product, plan.price, 'active', plan.amount, 'usd', plan.every, 1,
       started, started + ('1 ' || plan.every)::interval, started,
       case when g % 5 = 0 then started + interval '40 days' end, case when g % 5 = 0 then started + interval '60 days' end,
       case when g % 5 = 0 then (array['too_expensive', 'unused', 'other', 'missing_features'])[g % 4 + 1] end
     from generate_series(1, ${SUBSCRIPTIONS}) g,
       lateral (select :since::timestamptz + (g * :seconds::float / ${SUBSCRIPTIONS}) * interval '1 second' as started) beginning,
       lateral (select * from (values (:monthlyProduct, :monthlyPrice, :monthlyAmount::int, 'month'), (:yearlyProduct, :yearlyPrice, :yearlyAmount::int, 'year')) p(product, price, amount, every) offset g % 2 limit 1) plan`,
    { ...year, monthlyProduct: products.monthly.productId, monthlyPrice: products.monthly.priceId, monthlyAmount: products.monthly.amount, yearlyProduct: products.yearly.productId, yearlyPrice: products.yearly.priceId, yearlyAmount: products.yearly.amount },
  );
  progress(`seeding ${ORDERS.toLocaleString("en-US")} orders (the rollup triggers run once for the statement)`);
  await db.raw(
    `insert into orders (id, organization_id, customer_id, product_id, subscription_id, status, billing_reason, subtotal_amount, discount_amount, tax_amount, refunded_amount, currency, invoice_number, created_at)
     select 'ord_' || g, :organization, 'cus_' || (g % ${CUSTOMERS} + 1),
       case when g % 6 = 0 then (case when g % 12 = 0 then :yearlyProduct else :monthlyProduct end) else :oneTimeProduct end,
       case when g % 6 = 0 then 'sub_' || (g / 6 % ${SUBSCRIPTIONS} + 1) end,
       case when g % 50 = 0 then 'partially_refunded' else 'paid' end,
       case when g % 6 <> 0 then 'purchase' when g % 60 = 0 then 'subscription_create' else 'subscription_cycle' end,
       1900 + (g % 7) * 100, (g % 4) * 50, 0, case when g % 50 = 0 then 500 else 0 end, 'usd', 'INV-' || g,
       :since::timestamptz + (g * :seconds::float / ${ORDERS}) * interval '1 second'
     from generate_series(1, ${ORDERS}) g`,
    { ...year, oneTimeProduct: products.oneTime.productId, monthlyProduct: products.monthly.productId, yearlyProduct: products.yearly.productId },
  );
  const checkouts = Math.round(ORDERS * 1.2);
  progress(`seeding ${checkouts.toLocaleString("en-US")} checkouts`);
  await db.raw(
    `insert into checkouts (id, organization_id, client_secret, status, product_ids, product_id, product_price_id, amount, currency,
       allow_discount_codes, require_billing_address, allow_trial, is_business_customer, expires_at, created_at)
     select 'co_' || g, :organization, 'polar_c_bench_' || g, case when g % 6 = 0 then 'expired' else 'succeeded' end,
       array[:oneTimeProduct], :oneTimeProduct, :oneTimePrice, 1900, 'usd', true, false, true, false, at + interval '1 day', at
     from generate_series(1, ${checkouts}) g, lateral (select :since::timestamptz + (g * :seconds::float / ${checkouts}) * interval '1 second' as at) moment`,
    { ...year, oneTimeProduct: products.oneTime.productId, oneTimePrice: products.oneTime.priceId },
  );
  // What autovacuum does soon after such a load: statistics, and the visibility map for index-only scans.
  progress("vacuum analyze");
  for (const table of ["customers", "subscriptions", "orders", "order_hours", "checkouts", "checkout_hours"]) await db.raw("vacuum analyze ??", [table]);
}

interface Price {
  productId: string;
  priceId: string;
  amount: number;
}

async function main(): Promise<void> {
  const run = await openBenchRun("metrics");
  const { id, database, admin, db, processes } = run;
  try {
    const gateway = await startBillingBehindGateway(run);

    // The seller, as the organization service's events would have made it, and a token as a seller makes one.
    const organizationId = `org_${id}`;
    await db("organizations").insert({ id: organizationId, name: "Bench shop", slug: `bench-${id}` });
    const { token } = await insertAccessToken(db, { organization_id: organizationId, comment: "bench", scopes: ["products:write", "metrics:read"], expires_at: null });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, path: string, body?: unknown): Promise<unknown> =>
      new Promise((done, fail) => {
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
        const sent = request(`${gateway}${path}`, { method, headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            if ((response.statusCode ?? 0) >= 300) fail(new Error(`${method} ${path} answered ${response.statusCode}: ${text}`));
            else done(JSON.parse(text));
          });
          response.on("error", fail);
        });
        sent.on("error", fail);
        sent.end(body === undefined ? undefined : JSON.stringify(body));
      });
    const product = async (name: string, amount: number, every?: "month" | "year"): Promise<Price> => {
      const created = (await call("POST", "/v1/products/", { name, ...(every ? { recurring_interval: every } : {}), prices: [{ amount_type: "fixed", price_amount: amount, price_currency: "usd" }] })) as { id: string; prices: { id: string }[] };
      return { productId: created.id, priceId: created.prices[0]?.id ?? "", amount };
    };
    await seedYear(db, organizationId, { oneTime: await product("E-book", 1900), monthly: await product("Pro", 1000, "month"), yearly: await product("Pro yearly", 10_000, "year") });

    const path = `/v1/metrics/?start_date=${day(new Date(Date.now() - 365 * 86_400_000))}&end_date=${day(new Date())}&interval=day&timezone=${encodeURIComponent(TIMEZONE)}`;
    const first = (await call("GET", path)) as { periods: unknown[]; totals: { orders: number; revenue: number } };
    progress(`one answer: ${first.periods.length} daily periods, ${first.totals.orders.toLocaleString("en-US")} orders in the year, ${Math.round(JSON.stringify(first).length / 1024)} kB of JSON`);
    for (let warm = 1; warm < WARMUP; warm++) await call("GET", path);

    progress(`measuring ${REQUESTS} requests, one after another`);
    const backends = await admin.select<{ pid: number }[]>("pid").from("pg_stat_activity").where((where) => void where.where("datname", database).orWhereNull("datname"));
    const before = await snapshot();
    const measuring = performance.now();
    const latencies: number[] = [];
    for (let sent = 0; sent < REQUESTS; sent++) {
      const started = performance.now();
      await call("GET", path);
      latencies.push(performance.now() - started);
    }
    const cpu = await cpuUse(before, await snapshot(), {
      billing: [processes.pid("billing") ?? NaN],
      gateway: [processes.pid("gateway") ?? NaN],
      postgres: backends.map((backend) => backend.pid),
      "bench (client)": [process.pid],
    });
    const seconds = (performance.now() - measuring) / 1000;
    agent.destroy();

    const measured = latencySummary(latencies);
    const label = (what: string) => `  ${what.padEnd(30)}`;
    console.log(`\nGET /v1/metrics/ through the gateway: a year of daily buckets (${first.periods.length}), every metric, ${TIMEZONE}`);
    console.log(`${label("seeded")}${ORDERS.toLocaleString("en-US")} orders, ${SUBSCRIPTIONS.toLocaleString("en-US")} subscriptions, ${Math.round(ORDERS * 1.2).toLocaleString("en-US")} checkouts, one seller`);
    console.log(`${label("latency")}p50 ${formatMs(measured.p50)}, p99 ${formatMs(measured.p99)}, max ${formatMs(measured.max)} (${REQUESTS} requests, one at a time, on ${availableParallelism()} cores)`);
    // What a request costs each process, whatever else the machine runs: on a quiet machine, about its latency.
    if (cpu) console.log(`${label("CPU per request")}${Object.entries(cpu.cores).filter(([group]) => group !== "other").map(([group, cores]) => `${group} ${formatMs((cores * seconds * 1000) / REQUESTS)}`).join(", ")}`);
    for (const line of cpuLines(cpu, label)) console.log(line);
    console.log(`${label("target")}p99 ≤ ${TARGET_P99_MS} ms (${measured.p99 <= TARGET_P99_MS ? "met" : "missed"})`);
  } finally {
    await removeBenchRun(run);
  }
}

await main();
