import type { z } from "zod";
import type { EventDefinition } from "@tollgate/proto";
import type { Knex } from "../db/connection.js";
import { oneQueryAtATime } from "../db/one-query-at-a-time.js";
import type { Logger } from "../logger.js";
import type { Outbox, PendingEvent } from "./outbox.js";

/**
 * One step's changes, the events that announce them and what is to happen once they are committed —
 * the one way a service changes its state and tells the others.
 *
 * Queries run through `db` (the transaction) as usual. Changes given to `change` (knex inserts,
 * updates and deletes, built but not run) and events given to `announce` are gathered and written
 * together in one statement at the end (see Outbox.write): an event exists exactly when what it
 * announces commits, and a hot path pays one round trip for all its writes. None of the gathered
 * changes may depend on another's rows. `afterCommit` effects (waking a worker) run once the unit has
 * committed, never for one that rolled back.
 */
export class UnitOfWork {
  private changes: Knex.QueryBuilder[] = [];
  private events: PendingEvent[] = [];
  private readonly committed: (() => void)[] = [];

  /** The transaction (or, for a unit written in one statement, the database). */
  readonly db: Knex;

  constructor(
    db: Knex,
    private readonly outbox: Outbox,
    private readonly shape: { batch: boolean },
  ) {
    this.db = db.isTransaction ? oneQueryAtATime(db) : db;
  }

  change(...queries: Knex.QueryBuilder[]): this {
    this.changes.push(...queries);
    return this;
  }

  /** Announces `data` as an event of each definition given, in that order. */
  announce<Data extends z.ZodType<Record<string, unknown>>>(events: EventDefinition<string, Data> | EventDefinition<string, Data>[], data: z.input<Data>): this {
    for (const event of Array.isArray(events) ? events : [events]) this.events.push({ event, data });
    return this;
  }

  afterCommit(effect: () => void): this {
    this.committed.push(effect);
    return this;
  }

  /**
   * Writes what has been gathered so far, now, in one statement: how many rows each change wrote, in
   * the order they were given. The unit writes whatever is left at its end by itself; this is for a
   * step that must read its own changes back before it goes on.
   */
  async write(): Promise<number[]> {
    const changes = this.changes;
    const envelopes = this.outbox.envelopes(this.events);
    this.changes = [];
    this.events = [];
    // A batch's statement has a shape that follows its size: not worth preparing.
    return this.outbox.write(this.db, changes, envelopes, { prepared: !this.shape.batch });
  }

  /** @internal Runs the after-commit effects; an effect that throws does not stop the others. */
  runCommitted(logger: Logger): void {
    for (const effect of this.committed) {
      try {
        effect();
      } catch (error) {
        logger.error({ err: error }, "an after-commit effect failed");
      }
    }
  }
}

export interface UnitOptions {
  /**
   * `false`: no transaction — the queries `work` runs are each their own, and what it gathers is
   * written in one statement at its end, which commits as one. For a step whose only writes are the
   * gathered ones (the hot path of a sale), saving the transaction's round trips.
   */
  transaction?: boolean;
  /** The gathered writes are a batch whose statement's shape follows its size (not prepared). */
  batch?: boolean;
}

/** Runs units of work against a service's database and outbox. */
export class Units {
  constructor(
    private readonly db: Knex,
    private readonly outbox: Outbox,
    private readonly logger: Logger,
  ) {}

  /** Runs `work` as one unit: its queries, gathered changes and events commit together or not at all; then its after-commit effects run. */
  async run<Result>(work: (unit: UnitOfWork) => Promise<Result>, options: UnitOptions = {}): Promise<Result> {
    const shape = { batch: options.batch ?? false };
    let unit: UnitOfWork | undefined;
    const finish = async (db: Knex) => {
      unit = new UnitOfWork(db, this.outbox, shape);
      const result = await work(unit);
      await unit.write();
      return result;
    };
    const result = options.transaction === false ? await finish(this.db) : await this.db.transaction((trx) => finish(trx));
    unit?.runCommitted(this.logger);
    return result;
  }
}
