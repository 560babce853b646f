import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerMessages,
  type JsMsg,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { EventEnvelope, eventProvenanceProblem, type EventDefinition, type TypedEvent } from "@tollgate/proto";
import type { z } from "zod";
import { isDatabaseUnreachable, type Knex } from "../db/connection.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics.js";
import { checkConsumes } from "./access.js";
import type { BusConnection } from "./connection.js";
import type { Outbox } from "./outbox.js";
import { UnitOfWork } from "./unit-of-work.js";

export interface HandlerContext {
  /** The consumer's transaction: the handler's writes, its outbox events and the inbox mark commit together. */
  trx: Knex.Transaction;
  /**
   * A unit of work over that transaction, for handlers that change state as the service's routes do:
   * what it gathers is written before the commit, and its after-commit effects run once it is committed.
   */
  unit: UnitOfWork;
  logger: Logger;
}

/** What a handler gets from {@link StatelessConsumerStore}: no transaction, since there is no database. */
export interface StatelessHandlerContext {
  logger: Logger;
}

export interface EventHandler<Context = HandlerContext> {
  readonly event: EventDefinition;
  handle(event: TypedEvent<string, unknown>, context: Context): Promise<void>;
}

/** Pairs an event definition with what to do when it arrives. */
export function on<Type extends string, Data extends z.ZodType, Context = HandlerContext>(
  event: EventDefinition<Type, Data>,
  handle: (event: TypedEvent<Type, z.output<Data>>, context: Context) => Promise<void>,
): EventHandler<Context> {
  return { event, handle };
}

export interface ConsumerDefinition<Context = HandlerContext> {
  /** Durable name, unique per deployment; replicas sharing it split the events between them. */
  name: string;
  handlers: EventHandler<Context>[];
  /** Attempts before an event is set aside in `dead_letters`. */
  maxDeliveries?: number;
  /** Delay before each retry after a failure; the last value repeats. */
  retryDelaysMs?: number[];
  /** How many events one replica pulls at a time. */
  batchSize?: number;
  /** How long an event a replica took waits for its ack before JetStream hands it to another (see ACK_WAIT_MS). */
  ackWaitMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000, 60_000, 300_000];
/**
 * How long JetStream waits for the ack of an event it handed out before handing it to another
 * replica: what a replica that dies holding events costs. A live one tells JetStream every third of
 * this that it is still working on the events it holds, so a slow batch is not handed out twice.
 */
const ACK_WAIT_MS = 5_000;

type Outcome = "applied" | "duplicate";

interface DeadLetter {
  consumer: string;
  subject: string;
  payload: string;
  error: string;
  deliveries: number;
}

/** One event to apply, and what applying it means. */
export interface Application<Context> {
  event: TypedEvent<string, unknown>;
  run: (context: Context) => Promise<void>;
}

/** Where a consumer applies events and sets aside the ones it never can. */
export interface ConsumerStore<Context> {
  /** Applies the events in order, all or none, and says for each whether it was new. */
  apply(consumer: string, applications: Application<Context>[]): Promise<Outcome[]>;
  deadLetter(letter: DeadLetter): Promise<void>;
}

/**
 * Applies events inside a transaction that also records their ids in the `inbox` table, so a
 * redelivered event (a crash before the ack, or a second replica) commits nothing the second time.
 * Several events share one transaction, and so one commit, when they arrive together.
 */
export class PostgresConsumerStore implements ConsumerStore<HandlerContext> {
  constructor(
    private readonly db: Knex,
    private readonly outbox: Outbox,
    private readonly logger: Logger,
  ) {}

  async apply(consumer: string, applications: Application<HandlerContext>[]): Promise<Outcome[]> {
    let unit: UnitOfWork | undefined;
    const outcomes = await this.db.transaction(async (trx) => {
      unit = new UnitOfWork(trx, this.outbox, { batch: applications.length > 1 });
      const rows = applications.map(({ event }) => ({ consumer, event_id: event.id }));
      const inserted = await trx("inbox").insert(rows).onConflict(["consumer", "event_id"]).ignore().returning<{ event_id: string }[]>("event_id");
      // An id the bus handed over twice in one batch is new only the first time.
      const fresh = new Set(inserted.map((row) => row.event_id));
      const outcomes: Outcome[] = [];
      for (const { event, run } of applications) {
        if (!fresh.delete(event.id)) {
          outcomes.push("duplicate");
          continue;
        }
        await run({ trx, unit, logger: this.logger.child({ event: event.id, type: event.type }) });
        outcomes.push("applied");
      }
      await unit.write();
      return outcomes;
    });
    unit?.runCommitted(this.logger);
    return outcomes;
  }

  async deadLetter(letter: DeadLetter): Promise<void> {
    await this.db("dead_letters").insert(letter);
  }
}

/**
 * For a process without a database whose effects are idempotent by nature (the gateway dropping
 * cache entries): handlers run directly, and an event that can never be handled is only logged.
 */
export class StatelessConsumerStore implements ConsumerStore<StatelessHandlerContext> {
  constructor(private readonly logger: Logger) {}

  async apply(_consumer: string, applications: Application<StatelessHandlerContext>[]): Promise<Outcome[]> {
    for (const { event, run } of applications) await run({ logger: this.logger.child({ event: event.id, type: event.type }) });
    return applications.map(() => "applied");
  }

  deadLetter(letter: DeadLetter): Promise<void> {
    this.logger.error(letter, "event set aside after its last attempt");
    return Promise.resolve();
  }
}

/**
 * A durable JetStream consumer with explicit acks, applying events through its store (the inbox,
 * for services). Failures are retried with backoff up to a bound, then set aside as dead letters
 * and terminated rather than blocking the stream.
 */
export class EventConsumer<Context = HandlerContext> {
  private readonly handlers: Map<string, EventHandler<Context>>;
  private readonly maxDeliveries: number;
  private readonly retryDelaysMs: number[];
  private readonly ackWaitMs: number;
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly definition: ConsumerDefinition<Context>,
    private readonly deps: { store: ConsumerStore<Context>; bus: BusConnection; logger: Logger; metrics: Metrics },
  ) {
    this.handlers = new Map(definition.handlers.map((handler) => [handler.event.type, handler]));
    checkConsumes(deps.bus.process, definition.name, [...this.handlers.keys()]);
    this.maxDeliveries = definition.maxDeliveries ?? 10;
    this.retryDelaysMs = definition.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.ackWaitMs = definition.ackWaitMs ?? ACK_WAIT_MS;
  }

  async start(): Promise<void> {
    const { bus } = this.deps;
    const stream = bus.names.eventStream;
    const changeable = {
      ack_wait: nanos(this.ackWaitMs),
      max_deliver: this.maxDeliveries,
      filter_subject: bus.names.eventSubject(narrowestFilter([...this.handlers.keys()])),
    };
    const existing = await bus.jsm.consumers.info(stream, this.definition.name).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return null;
      throw error;
    });
    if (existing) {
      // A new release may handle more event types than the durable was created with.
      await bus.jsm.consumers.update(stream, this.definition.name, changeable);
    } else {
      await bus.jsm.consumers.add(stream, {
        ...changeable,
        durable_name: this.definition.name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
      });
    }
    const consumer = await bus.js.consumers.get(stream, this.definition.name);
    this.messages = await consumer.consume({ max_messages: this.definition.batchSize ?? 50 });
    const messages = this.messages;
    const batchLimit = this.definition.batchSize ?? 50;
    this.loop = (async () => {
      // Events that arrive while a batch is being applied wait here and go together in the next one.
      const waiting: JsMsg[] = [];
      // Every event taken and not yet acknowledged, handed back or set aside: JetStream hears that this replica is still on it.
      const held = new Set<JsMsg>();
      const working = setInterval(() => held.forEach((message) => message.working()), this.ackWaitMs / 3);
      let applying: Promise<void> | null = null;
      const applyWaiting = async () => {
        while (waiting.length > 0) {
          const batch = waiting.splice(0, batchLimit);
          await this.receive(batch).catch((error: unknown) => {
            // Only reachable when Postgres itself fails (recording a dead letter); try again later.
            this.deps.logger.error({ err: error, consumer: this.definition.name }, "could not record an event's outcome");
            for (const message of batch) message.nak(this.retryDelaysMs[0]);
          });
          batch.forEach((message) => held.delete(message));
        }
        applying = null;
      };
      try {
        for await (const message of messages) {
          held.add(message);
          waiting.push(message);
          applying ??= applyWaiting();
          if (waiting.length >= batchLimit) await applying;
        }
        await applying;
      } finally {
        clearInterval(working);
      }
    })();
  }

  /** Stops pulling; the event being handled finishes and is acked first (or, if Postgres is away, handed back). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.messages?.close();
    await this.loop;
  }

  /**
   * Applies a batch in one go; if that fails, each event on its own, so one failing event is retried
   * or set aside without holding back the others.
   */
  private async receive(messages: JsMsg[]): Promise<void> {
    const consumer = this.definition.name;
    const handled: { message: JsMsg; application: Application<Context> }[] = [];
    for (const message of messages) {
      if (message.info.deliveryCount > 1) this.deps.metrics.consumerRedeliveries.inc({ consumer });
      const parsed = this.parse(message);
      if (parsed.kind === "ignore") {
        message.ack();
        this.deps.metrics.consumerOutcomes.inc({ consumer, outcome: "ignored" });
      } else if (parsed.kind === "reject") {
        this.deps.logger.warn({ consumer, subject: message.subject, reason: parsed.reason }, "event refused; dead-lettered");
        await this.deadLetter(message, parsed.reason);
      } else {
        const { handler, event } = parsed;
        handled.push({ message, application: { event, run: (context) => handler.handle(event, context) } });
      }
    }
    if (handled.length > 1) {
      const applied = await this.apply(handled).then(
        () => true,
        () => false,
      );
      if (applied) return;
    }
    for (const one of handled) await this.apply([one]).catch((error: unknown) => this.failed(one.message, one.application.event, error));
  }

  private async apply(handled: { message: JsMsg; application: Application<Context> }[]): Promise<void> {
    const outcomes = await this.whilePostgresIsAway(handled, () =>
      this.deps.store.apply(
        this.definition.name,
        handled.map(({ application }) => application),
      ),
    );
    handled.forEach(({ message }, index) => {
      message.ack();
      this.deps.metrics.consumerOutcomes.inc({ consumer: this.definition.name, outcome: outcomes[index] ?? "applied" });
    });
  }

  /**
   * Runs `work`, and again after the first retry delay for as long as it fails for want of Postgres
   * (restarting, unreachable). The events are not at fault then and must not use up their attempts,
   * after the last of which JetStream hands them out no more (and no dead letter could be written
   * either): they are held here, JetStream told meanwhile that they are being worked on. A consumer
   * that is stopping hands them back instead.
   */
  private async whilePostgresIsAway<Result>(handled: { message: JsMsg }[], work: () => Promise<Result>): Promise<Result> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (this.stopping || !isDatabaseUnreachable(error)) throw error;
        if (attempt === 1) this.deps.logger.warn({ err: error, consumer: this.definition.name, events: handled.length }, "Postgres is away; holding the events until it is back");
        await new Promise((resolve) => setTimeout(resolve, this.retryDelaysMs[0] ?? 0));
      }
    }
  }

  /** Retries a failed event after a backoff, or sets it aside after its last attempt. */
  private async failed(message: JsMsg, event: TypedEvent<string, unknown>, error: unknown): Promise<void> {
    const consumer = this.definition.name;
    const deliveries = message.info.deliveryCount;
    const reason = error instanceof Error ? error.message : String(error);
    // One that failed for want of Postgres (as a consumer stops) is not at fault: handed back, never set aside.
    if (deliveries >= this.maxDeliveries && !isDatabaseUnreachable(error)) {
      this.deps.logger.error({ err: error, event: event.id, consumer }, "event failed on its last attempt; dead-lettered");
      await this.deadLetter(message, reason);
      return;
    }
    const delay = this.retryDelaysMs[Math.min(deliveries - 1, this.retryDelaysMs.length - 1)] ?? 0;
    this.deps.logger.warn({ err: error, event: event.id, consumer, deliveries, retryInMs: delay }, "event handler failed; will retry");
    message.nak(delay);
    this.deps.metrics.consumerOutcomes.inc({ consumer, outcome: "retried" });
  }

  /**
   * The handler and validated event; `ignore` for a type this consumer does not handle (its subject
   * filter is wider than its handlers); `reject` with the reason a message can never be handled.
   */
  private parse(
    message: JsMsg,
  ):
    | { kind: "handle"; handler: EventHandler<Context>; event: TypedEvent<string, unknown> }
    | { kind: "ignore" }
    | { kind: "reject"; reason: string } {
    let json: unknown;
    try {
      json = message.json();
    } catch {
      return { kind: "reject", reason: "payload is not JSON" };
    }
    const envelope = EventEnvelope.safeParse(json);
    if (!envelope.success) return { kind: "reject", reason: `invalid envelope: ${envelope.error.message}` };
    const handler = this.handlers.get(envelope.data.type);
    if (!handler) return { kind: "ignore" };
    // Only the owner's NATS user may publish on an event type's subject: anything else is forged.
    const forged = eventProvenanceProblem(this.deps.bus.names, message.subject, envelope.data);
    if (forged) return { kind: "reject", reason: forged };
    const data = handler.event.data.safeParse(envelope.data.data);
    if (!data.success) return { kind: "reject", reason: `invalid ${envelope.data.type} data: ${data.error.message}` };
    return { kind: "handle", handler, event: { ...envelope.data, data: data.data } };
  }

  private async deadLetter(message: JsMsg, error: string): Promise<void> {
    await this.deps.store.deadLetter({
      consumer: this.definition.name,
      subject: message.subject,
      payload: message.string(),
      error,
      deliveries: message.info.deliveryCount,
    });
    message.term(error.slice(0, 200));
    this.deps.metrics.consumerOutcomes.inc({ consumer: this.definition.name, outcome: "dead_lettered" });
  }
}

/**
 * One subject filter covering every handled type: the exact type when there is one, else the
 * types' common leading tokens followed by `>`. (NATS servers before 2.10, Debian's among them,
 * accept a single filter per consumer.)
 */
export function narrowestFilter(types: string[]): string {
  const [first, ...rest] = types.map((type) => type.split("."));
  if (!first) throw new Error("a consumer needs at least one handler");
  if (rest.length === 0) return first.join(".");
  let common = 0;
  while (common < first.length && rest.every((tokens) => tokens[common] === first[common])) common++;
  return [...first.slice(0, common), ">"].join(".");
}
