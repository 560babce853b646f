/**
 * `npm run bench:outbox` — events/s from commit to JetStream ack through the outbox relay, beside raw
 * JetStream publish/s from this process, on this machine. Prints figures; asserts nothing.
 *
 * Env: BENCH_EVENTS (default 20000), BENCH_PRODUCERS (live phase, default 4), DATABASE_URL (any
 * database on the server; a throwaway one is created beside it), NATS_URL.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import type { JetStreamClient } from "@nats-io/jetstream";
import { defineEvent } from "@tollgate/proto";
import { envInteger, formatRate, percentile, progress, withDatabase } from "../support.js";
import {
  connectBus,
  createDatabase,
  createLogger,
  ensureEventStream,
  Metrics,
  migrate,
  Outbox,
  OutboxRelay,
  type BusConnection,
  type Knex,
} from "@tollgate/kit";

const EVENTS = envInteger("BENCH_EVENTS", 20_000);
const PRODUCERS = envInteger("BENCH_PRODUCERS", 4);
const EVENTS_PER_LIVE_TRANSACTION = 10;
const WARM_UP_EVENTS = Math.min(EVENTS, 2_000);
/** The relay's default batch size; raw publishing keeps the same number of messages in flight. */
const BATCH = 500;
const SCHEMA = "bench";
const TARGET_RATIO = 0.5;
const TARGET_RATE = 5_000;
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

/** A typical billing event: a handful of ids, an amount, a few strings. */
const orderPaid = defineEvent(
  "bench.order_paid",
  z.object({
    order_id: z.uuid(),
    organization_id: z.uuid(),
    customer_id: z.uuid(),
    product_id: z.uuid(),
    product_name: z.string(),
    customer_email: z.string(),
    amount: z.number().int(),
    tax_amount: z.number().int(),
    currency: z.string(),
    billing_reason: z.string(),
    metadata: z.record(z.string(), z.string()),
  }),
);

function sampleOrder(): z.input<typeof orderPaid.data> {
  return {
    order_id: randomUUID(),
    organization_id: randomUUID(),
    customer_id: randomUUID(),
    product_id: randomUUID(),
    product_name: "Pro plan (monthly)",
    customer_email: "jane.doe@example.com",
    amount: 1_900,
    tax_amount: 380,
    currency: "usd",
    billing_reason: "subscription_cycle",
    metadata: { campaign: "spring", seats: "5" },
  };
}

interface Bench {
  db: Knex;
  bus: BusConnection;
  outbox: Outbox;
  databaseUrl: string;
}

// ---------------------------------------------------------------------------------------------
// Phases

/** Raw JetStream: the same subjects and bytes the relay sends, 500 in flight, fresh message ids. */
async function measureRaw(bench: Bench, n: number): Promise<{ rate: number; payloadBytes: number }> {
  const rows = await bench.db("outbox").orderBy("seq").limit(n).select<{ subject: string; payload: string }[]>(
    "subject",
    bench.db.raw("envelope::text as payload"),
  );
  const messages = rows.map((row) => ({ ...row, msgID: randomUUID() }));
  const started = performance.now();
  for (let from = 0; from < messages.length; from += BATCH) {
    stopIfInterrupted();
    await Promise.all(
      messages.slice(from, from + BATCH).map((m) => bench.bus.js.publish(m.subject, m.payload, { msgID: m.msgID })),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  await expectStreamHolds(bench, n, "raw publish");
  const bytes = messages.reduce((sum, m) => sum + Buffer.byteLength(m.payload), 0);
  return { rate: n / seconds, payloadBytes: Math.round(bytes / n) };
}

interface RelayResult {
  rate: number;
  seconds: number;
  batches: number;
  /** Milliseconds spent in each part of the relay's work, summed over the run. */
  profile: Record<string, number>;
}

/** Events already committed; the relay's own drain loop (woken by start) publishes them all. */
async function measureRelay(bench: Bench, n: number): Promise<RelayResult> {
  const probe = new PublishProbe(bench.bus);
  const queries = new QueryProfile(bench.db);
  const { relay, published } = createRelay(bench, probe.bus);
  const started = performance.now();
  try {
    await relay.start();
    await until(async () => (await published()) >= n, "the relay to publish every event");
  } finally {
    await relay.stop(); // lets the last batch's transaction commit
    queries.detach();
  }
  const elapsedMs = performance.now() - started;
  await expectStreamHolds(bench, n, "relay");
  const pending = await pendingCount(bench.db);
  if (pending !== 0) throw new Error(`relay left ${pending} events unpublished`);
  const profile = { ...queries.totals, "publish (until all acks)": probe.busyMs };
  const accounted = Object.values(profile).reduce((sum, ms) => sum + ms, 0);
  return {
    rate: n / (elapsedMs / 1000),
    seconds: elapsedMs / 1000,
    batches: queries.count("select pending"),
    profile: { ...profile, "begin, commit, pool, JS": elapsedMs - accounted },
  };
}

interface LiveResult {
  committedRate: number;
  relayedRate: number;
  lagMs: { p50: number; p99: number; max: number };
}

/** Producers commit small transactions while the relay runs; commit → ack per event. */
async function measureLive(bench: Bench, n: number): Promise<LiveResult> {
  const committedAt = new Map<string, number>();
  const probe = new PublishProbe(bench.bus);
  const { relay, published } = createRelay(bench, probe.bus);
  await relay.start();
  let producersMs: number;
  const started = performance.now();
  try {
    await inChunks(n, EVENTS_PER_LIVE_TRANSACTION, PRODUCERS, async (count) => {
      const ids = await commitEvents(bench, count);
      const now = performance.now();
      for (const id of ids) committedAt.set(id, now);
    });
    producersMs = performance.now() - started;
    await until(async () => (await published()) >= n, "the relay to catch up");
  } finally {
    await relay.stop();
  }
  const elapsedMs = performance.now() - started;
  await expectStreamHolds(bench, n, "live");
  const lags = [...committedAt].map(([id, committed]) => Math.max(0, (probe.ackedAt.get(id) ?? NaN) - committed));
  if (lags.some(Number.isNaN)) throw new Error("an event committed in the live phase was never acknowledged");
  lags.sort((a, b) => a - b);
  return {
    committedRate: n / (producersMs / 1000),
    relayedRate: n / (elapsedMs / 1000),
    lagMs: { p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags.at(-1) ?? 0 },
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers

function createRelay(bench: Bench, bus: BusConnection): { relay: OutboxRelay; published: () => Promise<number> } {
  const metrics = new Metrics("bench"); // a fresh registry: the relay registers its gauges in it
  const relay = new OutboxRelay({
    db: bench.db,
    databaseUrl: bench.databaseUrl,
    schema: SCHEMA,
    bus,
    logger: createLogger({ service: "bench-relay", level: "warn" }),
    metrics,
    pollIntervalMs: 1_000, // the services' default OUTBOX_POLL_MS
  });
  const published = async () => (await metrics.outboxPublished.get()).values[0]?.value ?? 0;
  return { relay, published };
}

/** Commits `count` events in one transaction, the way a service's state change would. */
async function commitEvents(bench: Bench, count: number): Promise<string[]> {
  return bench.db.transaction(async (trx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const envelopes = bench.outbox.envelopes([{ event: orderPaid, data: sampleOrder() }]);
      await bench.outbox.write(trx, [], envelopes);
      ids.push(...envelopes.map((envelope) => envelope.id));
    }
    return ids;
  });
}

/** Runs `work` on chunks of `total` with `concurrency` workers taking the next chunk when free. */
async function inChunks(total: number, chunk: number, concurrency: number, work: (count: number) => Promise<void>): Promise<void> {
  let taken = 0;
  const worker = async () => {
    while (taken < total) {
      stopIfInterrupted();
      const count = Math.min(chunk, total - taken);
      taken += count;
      await work(count);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * A view of the bus whose `js.publish` records when each message id was acknowledged and how long
 * at least one publish was waiting for its ack. Everything else is the real client.
 */
class PublishProbe {
  readonly ackedAt = new Map<string, number>();
  busyMs = 0;
  readonly bus: BusConnection;
  private inFlight = 0;
  private busySince = 0;

  constructor(bus: BusConnection) {
    const publish: JetStreamClient["publish"] = async (subject, payload, options) => {
      if (this.inFlight++ === 0) this.busySince = performance.now();
      try {
        return await bus.js.publish(subject, payload, options);
      } finally {
        const now = performance.now();
        if (options?.msgID) this.ackedAt.set(options.msgID, now);
        if (--this.inFlight === 0) this.busyMs += now - this.busySince;
      }
    };
    const js = new Proxy(bus.js, {
      get: (target, property, receiver): unknown => (property === "publish" ? publish : Reflect.get(target, property, receiver)),
    });
    this.bus = { ...bus, js };
  }
}

/** Time spent in each kind of statement the relay sends (knex reports neither BEGIN nor COMMIT). */
class QueryProfile {
  readonly totals: Record<string, number> = {};
  private readonly counts: Record<string, number> = {};
  private readonly startedAt = new Map<string, number>();
  private readonly onQuery = (query: { __knexQueryUid: string }) => this.startedAt.set(query.__knexQueryUid, performance.now());
  private readonly onResponse = (_response: unknown, query: { __knexQueryUid: string; sql: string }) => {
    const started = this.startedAt.get(query.__knexQueryUid);
    if (started === undefined) return;
    this.startedAt.delete(query.__knexQueryUid);
    const kind = QueryProfile.kind(query.sql);
    this.totals[kind] = (this.totals[kind] ?? 0) + performance.now() - started;
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  };

  constructor(private readonly db: Knex) {
    db.on("query", this.onQuery).on("query-response", this.onResponse);
  }

  count(kind: string): number {
    return this.counts[kind] ?? 0;
  }

  detach(): void {
    this.db.off("query", this.onQuery).off("query-response", this.onResponse);
  }

  private static kind(sql: string): string {
    if (sql.includes("pg_try_advisory_xact_lock")) return "advisory lock";
    if (/^select .* from "?outbox"? /i.test(sql)) return "select pending";
    if (/^update "?outbox"? /i.test(sql)) return "update published_at";
    if (/^delete from "?outbox"? /i.test(sql)) return "prune";
    return "other SQL";
  }
}

async function streamMessages(bench: Bench): Promise<number> {
  return (await bench.bus.jsm.streams.info(bench.bus.names.eventStream)).state.messages;
}

async function expectStreamHolds(bench: Bench, n: number, phase: string): Promise<void> {
  const held = await streamMessages(bench);
  if (held !== n) throw new Error(`${phase}: the stream holds ${held} messages, expected ${n}; the figure would be wrong`);
}

async function pendingCount(db: Knex): Promise<number> {
  const row = await db("outbox").whereNull("published_at").count<{ count: number }[]>({ count: "*" }).first();
  return row?.count ?? 0;
}

/** Empties the outbox and the stream between phases. */
async function reset(bench: Bench): Promise<void> {
  await bench.db.raw("truncate outbox");
  await bench.bus.jsm.streams.purge(bench.bus.names.eventStream);
}

async function until(done: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    stopIfInterrupted();
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Set by Ctrl-C: the loops below stop taking work, and main's clean-up runs. */
let interrupted = false;
function stopIfInterrupted(): void {
  if (interrupted) throw new Error("interrupted");
}

const verdict = (met: boolean) => (met ? "met" : "MISSED");


// ---------------------------------------------------------------------------------------------
// Set-up, the rounds, the report, and removal of everything created

async function round(bench: Bench, n: number): Promise<{ raw: number; payloadBytes: number; relay: RelayResult }> {
  progress(`committing ${n.toLocaleString("en-US")} events to the outbox (relay not running)`);
  await inChunks(n, BATCH, 4, async (count) => void (await commitEvents(bench, count)));
  progress("raw JetStream publish");
  const { rate: raw, payloadBytes } = await measureRaw(bench, n);
  await bench.bus.jsm.streams.purge(bench.bus.names.eventStream);
  progress(`  ${formatRate(raw)}; outbox relay draining the backlog`);
  const relay = await measureRelay(bench, n);
  progress(`  ${formatRate(relay.rate)}`);
  return { raw, payloadBytes, relay };
}

async function main(): Promise<void> {
  const name = randomBytes(4).toString("hex");
  const database = `tollgate_bench_${name}`;
  const databaseUrl = withDatabase(SERVER_URL, database);
  const admin = createDatabase({ url: withDatabase(SERVER_URL, "postgres"), schema: "public", poolMax: 1 });
  let bus: BusConnection | null = null;
  let db: Knex | null = null;
  process.once("SIGINT", () => {
    interrupted = true;
    progress("interrupted: stopping after the current step, then cleaning up (Ctrl-C again quits at once)");
  });

  try {
    progress(`creating database ${database} and NATS prefix bench_${name}`);
    await admin.raw("create database ??", [database]);
    await migrate({ url: databaseUrl, schema: SCHEMA }, {});
    db = createDatabase({ url: databaseUrl, schema: SCHEMA, poolMax: 10 });
    bus = await connectBus({ url: NATS_URL, prefix: `bench_${name}`, name: "bench-outbox" });
    await ensureEventStream(bus);
    const bench: Bench = { db, bus, outbox: new Outbox("bench", SCHEMA, bus.names), databaseUrl };

    progress(`warm-up round with ${WARM_UP_EVENTS.toLocaleString("en-US")} events`);
    await round(bench, WARM_UP_EVENTS);
    await reset(bench);
    progress(`measured round with ${EVENTS.toLocaleString("en-US")} events`);
    const measured = await round(bench, EVENTS);
    await reset(bench);
    progress(`live: ${PRODUCERS} producers committing ${EVENTS_PER_LIVE_TRANSACTION} events per transaction`);
    const live = await measureLive(bench, EVENTS);
    progress(`  committed ${formatRate(live.committedRate)}, relayed ${formatRate(live.relayedRate)}`);
    console.log(report({ ...measured, live, server: bus.nc.info?.version ?? "?" }));
  } finally {
    const attempt = async (what: string, step: () => Promise<unknown>) => {
      await step().catch((error: unknown) => console.error(`could not ${what}:`, error));
    };
    const [openBus, openDb] = [bus, db];
    if (openBus) {
      const { jsm, names, nc } = openBus;
      await attempt(`delete stream ${names.eventStream}`, () => jsm.streams.delete(names.eventStream));
      await attempt("close NATS", () => nc.close());
    }
    if (openDb) await attempt("close the pool", () => openDb.destroy());
    await attempt(`drop database ${database}`, () => admin.raw("drop database if exists ?? with (force)", [database]));
    await admin.destroy();
    progress(`removed database ${database} and its stream`);
  }
}

function report(figures: { raw: number; payloadBytes: number; relay: RelayResult; live: LiveResult; server: string }): string {
  const { raw, payloadBytes, relay, live, server } = figures;
  const ratio = relay.rate / raw;
  const profile = Object.entries(relay.profile).map(
    ([part, ms]) =>
      `    ${part.padEnd(38)}${(ms / Math.max(1, relay.batches)).toFixed(2).padStart(10)}   ${((ms / (relay.seconds * 1000)) * 100).toFixed(0).padStart(3)} %`,
  );
  return `
outbox bench — ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs, node ${process.version}, nats-server ${server}
${EVENTS.toLocaleString("en-US")} events of ${payloadBytes} B, batches of ${BATCH}, file-backed stream with a duplicate window
outbox table never analyzed (a new deployment's)

  raw JetStream publish (500 in flight)     ${formatRate(raw).padStart(10)}
  outbox relay, commit → JetStream ack      ${formatRate(relay.rate).padStart(10)}   (${relay.seconds.toFixed(2)} s, ${relay.batches} batches)
  ratio relay / raw                         ${ratio.toFixed(2).padStart(10)}   target ≥ ${TARGET_RATIO}: ${verdict(ratio >= TARGET_RATIO)}
  relay rate                                                target ≥ ${TARGET_RATE.toLocaleString("en-US")}/s: ${verdict(relay.rate >= TARGET_RATE)}

  live: ${PRODUCERS} producers × ${EVENTS_PER_LIVE_TRANSACTION} events per transaction, relay running
    committed                               ${formatRate(live.committedRate).padStart(10)}
    relayed (first commit → last ack)       ${formatRate(live.relayedRate).padStart(10)}
    commit → ack lag                        p50 ${live.lagMs.p50.toFixed(1)} ms, p99 ${live.lagMs.p99.toFixed(1)} ms, max ${live.lagMs.max.toFixed(1)} ms

  where the relay's time went (ms per batch of ${BATCH})
${profile.join("\n")}
`;
}

main().catch((error: unknown) => {
  if (interrupted) {
    process.exitCode = 130;
    return;
  }
  console.error(error);
  process.exitCode = 1;
});
