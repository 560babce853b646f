/**
 * The scale run: Tollgate with two replicas of everything under a mixed load while one replica of
 * each service in turn is killed (SIGKILL; the launcher starts it again) and the NATS server is
 * restarted once; then, once the work left behind has settled, the rules of audit.ts. Shared by
 * `npm run bench:scale` and its shorter form in `npm test` (bench/test/scale.test.ts).
 */
import { connectBus, createDatabase, type BusConnection } from "@tollgate/kit";
import { WebhookReceiver } from "../../services/webhook-dispatcher/test/receiver.js";
import { cpuUse, snapshot, type CpuUse } from "../cpu.js";
import { percentile } from "../support.js";
import { backendPids } from "./audit.sql.js";
import { chargesPerRenewal, clientErrors, eventsPerConsumer, ordersPerCheckout, streamEvents, unsettled, webhookDeliveries, type Receipt, type Verdict } from "./audit.js";
import { openShop, runClient, type Gateway, type RequestRecord, type Shops } from "./load.js";
import { ScaleStack, type Disruption } from "./stack.js";

export interface ScenarioOptions {
  /** How long the load runs; the kills and the NATS restart are spread over it. */
  seconds: number;
  /** Clients of the mix at once. */
  clients: number;
  databaseUrl: string;
  /** The database's name, to tell its Postgres backends from others'. */
  database: string;
  natsPrefix: string;
  redisUrl: string;
  redisPrefix: string;
  /** How long the settling may take once the load has stopped. */
  settleMs: number;
  print: (line: string) => void;
  progress: (line: string) => void;
  /** Aborted (Ctrl-C): the run stops where it is and cleans up. */
  signal?: AbortSignal;
}

export interface ScenarioReport {
  seconds: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  disruptions: Disruption[];
  verdicts: Verdict[];
  cpu: CpuUse | null;
}

/** Replicas the run keeps of every service. */
const REPLICAS = 2;
/** In the order they are killed, one replica each; then the NATS server is restarted. */
const VICTIMS = ["auth#1", "organization#2", "billing#1", "webhook-dispatcher#2"];
/** The dispatcher's send timeout here: a delivery it was making when killed goes out again after twice this and 5 s. */
const WEBHOOK_TIMEOUT_MS = 2_000;

/** Settings for the run's processes: cheap password hashes, no rate limits, webhooks to the local receiver with quick retries. */
const PROCESS_ENV = {
  BCRYPT_COST: "4",
  RATE_LIMIT_ENABLED: "false",
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
  WEBHOOK_RETRY_BASE_MS: "500",
  OUTBOX_POLL_MS: "500",
};

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

export async function runScenario(options: ScenarioOptions): Promise<ScenarioReport> {
  const receipts: Receipt[] = [];
  const receiver = await new WebhookReceiver().start();
  receiver.answer = (request) => {
    receipts.push({ id: request.id, at: performance.now(), verified: request.verified });
    return { status: 204 };
  };
  try {
    return await runWithReceiver(receiver, receipts, options);
  } finally {
    await receiver.stop();
  }
}

async function runWithReceiver(receiver: WebhookReceiver, receipts: Receipt[], options: ScenarioOptions): Promise<ScenarioReport> {
  const interrupted = () => options.signal?.aborted === true;
  options.progress(`starting Tollgate with ${REPLICAS} replicas of every service`);
  const stack = await ScaleStack.start({
    replicas: REPLICAS,
    databaseUrl: options.databaseUrl,
    natsPrefix: options.natsPrefix,
    redisUrl: options.redisUrl,
    redisPrefix: options.redisPrefix,
    env: PROCESS_ENV,
    print: options.print,
  });
  const db = createDatabase({ url: options.databaseUrl, schema: "public", poolMax: 2 });
  let bus: BusConnection | null = null;
  try {
    bus = await connectBus({ url: stack.nats.url, prefix: options.natsPrefix, name: "bench-scale" });
    const gateway: Gateway = { url: stack.url, site: stack.url.replace("127.0.0.1", "localhost") };
    const records: RequestRecord[] = [];

    options.progress("opening shops: two one-time, two monthly, each with a webhook endpoint");
    const webhooksTo = { url: receiver.url, trust: (secret: string) => receiver.secrets.push(secret) };
    const sellers = await Promise.all((["one-time", "one-time", "monthly", "monthly"] as const).map((kind) => openShop(gateway, records, webhooksTo, kind)));
    const shops: Shops = { oneTime: sellers.slice(0, 2), monthly: sellers.slice(2) };
    // The run's figures are the load's: the setup's requests are not counted.
    records.length = 0;

    options.progress(`load: ${options.clients} clients for ${options.seconds} s; killing ${VICTIMS.join(", ")} in turn, then restarting NATS`);
    const disruptions: Disruption[] = [];
    const started = performance.now();
    const ends = started + options.seconds * 1000;
    const cpuBefore = await snapshot();
    const clients = Array.from({ length: options.clients }, () => runClient(gateway, records, shops, () => performance.now() >= ends || interrupted()));
    const chaos = (async () => {
      const moments = VICTIMS.length + 1;
      for (const [index, victim] of VICTIMS.entries()) {
        await sleepUntil(started + ((index + 1) * options.seconds * 1000) / (moments + 1));
        if (interrupted()) return;
        options.progress(`killing ${victim} (${records.length} requests so far)`);
        const kill = await stack.kill(victim);
        options.progress(`${victim} (${kill.detail}) is gone; the launcher starts it again`);
        disruptions.push(kill);
      }
      await sleepUntil(started + (moments * options.seconds * 1000) / (moments + 1));
      if (interrupted()) return;
      options.progress("restarting nats-server");
      const restart = await stack.restartNats();
      options.progress(`nats-server restarted: ${restart.detail}`);
      disruptions.push(restart);
    })();
    await Promise.all([...clients, chaos]);
    options.signal?.throwIfAborted();
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = await snapshot();
    const cpu = await cpuUse(cpuBefore, cpuAfter, {
      tollgate: stack.pids,
      nats: [...stack.natsPids],
      postgres: await backendPids(db, options.database),
      "bench (clients, receiver)": [process.pid],
    });

    options.progress(`load done: ${records.length} requests in ${seconds.toFixed(1)} s; waiting for the replicas killed to be back and the work left to settle`);
    for (const victim of VICTIMS) await stack.ready(victim);
    const settleStarted = performance.now();
    let left = await unsettled(db, bus, receipts);
    let told = settleStarted;
    while (Object.values(left).some((count) => count > 0) && performance.now() - settleStarted < options.settleMs && !interrupted()) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      left = await unsettled(db, bus, receipts);
      if (performance.now() - told >= 5_000) {
        told = performance.now();
        options.progress(`still to settle: ${Object.entries(left).filter(([, count]) => count > 0).map(([what, count]) => `${count} ${what}`).join(", ")}`);
      }
    }
    options.signal?.throwIfAborted();
    const settled = Object.values(left).every((count) => count === 0);
    options.progress(settled ? `settled after ${((performance.now() - settleStarted) / 1000).toFixed(1)} s` : `not settled after ${options.settleMs / 1000} s: ${JSON.stringify(left)}`);

    const events = await streamEvents(bus);
    const kills = disruptions.filter((disruption) => disruption.target !== "nats-server");
    const sellerEndpoints = sellers.map((seller) => ({ id: seller.endpoint.id, organizationId: seller.organizationId }));
    const verdicts = [
      {
        rule: "the work the load left settled",
        figure: settled ? `in ${((performance.now() - settleStarted) / 1000).toFixed(1)} s` : "no",
        notes: [],
        broken: Object.entries(left).filter(([, count]) => count > 0).map(([what, count]) => `${count} ${what} after ${options.settleMs / 1000} s`),
      },
      clientErrors(records, disruptions),
      await ordersPerCheckout(db),
      await chargesPerRenewal(db),
      await eventsPerConsumer(db, bus, events),
      await webhookDeliveries(db, events, sellerEndpoints, receipts, kills, WEBHOOK_TIMEOUT_MS + 1_000),
    ];
    const latencies = records.map((record) => record.endedAt - record.startedAt).sort((a, b) => a - b);
    return {
      seconds,
      requests: records.length,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      disruptions: disruptions.map((disruption) => ({ ...disruption, at: disruption.at - started, until: disruption.until - started })),
      verdicts,
      cpu,
    };
  } finally {
    await bus?.nc.close();
    await db.destroy();
    await stack.stop();
  }
}
