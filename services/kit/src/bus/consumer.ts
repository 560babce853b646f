import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerMessages,
  type JsMsg,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { EventEnvelope, type EventDefinition, type TypedEvent } from "@tollgate/proto";
import type { z } from "zod";
import type { Knex } from "../db/database.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics.js";
import type { BusConnection } from "./connection.js";

export interface HandlerContext {
  /** The consumer's transaction: the handler's writes, its outbox events and the inbox mark commit together. */
  trx: Knex.Transaction;
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
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000, 60_000, 300_000];
const ACK_WAIT_MS = 30_000;

type Outcome = "applied" | "duplicate";

interface DeadLetter {
  consumer: string;
  subject: string;
  payload: string;
  error: string;
  deliveries: number;
}

/** Where a consumer applies events and sets aside the ones it never can. */
export interface ConsumerStore<Context> {
  apply(consumer: string, event: TypedEvent<string, unknown>, run: (context: Context) => Promise<void>): Promise<Outcome>;
  deadLetter(letter: DeadLetter): Promise<void>;
}

/**
 * Applies each event inside a transaction that also records its id in the `inbox` table, so a
 * redelivered event (a crash before the ack, or a second replica) commits nothing the second time.
 */
export class PostgresConsumerStore implements ConsumerStore<HandlerContext> {
  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
  ) {}

  apply(consumer: string, event: TypedEvent<string, unknown>, run: (context: HandlerContext) => Promise<void>): Promise<Outcome> {
    return this.db.transaction(async (trx) => {
      const inserted = await trx("inbox").insert({ consumer, event_id: event.id }).onConflict(["consumer", "event_id"]).ignore().returning("event_id");
      if (inserted.length === 0) return "duplicate";
      await run({ trx, logger: this.logger.child({ event: event.id, type: event.type }) });
      return "applied";
    });
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

  async apply(_consumer: string, event: TypedEvent<string, unknown>, run: (context: StatelessHandlerContext) => Promise<void>): Promise<Outcome> {
    await run({ logger: this.logger.child({ event: event.id, type: event.type }) });
    return "applied";
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
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly definition: ConsumerDefinition<Context>,
    private readonly deps: { store: ConsumerStore<Context>; bus: BusConnection; logger: Logger; metrics: Metrics },
  ) {
    this.handlers = new Map(definition.handlers.map((handler) => [handler.event.type, handler]));
    this.maxDeliveries = definition.maxDeliveries ?? 10;
    this.retryDelaysMs = definition.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  async start(): Promise<void> {
    const { bus } = this.deps;
    const stream = bus.names.eventStream;
    const changeable = {
      ack_wait: nanos(ACK_WAIT_MS),
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
    this.loop = (async () => {
      for await (const message of messages) {
        await this.receive(message).catch((error: unknown) => {
          // Only reachable when Postgres itself fails (recording a dead letter); try again later.
          this.deps.logger.error({ err: error, consumer: this.definition.name }, "could not record an event's outcome");
          message.nak(this.retryDelaysMs[0]);
        });
      }
    })();
  }

  /** Stops pulling; the event being handled finishes and is acked first. */
  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop;
  }

  private async receive(message: JsMsg): Promise<void> {
    const { logger, metrics } = this.deps;
    const consumer = this.definition.name;
    const deliveries = message.info.deliveryCount;
    if (deliveries > 1) metrics.consumerRedeliveries.inc({ consumer });

    const parsed = this.parse(message);
    if (parsed.kind === "ignore") {
      message.ack();
      metrics.consumerOutcomes.inc({ consumer, outcome: "ignored" });
      return;
    }
    if (parsed.kind === "reject") {
      await this.deadLetter(message, parsed.reason);
      return;
    }
    try {
      const { handler, event } = parsed;
      const outcome = await this.deps.store.apply(consumer, event, (context) => handler.handle(event, context));
      message.ack();
      metrics.consumerOutcomes.inc({ consumer, outcome });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (deliveries >= this.maxDeliveries) {
        logger.error({ err: error, event: parsed.event.id, consumer }, "event failed on its last attempt; dead-lettered");
        await this.deadLetter(message, reason);
        return;
      }
      const delay = this.retryDelaysMs[Math.min(deliveries - 1, this.retryDelaysMs.length - 1)] ?? 0;
      logger.warn({ err: error, event: parsed.event.id, consumer, deliveries, retryInMs: delay }, "event handler failed; will retry");
      message.nak(delay);
      metrics.consumerOutcomes.inc({ consumer, outcome: "retried" });
    }
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
