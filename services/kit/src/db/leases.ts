import type { Logger } from "../logger.js";
import type { Knex } from "./connection.js";

/**
 * A table of work items, each due at its `runAt` and taken by one replica at a time for a while:
 * the replica that claims an item holds it until `leased_until`, does the slow part (a network
 * call) outside any transaction, then settles it only if it still holds it. One that dies lets its
 * items go when their leases end. The table has a `leased_until timestamptz` column.
 *
 * The SQL below names the table's row `item` unless said otherwise; the fragments take the alias.
 */
export interface Lease {
  table: string;
  /** The column naming an item. */
  key: string;
  /** When an item is due; `run_at` unless said. */
  runAt?: string;
  /**
   * The column counting an item's claims (`attempts` unless said), which also tells one claim from
   * the next: a replica still holds an item while the count is the one its claim returned. Null for
   * a table that counts its attempts otherwise; a claim is then told by its lease's end.
   */
  attempts?: string | null;
  /** A column set to now() whenever a claim changes an item (`modified_at`). */
  touched?: string;
  /** What an item is while it is still work to do (not settled), over `alias`. */
  pending?: (alias: string) => string;
  /** The moment items are due by, over `alias`; now() unless said (a seller's test clock moves it). */
  dueBy?: (alias: string) => string;
}

/** SQL text and its bindings, to run or to embed in a larger statement. */
export interface Statement {
  sql: string;
  bindings: Knex.RawBinding[];
}

/**
 * An item as a claim returned it: its key and its mark, which tells this claim from the next — its
 * claim count, or for a lease that counts none, its `leased_until` as claimed.
 */
export interface Claimed {
  key: string;
  mark: number | Date;
}

const runAtOf = (lease: Lease) => lease.runAt ?? "run_at";
const attemptsOf = (lease: Lease) => (lease.attempts === undefined ? "attempts" : lease.attempts);
const pendingOf = (lease: Lease, alias: string) => (lease.pending ? ` and ${lease.pending(alias)}` : "");

/** The condition of an item (as `alias`) that is due and that no replica holds. */
export function claimableSql(lease: Lease, alias: string): string {
  const dueBy = lease.dueBy ? lease.dueBy(alias) : "now()";
  return `${alias}.${runAtOf(lease)} <= ${dueBy} and (${alias}.leased_until is null or ${alias}.leased_until < now())${pendingOf(lease, alias)}`;
}

// To the millisecond, so the lease's end as JavaScript reads it back still tells this claim.
const leaseEndSql = `leased_until = date_trunc('milliseconds', now() + make_interval(secs => ?))`;

/** The SET list of a claim of the item as `alias`: held for `leaseMs`, its claim counted. */
export function takeSql(lease: Lease, alias: string, leaseMs: number): Statement {
  const attempts = attemptsOf(lease);
  const sets = [leaseEndSql];
  if (attempts) sets.push(`${attempts} = ${alias}.${attempts} + 1`);
  if (lease.touched) sets.push(`${lease.touched} = now()`);
  return { sql: sets.join(", "), bindings: [leaseMs / 1000] };
}

/**
 * The guard of a settlement: the item (as `alias`) is still pending and still held by the claim
 * whose mark is `claimedMark` (SQL: a binding `?` or a column; see Claimed). A replica whose lease
 * ran out and whose item was claimed again since finds the mark moved on.
 */
export function heldSql(lease: Lease, alias: string, claimedMark: string): string {
  const attempts = attemptsOf(lease);
  const held = attempts ? `${alias}.leased_until is not null and ${alias}.${attempts} = ${claimedMark}` : `${alias}.leased_until = ${claimedMark}`;
  return held + pendingOf(lease, alias);
}

/**
 * The claim of up to `limit` due items, oldest due first, for `leaseMs`, as one UPDATE … RETURNING
 * (of `returning`, over `item`; all its columns unless said) that a caller may embed in a CTE.
 * SKIP LOCKED lets replicas claim side by side without taking the same item. `where` narrows the
 * items (SQL over `item`).
 */
export function claimStatement(lease: Lease, options: { limit: number; leaseMs: number; where?: Statement; returning?: string }): Statement {
  const { table, key } = lease;
  const take = takeSql(lease, "item", options.leaseMs);
  const narrowed = options.where ? ` and ${options.where.sql}` : "";
  return {
    sql: `update ${table} item set ${take.sql}
     where item.${key} in (
       select item.${key} from ${table} item
       where ${claimableSql(lease, "item")}${narrowed}
       order by item.${runAtOf(lease)} limit ? for update skip locked)
     returning ${options.returning ?? "item.*"}`,
    bindings: [...take.bindings, ...(options.where?.bindings ?? []), options.limit],
  };
}

/** Claims due items (see claimStatement) and returns them. */
export async function claim<Row>(db: Knex, lease: Lease, options: { limit: number; leaseMs: number; where?: Statement }): Promise<Row[]> {
  const { sql, bindings } = claimStatement(lease, options);
  const { rows } = await db.raw<{ rows: Row[] }>(sql, bindings);
  return rows;
}

/** Lets go of claimed items that were not worked on after all, as if they had not been claimed. */
export async function release(db: Knex, lease: Lease, items: (Claimed & { mark: number })[]): Promise<void> {
  const attempts = attemptsOf(lease);
  if (items.length === 0) return;
  if (!attempts) throw new Error(`a lease on ${lease.table} counts no claims, so a claim of it cannot be undone`);
  const sets = [`leased_until = null`, `${attempts} = item.${attempts} - 1`];
  if (lease.touched) sets.push(`${lease.touched} = now()`);
  await db.raw(
    `update ${lease.table} item set ${sets.join(", ")}
     from unnest(?::text[], ?::int[]) as unsent(key, attempts)
     where item.${lease.key} = unsent.key and ${heldSql(lease, "item", "unsent.attempts")}`,
    [items.map((item) => item.key), items.map((item) => item.mark)],
  );
}

/** Narrows an update of the lease's table to the item while the claim `item` still holds it. */
export const whileHeld = <Query extends Knex.QueryBuilder>(lease: Lease, query: Query, item: Claimed): Query =>
  query.where(`${lease.table}.${lease.key}`, item.key).whereRaw(heldSql(lease, lease.table, "?"), [item.mark] as Knex.RawBinding[]) as Query;

/** What a {@link LeaseKeeper} needs: the table's lease, how long a lease lasts, and each item's claim. */
export interface Keeping<Item> {
  db: Knex;
  lease: Lease;
  /** How long an item stays held past its holder's last extension. */
  leaseMs: number;
  logger: Logger;
  claimOf: (item: Item) => Claimed & { mark: number };
}

/**
 * Keeps the items a replica works on held for as long as it works on them, so that leases can be
 * short: every fifth of `leaseMs`, their leases are extended to `leaseMs` from then. A replica that
 * dies lets its items go within `leaseMs`, whatever the work; a live one keeps them however long its
 * work takes (a slow endpoint, a slow processor), four missed extensions in a row included. Only for a
 * lease that counts its claims: extending a lease must not change what tells one claim from the next.
 */
export class LeaseKeeper<Item> {
  /** The items held, by key, with their claims' marks and how many pieces of work hold each. */
  private readonly held = new Map<string, { mark: number; holders: number }>();
  private timer: NodeJS.Timeout | null = null;
  private extending = false;

  constructor(private readonly keeping: Keeping<Item>) {
    if (!attemptsOf(keeping.lease)) throw new Error(`a lease on ${keeping.lease.table} counts no claims, so it cannot be extended`);
  }

  /** Keeps `items` held until they are let go: their leases are extended until then. */
  hold(items: Item[]): void {
    for (const { key, mark } of items.map(this.keeping.claimOf)) {
      const held = this.held.get(key);
      if (held?.mark === mark) held.holders += 1;
      else this.held.set(key, { mark, holders: 1 });
    }
    if (this.held.size > 0) this.timer ??= setInterval(() => void this.extend(), this.keeping.leaseMs / 5).unref();
  }

  /** Stops extending the leases of `items`: each runs out `leaseMs` after its last extension, unless settled first. */
  letGo(items: Item[]): void {
    for (const { key, mark } of items.map(this.keeping.claimOf)) {
      const held = this.held.get(key);
      if (held?.mark === mark && --held.holders === 0) this.held.delete(key);
    }
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Runs `work` while keeping `items` held. */
  async whileHolding<Result>(items: Item[], work: () => Promise<Result>): Promise<Result> {
    this.hold(items);
    try {
      return await work();
    } finally {
      this.letGo(items);
    }
  }

  /** One extension of every lease held; an item being settled right now (its row locked) is passed over until the next. */
  private async extend(): Promise<void> {
    if (this.extending || this.held.size === 0) return;
    this.extending = true;
    const { db, lease, leaseMs, logger } = this.keeping;
    const held = [...this.held];
    try {
      await db.raw(
        `update ${lease.table} item set ${leaseEndSql}
         where item.${lease.key} in (
           select item.${lease.key} from ${lease.table} item join unnest(?::text[], ?::int[]) as held(key, mark) on item.${lease.key} = held.key
           where ${heldSql(lease, "item", "held.mark")}
           for update of item skip locked)`,
        [leaseMs / 1000, held.map(([key]) => key), held.map(([, { mark }]) => mark)],
      );
    } catch (error) {
      logger.warn({ err: error, table: lease.table, items: held.length }, "could not extend the leases of items in hand; they are let go if this lasts");
    } finally {
      this.extending = false;
    }
  }
}
