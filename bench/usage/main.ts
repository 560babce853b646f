/**
 * `npm run bench:usage` — usage billing through the gateway, in three measurements:
 *   1. ingestion: batches of 1,000 events (POST /v1/events/ingest) from BENCH_SENDERS senders at once
 *      for BENCH_SECONDS, each batch's time and the events per second sustained;
 *   2. customer meter lag, meanwhile: every half second one batch carries an event for a probe
 *      customer, and the probe's customer meter is read until it counts it (from the batch's sending);
 *   3. quantities: a second seller's meter over BENCH_YEAR_EVENTS events spread over a year, daily
 *      buckets for the year (UTC and Asia/Kolkata), BENCH_QUANTITY_CALLS calls each.
 * The year's events are measured in this process by billing's own measure() (the code ingestion
 * runs), straight into the rollups, without storing the events themselves: quantities never read
 * events, and sending 10 M through HTTP would take the machine longer than the bench should.
 * Billing and the gateway run in processes of their own (NODE_ENV=production). Prints figures; asserts nothing.
 *
 * Env: BENCH_SECONDS (60), BENCH_SENDERS (6), BENCH_CUSTOMERS (200), BENCH_YEAR_EVENTS (10,000,000), BENCH_YEAR_CUSTOMERS (20),
 * BENCH_QUANTITY_CALLS (100), and the usual DATABASE_URL, NATS_URL, REDIS_URL.
 */
import { Agent, request } from "node:http";
import { insertAccessToken } from "../../services/billing/src/access-tokens/access-tokens.sql.js";
import { measure } from "../../services/billing/src/usage-events/measurements.js";
import { metersOfOrganization } from "../../services/billing/src/meters/meters.sql.js";
import { unmeasuredCount } from "../../services/billing/src/usage-events/usage-events.sql.js";
import type { MeasuredEvent } from "../../services/billing/src/meters/rollups.js";
import { cpuUse, snapshot } from "../cpu.js";
import { cpuLines, envInteger, formatMs, formatRate, latencySummary, openBenchRun, progress, removeBenchRun, startBillingBehindGateway } from "../support.js";

const SECONDS = envInteger("BENCH_SECONDS", 60);
const SENDERS = envInteger("BENCH_SENDERS", 6);
const CUSTOMERS = envInteger("BENCH_CUSTOMERS", 200);
const YEAR_CUSTOMERS = envInteger("BENCH_YEAR_CUSTOMERS", 20);
const YEAR_EVENTS = envInteger("BENCH_YEAR_EVENTS", 10_000_000);
const QUANTITY_CALLS = envInteger("BENCH_QUANTITY_CALLS", 100);
const BATCH = 1_000;
const TARGETS = { eventsPerSecond: 25_000, batchP99Ms: 250, quantitiesP99Ms: 100, lagP99Ms: 1_000 };

const line = (label: string, values: number[]) => {
  const { p50, p99, max } = latencySummary(values);
  return `${label.padEnd(34)}p50 ${formatMs(p50)}, p99 ${formatMs(p99)}, max ${formatMs(max)} (${values.length})`;
};

/** A year of events for the customers, in time order, `size` at a time: each chunk a slice of the year. */
function* yearOfEvents(customerIds: string[], total: number, size: number): Generator<MeasuredEvent[]> {
  const start = Date.UTC(new Date().getUTCFullYear() - 1, 0, 1);
  const step = (365 * 86_400_000) / total;
  for (let first = 0; first < total; first += size) {
    const chunk: MeasuredEvent[] = [];
    for (let index = first; index < Math.min(total, first + size); index++) {
      chunk.push({
        name: "api.call",
        source: "user",
        timestamp: new Date(start + index * step),
        customer_id: customerIds[index % customerIds.length] ?? null,
        external_customer_id: null,
        metadata: { tokens: (index % 97) + 1 },
      });
    }
    yield chunk;
  }
}

async function main(): Promise<void> {
  // Four connections: the year's events are measured in this process.
  const run = await openBenchRun("usage", { poolMax: 4 });
  const { id, database, admin, db, processes } = run;
  try {
    const gateway = await startBillingBehindGateway(run);

    const agent = new Agent({ keepAlive: true, maxSockets: SENDERS + 4 });
    const sellerOf = async (name: string, customerCount: number) => {
      const organizationId = `org_${name}_${id}`;
      await db("organizations").insert({ id: organizationId, name, slug: `${name}-${id}` });
      const { token } = await insertAccessToken(db, { organization_id: organizationId, comment: "bench", scopes: ["meters:write", "events:write", "customers:write", "customer_meters:read"], expires_at: null });
      const call = <Result>(method: string, path: string, body?: unknown): Promise<Result> =>
        new Promise((done, fail) => {
          const sent = request(`${gateway}${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, agent }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => {
              const text = Buffer.concat(chunks).toString();
              if ((response.statusCode ?? 0) >= 300) fail(new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 500)}`));
              else done(JSON.parse(text) as Result);
            });
            response.on("error", fail);
          });
          sent.on("error", fail);
          sent.end(body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body));
        });
      const customers: string[] = [];
      for (let index = 0; index < customerCount; index++) customers.push((await call<{ id: string }>("POST", "/v1/customers/", { email: `c${index}@${name}.example.com` })).id);
      const meter = (body: unknown) => call<{ id: string }>("POST", "/v1/meters/", body);
      const filter = { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api.call" }] };
      const counted = await meter({ name: "Calls", filter, aggregation: { func: "count" } });
      const tokens = await meter({ name: "Tokens", filter, aggregation: { func: "sum", property: "tokens" } });
      return { organizationId, call, customers, counted, tokens };
    };

    progress(`seller with ${CUSTOMERS} customers and two meters (count, sum)`);
    const live = await sellerOf("live", CUSTOMERS);
    const probe = live.customers[0] ?? "";
    const batchOf = (seed: number, withProbe: boolean) =>
      JSON.stringify({
        events: Array.from({ length: BATCH }, (_, index) => ({
          name: index % 10 === 9 ? "page.view" : "api.call",
          customer_id: withProbe && index === 0 ? probe : (live.customers[1 + ((seed * BATCH + index) % (live.customers.length - 1))] ?? probe),
          metadata: { tokens: (index % 50) + 1, model: index % 3 === 0 ? "large" : "small" },
        })),
      });
    // Bodies made once: the senders share the machine with what they measure.
    const bodies = Array.from({ length: 16 }, (_, seed) => batchOf(seed, false));
    const probeBody = batchOf(99, true);

    const batches: number[] = [];
    const lags: number[] = [];
    let events = 0;
    let sending = true;
    const sender = async (index: number) => {
      let round = index;
      while (sending) {
        const started = performance.now();
        await live.call("POST", "/v1/events/ingest", bodies[round++ % bodies.length]);
        batches.push(performance.now() - started);
        events += BATCH;
      }
    };
    // The probe customer's count, as a seller reads it; the batch with its event counts it once.
    const probed = async () => {
      const page = await live.call<{ items: { consumed_units: number }[] }>("GET", `/v1/customer-meters/?customer_id=${probe}&meter_id=${live.counted.id}`);
      return page.items[0]?.consumed_units ?? 0;
    };
    const prober = async () => {
      let expected = await probed();
      while (sending) {
        const started = performance.now();
        expected += 1;
        await live.call("POST", "/v1/events/ingest", probeBody);
        while ((await probed()) < expected) await new Promise((done) => setTimeout(done, 5));
        lags.push(performance.now() - started);
        await new Promise((done) => setTimeout(done, 500));
      }
    };

    progress("warm-up: 5 s of ingestion");
    const warm = [...Array.from({ length: SENDERS }, (_, index) => sender(index))];
    await new Promise((done) => setTimeout(done, 5_000));
    sending = false;
    await Promise.all(warm);
    batches.length = 0;
    events = 0;

    progress(`ingestion: ${SENDERS} senders, batches of ${BATCH}, for ${SECONDS} s`);
    sending = true;
    const before = await snapshot();
    const began = performance.now();
    const senders = Array.from({ length: SENDERS }, (_, index) => sender(index));
    const probing = prober();
    const ticker = setInterval(() => progress(`${events.toLocaleString("en-US")} events`), 5_000);
    await new Promise((done) => setTimeout(done, SECONDS * 1_000));
    sending = false;
    await Promise.all(senders);
    clearInterval(ticker);
    const elapsed = (performance.now() - began) / 1_000;
    const backends = await admin.select<{ pid: number }[]>("pid").from("pg_stat_activity").where((where) => void where.where("datname", database).orWhereNull("datname"));
    const cpu = await cpuUse(before, await snapshot(), {
      billing: [processes.pid("billing") ?? NaN],
      gateway: [processes.pid("gateway") ?? NaN],
      postgres: backends.map((backend) => backend.pid),
      "bench (senders)": [process.pid],
    });
    const rate = events / elapsed;
    const waiting = await unmeasuredCount(db);
    const caughtUp = performance.now();
    while ((await unmeasuredCount(db)) > 0) await new Promise((done) => setTimeout(done, 50));
    const catchUpMs = performance.now() - caughtUp;
    await probing;

    progress(`a year of ${YEAR_EVENTS.toLocaleString("en-US")} events for a second seller, measured straight into the rollups`);
    const year = await sellerOf("year", YEAR_CUSTOMERS);
    const definitions = await metersOfOrganization(db, year.organizationId);
    let measured = 0;
    for (const chunk of yearOfEvents(year.customers, YEAR_EVENTS, 50_000)) {
      await db.transaction((trx) => measure(trx, year.organizationId, chunk, definitions));
      measured += chunk.length;
      if (measured % 1_000_000 === 0) progress(`${measured.toLocaleString("en-US")} events measured`);
    }
    await db.raw("analyze meter_rollups");
    const [rollups] = await db("meter_rollups").whereIn("meter_id", [year.counted.id]).count<{ count: string }[]>({ count: "*" });

    const yearStart = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 1)).toISOString();
    const yearEnd = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 11, 31)).toISOString();
    const quantities = async (meterId: string, query: string) => {
      const times: number[] = [];
      let total = 0;
      for (let call = 0; call < QUANTITY_CALLS; call++) {
        const started = performance.now();
        total = (await year.call<{ total: number }>("GET", `/v1/meters/${meterId}/quantities?start_timestamp=${encodeURIComponent(yearStart)}&end_timestamp=${encodeURIComponent(yearEnd)}&interval=day&${query}`)).total;
        times.push(performance.now() - started);
      }
      return { times, total };
    };
    progress(`quantities: ${QUANTITY_CALLS} calls each`);
    const utc = await quantities(year.counted.id, "timezone=UTC");
    const kolkata = await quantities(year.tokens.id, "timezone=Asia%2FKolkata");
    const oneCustomer = await quantities(year.counted.id, `timezone=UTC&customer_id=${year.customers[0]}`);
    agent.destroy();

    const batch = latencySummary(batches);
    const lag = latencySummary(lags);
    const quantityP99 = Math.max(latencySummary(utc.times).p99, latencySummary(kolkata.times).p99);
    console.log(`\nusage billing through the gateway, one billing process, one gateway (${SENDERS} senders, batches of ${BATCH}, ${CUSTOMERS} customers, 2 meters)`);
    console.log(`  events ingested                   ${formatRate(rate)}  (${events.toLocaleString("en-US")} in ${elapsed.toFixed(1)} s)`);
    console.log(`  ${line("batch of 1,000, send → 200", batches)}`);
    console.log(`  ${line("customer meter lag, send → read", lags)}`);
    console.log(`  ${"waiting to be measured at the end".padEnd(34)}${waiting.toLocaleString("en-US")} events, all measured ${formatMs(catchUpMs)} later`);
    for (const cpuLine of cpuLines(cpu, (what) => `  ${what.padEnd(34)}`)) console.log(cpuLine);
    console.log(`  year: ${YEAR_EVENTS.toLocaleString("en-US")} events, ${year.customers.length} customers; the count meter's rollup rows: ${Number(rollups?.count ?? 0).toLocaleString("en-US")}`);
    console.log(`  ${line("quantities, daily, year, UTC", utc.times)}  total ${utc.total}`);
    console.log(`  ${line("quantities, daily, year, Kolkata", kolkata.times)}  total ${kolkata.total}`);
    console.log(`  ${line("quantities, one customer, UTC", oneCustomer.times)}  total ${oneCustomer.total}`);
    const verdict = (met: boolean) => (met ? "met" : "missed");
    console.log(
      `  targets: ≥ ${formatRate(TARGETS.eventsPerSecond)} (${verdict(rate >= TARGETS.eventsPerSecond)}), batch p99 ≤ ${TARGETS.batchP99Ms} ms (${verdict(batch.p99 <= TARGETS.batchP99Ms)}), ` +
        `quantities p99 ≤ ${TARGETS.quantitiesP99Ms} ms (${verdict(quantityP99 <= TARGETS.quantitiesP99Ms)}), lag p99 ≤ ${TARGETS.lagP99Ms} ms (${verdict(lag.p99 <= TARGETS.lagP99Ms)})`,
    );
  } finally {
    await removeBenchRun(run);
  }
}

await main();
