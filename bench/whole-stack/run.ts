/**
 * What bench/scale and bench/chaos share around their load: a webhook receiver standing in for the
 * sellers' endpoints, Tollgate with two replicas of everything, four shops, the load's records and
 * ledger; waiting for the work the load left to settle; and the rules of audit.ts.
 */
import { connectBus, createDatabase, type BusConnection, type Knex } from "@tollgate/kit";
import { WebhookReceiver, type Answer } from "../../test/stacks/receiver.js";
import {
  chargesPerRenewal,
  consumersCaughtUp,
  eventsPerConsumer,
  grantsPerPurchase,
  ordersPerCheckout,
  outboxesDrained,
  refundsOnce,
  streamEvents,
  unsettled,
  webhookDeliveries,
  type Receipt,
  type Verdict,
} from "./audit.js";
import { newLedger, openShop, runClient, type Gateway, type RequestRecord, type Seller, type Shops } from "./load.js";
import { TollgateStack, type Disruption } from "./stack.js";

/** Replicas the runs keep of every service. */
const REPLICAS = 2;
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

export interface RunOptions {
  /** Clients of the mix at once. */
  clients: number;
  databaseUrl: string;
  /** The database's name, to tell its Postgres backends from others'. */
  database: string;
  natsPrefix: string;
  redisUrl: string;
  redisPrefix: string;
  /** Where the processes' own lines go. */
  print: (line: string) => void;
  progress: (line: string) => void;
  /** Aborted (Ctrl-C): the run stops where it is and cleans up. */
  signal?: AbortSignal;
}

/** How the sellers' endpoint answers: as a healthy one does, with 500, or not within the dispatcher's timeout. */
export type ReceiverMode = "healthy" | "failing" | "hanging";

/** The receiver standing in for every seller's endpoint: answers as it is told to, and keeps what it accepted. */
class SellersEndpoint {
  /** Deliveries accepted (answered 2xx). */
  readonly receipts: Receipt[] = [];
  private mode: ReceiverMode = "healthy";
  /** While hanging: what the deliveries held wait for, and what lets them go. */
  private holding: { until: Promise<void>; release: () => void } | null = null;

  constructor(readonly receiver: WebhookReceiver) {
    receiver.answer = (request) => this.answer(request.id, request.verified);
  }

  set(mode: ReceiverMode): void {
    this.mode = mode;
    this.holding?.release();
    this.holding = null;
    if (mode === "hanging") {
      let release = () => {};
      const until = new Promise<void>((resolve) => (release = resolve));
      this.holding = { until, release };
    }
  }

  private answer(id: string, verified: boolean): Answer {
    if (this.holding) return { status: 503, hold: this.holding.until };
    if (this.mode === "failing") return { status: 500, body: "down for maintenance" };
    this.receipts.push({ id, at: performance.now(), verified });
    return { status: 204 };
  }
}

export class WholeStackRun {
  readonly records: RequestRecord[] = [];
  readonly ledger = newLedger();

  private constructor(
    readonly stack: TollgateStack,
    readonly db: Knex,
    readonly bus: BusConnection,
    private readonly endpoint: SellersEndpoint,
    readonly sellers: Seller[],
  ) {}

  /** Starts the receiver, then Tollgate, and opens the shops; the setup's requests are not in the records. */
  static async start(options: RunOptions): Promise<WholeStackRun> {
    const receiver = await new WebhookReceiver().start();
    // Answering from the first delivery: the shops' own events (a product created) are webhooks too.
    const endpoint = new SellersEndpoint(receiver);
    let stack: TollgateStack | null = null;
    let db: Knex | null = null;
    let bus: BusConnection | null = null;
    try {
      options.progress(`starting Tollgate with ${REPLICAS} replicas of every service`);
      const { databaseUrl, natsPrefix, redisUrl, redisPrefix, print } = options;
      stack = await TollgateStack.start({ replicas: REPLICAS, databaseUrl, natsPrefix, redisUrl, redisPrefix, print, env: PROCESS_ENV });
      db = createDatabase({ url: options.databaseUrl, schema: "public", poolMax: 2 });
      bus = await connectBus({ url: stack.nats.url, prefix: options.natsPrefix, name: "bench-audit" });
      options.progress("opening shops: two one-time, two monthly, each with a benefit and a webhook endpoint");
      const gateway = gatewayOf(stack);
      const webhooksTo = { url: receiver.url, trust: (secret: string) => receiver.secrets.push(secret) };
      const sellers = await Promise.all((["one-time", "one-time", "monthly", "monthly"] as const).map((kind) => openShop(gateway, [], webhooksTo, kind)));
      return new WholeStackRun(stack, db, bus, endpoint, sellers);
    } catch (error) {
      await bus?.nc.close();
      await db?.destroy();
      await stack?.stop();
      await receiver.stop();
      throw error;
    }
  }

  get shops(): Shops {
    return { oneTime: this.sellers.slice(0, 2), monthly: this.sellers.slice(2) };
  }

  /** Deliveries the sellers' endpoint accepted (answered 2xx). */
  get receipts(): Receipt[] {
    return this.endpoint.receipts;
  }

  /** Changes how the sellers' endpoint answers from now on; deliveries held while it was hanging then get a 503. */
  setReceiver(mode: ReceiverMode): void {
    this.endpoint.set(mode);
  }

  /** `count` clients of the mix until `until()` says stop; resolves once each has finished what it was doing. */
  async load(count: number, until: () => boolean): Promise<void> {
    await Promise.all(Array.from({ length: count }, () => runClient(gatewayOf(this.stack), this.records, this.ledger, this.shops, until)));
  }

  /** What is still to happen, each with the count left; all 0 once settled. Processes not ready count too. */
  async unsettled(): Promise<Record<string, number>> {
    const [unready, left] = await Promise.all([this.stack.unready(), unsettled(this.db, this.bus, this.receipts)]);
    return { "processes not ready": unready.length, ...left };
  }

  /**
   * Waits until nothing is left to settle, or `timeoutMs` has passed; says where it stands every 5 s.
   * Resolves with what was left (all 0 when settled).
   */
  async settle(timeoutMs: number, progress: (line: string) => void, interrupted: () => boolean): Promise<Record<string, number>> {
    const started = performance.now();
    let told = started;
    let left = await this.unsettled();
    while (!isSettled(left) && performance.now() - started < timeoutMs && !interrupted()) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = await this.unsettled();
      if (performance.now() - told >= 5_000) {
        told = performance.now();
        progress(`still to settle: ${describeLeft(left)}`);
      }
    }
    return left;
  }

  /**
   * The rules over everything done so far, bar the client errors (which the caller judges over the
   * requests it made): a webhook received twice is allowed when one of `disruptions` (a dispatcher
   * replica killed, Postgres stopped) kept its first send from being recorded.
   */
  async audit(disruptions: Disruption[]): Promise<Verdict[]> {
    const events = await streamEvents(this.bus);
    const endpoints = this.sellers.map((seller) => ({ id: seller.endpoint.id, organizationId: seller.organizationId }));
    return [
      await ordersPerCheckout(this.db, this.ledger),
      await chargesPerRenewal(this.db),
      await grantsPerPurchase(this.db),
      await refundsOnce(this.db, this.ledger),
      await outboxesDrained(this.db),
      await consumersCaughtUp(this.bus),
      await eventsPerConsumer(this.db, this.bus, events),
      await webhookDeliveries(this.db, events, endpoints, this.receipts, disruptions, WEBHOOK_TIMEOUT_MS + 1_000),
    ];
  }

  async stop(): Promise<void> {
    this.setReceiver("healthy");
    await this.bus.nc.close();
    await this.db.destroy();
    await this.stack.stop();
    await this.endpoint.receiver.stop();
  }
}

const gatewayOf = (stack: TollgateStack): Gateway => ({ url: stack.url, site: stack.url.replace("127.0.0.1", "localhost") });

export const isSettled = (left: Record<string, number>) => Object.values(left).every((count) => count === 0);

export const describeLeft = (left: Record<string, number>) =>
  Object.entries(left)
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${count} ${what}`)
    .join(", ");
