import { pageOf, WorkFailures, type Knex, type Sort } from "@tollgate/kit";
import { arrayBindings } from "../db/arrays.js";
import { whereMetadata } from "../db/metadata.js";
import { eventTypesOf, type EventTypeSortable, type EventTypeWithStatsRow } from "../event-types/event-types.sql.js";
import type { Aggregation, Filter } from "../meters/filter.js";
import { contributionSql, filterSql } from "../meters/filter.sql.js";
import { periodBindings, periodOf, periodRange, type PeriodQuery, type PeriodTally } from "../meters/meters.sql.js";

export interface UsageEventRow {
  id: string;
  organization_id: string;
  name: string;
  source: "user" | "system";
  timestamp: Date;
  customer_id: string | null;
  external_customer_id: string | null;
  external_id: string | null;
  parent_id: string | null;
  metadata: Record<string, string | number | boolean>;
}

export type UsageEventDraft = Omit<UsageEventRow, "source">;

const usageEvents = (db: Knex) => db<UsageEventRow>("usage_events");

/**
 * Appends a batch in one statement, each event written also waiting to be measured. An event whose
 * external_id the seller already sent (before, or earlier in the batch) is skipped: the ids of those
 * written come back.
 */
export async function appendEvents(db: Knex, events: UsageEventDraft[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `with written as (
       insert into usage_events (id, organization_id, name, timestamp, customer_id, external_customer_id, external_id, parent_id, metadata)
       select * from unnest(?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::jsonb[])
       on conflict (organization_id, external_id) where external_id is not null do nothing
       returning id
     )
     insert into usage_events_unmeasured (event_id) select id from written returning event_id as id`,
    arrayBindings([
      events.map((event) => event.id),
      events.map((event) => event.organization_id),
      events.map((event) => event.name),
      events.map((event) => event.timestamp.toISOString()),
      events.map((event) => event.customer_id),
      events.map((event) => event.external_customer_id),
      events.map((event) => event.external_id),
      events.map((event) => event.parent_id),
      events.map((event) => JSON.stringify(event.metadata)),
    ]),
  );
  return new Set(rows.map((row) => row.id));
}

/** Counts the names of events written, for the list of names that never reads the events. */
export async function countEventNames(db: Knex, organizationId: string, names: { name: string; occurrences: number; first_seen: Date; last_seen: Date }[]): Promise<void> {
  if (names.length === 0) return;
  await db.raw(
    `insert into usage_event_names as n (organization_id, name, source, occurrences, first_seen, last_seen)
     select ?, name, 'user', occurrences, first_seen, last_seen from unnest(?::text[], ?::bigint[], ?::timestamptz[], ?::timestamptz[]) as d(name, occurrences, first_seen, last_seen)
     on conflict (organization_id, name, source) do update set
       occurrences = n.occurrences + excluded.occurrences,
       first_seen = least(n.first_seen, excluded.first_seen), last_seen = greatest(n.last_seen, excluded.last_seen)`,
    [organizationId, names.map((row) => row.name), names.map((row) => row.occurrences), names.map((row) => row.first_seen.toISOString()), names.map((row) => row.last_seen.toISOString())],
  );
}

/**
 * What measuring reads of an event: the columns a pass sends to billing, and no more; its id, to set
 * it aside should it fail, and whether it failed before (its failures are forgotten once it is measured).
 */
export type UnmeasuredEvent = Pick<UsageEventRow, "id" | "organization_id" | "name" | "source" | "timestamp" | "customer_id" | "external_customer_id" | "metadata"> & { failed_before: boolean };

/** The name measuring goes by among set-aside work: an event it keeps failing on is set aside under it. */
export const MEASUREMENT_WORKER = "usage_measurement";

/**
 * Takes up to `limit` events waiting to be measured, as the transaction's own: they wait no more once
 * it commits, and again if it rolls back. Another replica's measurer takes others. An event that
 * failed and has since been set aside keeps waiting, passed over, until its seller asks for it
 * again; only events that failed are looked up for that.
 */
export async function takeUnmeasured(db: Knex, limit: number): Promise<UnmeasuredEvent[]> {
  const notSetAside = WorkFailures.notSetAside(MEASUREMENT_WORKER, "usage_events_unmeasured.event_id");
  const { rows } = await db.raw<{ rows: UnmeasuredEvent[] }>(
    `with taken as (
       delete from usage_events_unmeasured
       where sequence = any(array(select sequence from usage_events_unmeasured where not failed or ${notSetAside.sql} order by sequence limit ? for update skip locked))
       returning event_id, failed
     )
     -- By key, both the rows taken and their events: as an IN and a join, Postgres plans hash joins
     -- that read the whole backlog and every event there is, at every pass.
     select e.id, e.organization_id, e.name, e.source, e.timestamp, e.customer_id, e.external_customer_id, e.metadata, taken.failed as failed_before
     from taken cross join lateral (select * from usage_events where usage_events.id = taken.event_id) e`,
    [...notSetAside.bindings, limit],
  );
  return rows;
}

/** Puts events that failed to be measured back in line (behind those waiting), for a later pass to try again or pass over. */
export async function putBackFailed(db: Knex, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.raw("insert into usage_events_unmeasured (event_id, failed) select unnest(?::text[]), true", [eventIds]);
}

/**
 * The seller's measured events in pages, oldest first, for measuring them again: keyset on the
 * (organization, timestamp) index. Those still waiting are left to the measurer, which will see the
 * meters as they are by then.
 */
export async function measuredEventsAfter(db: Knex, organizationId: string, after: { timestamp: Date; id: string } | null, limit: number): Promise<UsageEventRow[]> {
  const found = usageEvents(db)
    .where({ organization_id: organizationId })
    .whereNotExists((waiting) => void waiting.select(db.raw("1")).from("usage_events_unmeasured").whereRaw("usage_events_unmeasured.event_id = usage_events.id"));
  if (after) void found.whereRaw("(timestamp, id) > (?, ?)", [after.timestamp.toISOString(), after.id]);
  return found.orderBy([{ column: "timestamp" }, { column: "id" }]).limit(limit);
}

export const findEvent = (db: Knex, id: string) => usageEvents(db).where({ id }).first();

/**
 * How many events of each one's own seller name it as their parent: another seller's events never
 * count, whatever they name (ingestion refuses such a parent, but rows written before it did remain).
 */
export async function childCounts(db: Knex, parents: Pick<UsageEventRow, "id" | "organization_id">[]): Promise<Map<string, number>> {
  if (parents.length === 0) return new Map();
  const rows: { parent_id: string; count: number }[] = await db("usage_events")
    .whereIn(["parent_id", "organization_id"], parents.map((parent) => [parent.id, parent.organization_id]))
    .groupBy("parent_id")
    .select("parent_id", db.raw("count(*)::int as count"));
  return new Map(rows.map((row) => [row.parent_id, row.count]));
}

/** The seller's events known by one of `references`, as their id or as the seller's external id. */
export function eventsReferenced(db: Knex, organizationId: string, references: string[]): Promise<Pick<UsageEventRow, "id" | "external_id">[]> {
  return usageEvents(db)
    .where({ organization_id: organizationId })
    .where((known) => void known.whereIn("id", references).orWhereIn("external_id", references))
    .select("id", "external_id");
}

/** Events of a customer known by id or by the seller's id for them: those sent either way. */
export interface CustomerMatch {
  customerIds: string[];
  externalCustomerIds: string[];
}

export interface EventFilter {
  organizationIds: string[];
  organization_id?: string[];
  customers: CustomerMatch[];
  name?: string[];
  source?: string[];
  /** After this instant, exclusive (Polar's way). */
  start_timestamp?: Date;
  /** Before this instant, exclusive. */
  end_timestamp?: Date;
  /** Meter filters each event must pass. */
  filters: Filter[];
  /** A meter whose filter the events pass and to which they add something. */
  meter?: { filter: Filter; aggregation: Aggregation };
  metadata: Map<string, string[]>;
  /** Text in the name, the source, the metadata, or the customer's id, external id, name or e-mail. */
  query?: { text: string; customerIds: Knex.QueryBuilder };
  /**
   * The event hierarchy, as Polar reads it: down to `depth` levels under `parentId` (the parent
   * itself left out), or under the root events (which are in).
   */
  hierarchy?: { depth: number; parentId: string | undefined };
}

/** The events under the anchors, down to `depth` levels, by a walk that a depth of at most 5 keeps short. */
function eventsUnder(db: Knex, anchors: Knex.QueryBuilder, depth: number, includeAnchors: boolean): Knex.QueryBuilder {
  return db
    .withRecursive("event_tree", ["id", "level"], (tree) =>
      void tree
        .select("anchor.id", db.raw("0"))
        .from(anchors.as("anchor"))
        .unionAll((down) => void down.select("child.id", db.raw("event_tree.level + 1")).from("event_tree").join("usage_events as child", "child.parent_id", "event_tree.id").where("event_tree.level", "<", depth)),
    )
    .select("id")
    .from("event_tree")
    .where("level", ">=", includeAnchors ? 0 : 1);
}

function matchingEvents(db: Knex, filter: EventFilter): Knex.QueryBuilder {
  const found = usageEvents(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  for (const { customerIds, externalCustomerIds } of filter.customers) {
    void found.where((customer) => void customer.whereIn("customer_id", customerIds).orWhereIn("external_customer_id", externalCustomerIds));
  }
  if (filter.name) void found.whereIn("name", filter.name);
  if (filter.source) void found.whereIn("source", filter.source);
  if (filter.start_timestamp) void found.where("timestamp", ">", filter.start_timestamp);
  if (filter.end_timestamp) void found.where("timestamp", "<", filter.end_timestamp);
  for (const wanted of filter.filters) void found.whereRaw("?", [filterSql(db, "usage_events", wanted)]);
  if (filter.meter) void found.whereRaw("? and ?", [filterSql(db, "usage_events", filter.meter.filter), contributionSql(db, "usage_events", filter.meter.aggregation).counts]);
  whereMetadata(found, "usage_events.metadata", filter.metadata);
  if (filter.query) {
    const { text, customerIds } = filter.query;
    void found.where(
      (query) =>
        void query
          .whereILike("name", `%${text}%`)
          .orWhereILike("source", `%${text}%`)
          .orWhereIn("customer_id", customerIds)
          .orWhereRaw("to_tsvector('simple', usage_events.metadata::text) @@ plainto_tsquery('simple', ?)", [text]),
    );
  }
  return found;
}

/** Narrows the events to the hierarchy asked for: the roots alone need no walk. */
function whereInHierarchy(db: Knex, found: Knex.QueryBuilder, filter: EventFilter, { depth, parentId }: NonNullable<EventFilter["hierarchy"]>): void {
  if (parentId !== undefined) {
    const parent = usageEvents(db).whereIn("organization_id", filter.organizationIds).where({ id: parentId }).select("id");
    void found.whereIn("id", eventsUnder(db, parent, depth, false));
  } else if (depth === 0) void found.whereNull("parent_id");
  else void found.whereIn("id", eventsUnder(db, matchingEvents(db, filter).whereNull("parent_id").select("id"), depth, true));
}

export function pageOfEvents(db: Knex, filter: EventFilter, page: { page: number; limit: number; sort: Sort<"timestamp"> }) {
  const found = matchingEvents(db, filter);
  if (filter.hierarchy) whereInHierarchy(db, found, filter, filter.hierarchy);
  return pageOf<UsageEventRow, "timestamp">(found, { ...page, columns: { timestamp: "timestamp" }, table: "usage_events" });
}

/** A meter measured from the seller's events rather than its rollups, on those with the metadata asked for. */
export interface EventMeasure {
  organizationId: string;
  meter: { filter: Filter; aggregation: Aggregation };
  metadata: Map<string, string[]>;
}

/** An event's customer as the rollups key it (see customerKeyOf). */
const EVENT_CUSTOMER_KEY = "coalesce(usage_events.customer_id, 'external:' || usage_events.external_customer_id)";

/**
 * Reads events, so it runs with a time limit: `statement_timeout` ends a read of a range with too
 * many events (error 57014) rather than letting it hold a connection for as long as it takes.
 */
async function readBounded<Result>(db: Knex, timeoutMs: number, read: (trx: Knex) => Promise<Result>): Promise<Result> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local statement_timeout = ${Math.round(timeoutMs)}`);
    return read(trx);
  });
}

function measuredEvents(db: Knex, measure: EventMeasure, query: PeriodQuery): Knex.QueryBuilder {
  const contribution = contributionSql(db, "usage_events", measure.meter.aggregation);
  const found = usageEvents(db)
    .where({ organization_id: measure.organizationId })
    .whereRaw(periodRange("usage_events.timestamp"), periodBindings(query))
    .whereRaw("? and ?", [filterSql(db, "usage_events", measure.meter.filter), contribution.counts]);
  if (query.customerKeys && !query.customerKeys.includes("*")) void found.whereRaw(`${EVENT_CUSTOMER_KEY} = any(?)`, [query.customerKeys]);
  whereMetadata(found, "usage_events.metadata", measure.metadata);
  return found;
}

/**
 * A meter's tallies per period (and per customer key when `perCustomer`) counted from its events, as
 * `periodTallies` reads them from rollups, with the distinct values of a unique meter, and for a
 * unique meter those of the whole range. Within `timeoutMs`.
 */
export async function eventTallies(db: Knex, measure: EventMeasure, query: PeriodQuery, perCustomer: boolean, timeoutMs: number): Promise<{ tallies: PeriodTally[]; distinct: number }> {
  const contribution = contributionSql(db, "usage_events", measure.meter.aggregation);
  return readBounded(db, timeoutMs, async (trx) => {
    const tallied = measuredEvents(trx, measure, query)
      .select(
        trx.raw(`${periodOf("usage_events.timestamp")} as period`, periodBindings(query)),
        trx.raw(`${perCustomer ? EVENT_CUSTOMER_KEY : "'*'"} as customer_key`),
        trx.raw("count(*) as count, sum(:value) as sum, min(:value) as min, max(:value) as max, count(distinct :unique) as distinct_values", { value: contribution.value, unique: contribution.unique }),
      )
      .groupBy(trx.raw("1, 2"));
    const rows = await (tallied as Promise<(Omit<PeriodTally, "count" | "distinct"> & { count: string; distinct_values: string })[]>);
    const tallies = rows.map(({ distinct_values, ...row }) => ({ ...row, count: Number(row.count), distinct: Number(distinct_values) }));
    if (measure.meter.aggregation.func !== "unique") return { tallies, distinct: 0 };
    const [range] = await (measuredEvents(trx, measure, query).select(trx.raw("count(distinct ?) as distinct_values", [contribution.unique])) as Promise<{ distinct_values: string }[]>);
    return { tallies, distinct: Number(range?.distinct_values ?? 0) };
  });
}

export interface EventNameRow {
  name: string;
  source: "user" | "system";
  occurrences: number;
  first_seen: Date;
  last_seen: Date;
}

export const EVENT_NAME_SORTABLE = { name: "name", occurrences: "occurrences", first_seen: "first_seen", last_seen: "last_seen" } as const;

/** Which of the sellers' events a list of their names counts. */
export interface NameStatsFilter {
  organizationIds: string[];
  source?: string[];
  /** The customers whose events alone count. */
  customers?: CustomerMatch[];
  /** Only events without a parent. */
  rootsOnly?: boolean;
  /** Only the direct children of this event. */
  parentId?: string;
  /** Text in the name (or, for event types, the label). */
  query?: string;
}

/** The customer keys (see EVENT_CUSTOMER_KEY) of the customers asked for, by id or by the seller's id for them. */
const customerKeysOf = (customers: CustomerMatch[]) => customers.flatMap(({ customerIds, externalCustomerIds }) => [...customerIds, ...externalCustomerIds.map((id) => `external:${id}`)]);

/**
 * Each name's occurrences and first and last time, per seller and source. The sellers' whole history is
 * read from the counts the measurer keeps, so that listing reads no events; events narrowed to some
 * customers (on the customer key's index) or to a place in the hierarchy are counted themselves.
 */
function nameStats(db: Knex, filter: NameStatsFilter): Knex.QueryBuilder {
  if (!filter.customers && !filter.rootsOnly && filter.parentId === undefined) {
    const counted = db("usage_event_names").whereIn("organization_id", filter.organizationIds).select("organization_id", "name", "source", db.raw("occurrences::int as occurrences"), "first_seen", "last_seen");
    if (filter.source) void counted.whereIn("source", filter.source);
    return counted;
  }
  const found = usageEvents(db).whereIn("organization_id", filter.organizationIds);
  if (filter.source) void found.whereIn("source", filter.source);
  if (filter.customers) void found.whereRaw(`${EVENT_CUSTOMER_KEY} = any(?)`, [customerKeysOf(filter.customers)]);
  if (filter.rootsOnly) void found.whereNull("parent_id");
  if (filter.parentId !== undefined) void found.where({ parent_id: filter.parentId });
  return found
    .groupBy("organization_id", "name", "source")
    .select("organization_id", "name", "source", db.raw("count(*)::int as occurrences, min(timestamp) as first_seen, max(timestamp) as last_seen"));
}

/** One page of a list, sorted by its columns as asked and then by `tieBreakers`, with the total. */
async function pageOfList<Row>(db: Knex, listed: Knex.QueryBuilder, page: { page: number; limit: number; sort: Sort<string> }, tieBreakers: string[]): Promise<{ rows: Row[]; total: number }> {
  const [{ count } = { count: 0 }] = await db.from(listed.clone().as("listed")).count<{ count: number }[]>({ count: "*" });
  for (const { property, descending } of page.sort) void listed.orderBy(property, descending ? "desc" : "asc");
  for (const column of tieBreakers) void listed.orderBy(column);
  const rows = (await listed.limit(page.limit).offset((page.page - 1) * page.limit)) as Row[];
  return { rows, total: Number(count) };
}

/** One page of the names of the sellers' events, each counted across the sellers; a name and source are their own key, so they break ties. */
export function pageOfEventNames(db: Knex, filter: NameStatsFilter, page: { page: number; limit: number; sort: Sort<keyof typeof EVENT_NAME_SORTABLE> }) {
  const names = db
    .from(nameStats(db, filter).as("stats"))
    .groupBy("name", "source")
    .select("name", "source", db.raw("sum(occurrences)::int as occurrences, min(first_seen) as first_seen, max(last_seen) as last_seen"));
  if (filter.query) void names.whereILike("name", `%${filter.query}%`);
  return pageOfList<EventNameRow>(db, names, { ...page, sort: page.sort.map(({ property, descending }) => ({ property: EVENT_NAME_SORTABLE[property], descending })) }, ["name", "source"]);
}

/**
 * One page of the sellers' event types with their events' statistics: the names the events narrowed
 * to carry, each with the seller's type for it. As in Polar, a name without a type is left out: one
 * written by a release that made no types gets its type with the next event that carries it.
 */
export function pageOfEventTypes(db: Knex, filter: NameStatsFilter, page: { page: number; limit: number; sort: Sort<EventTypeSortable> }) {
  const listed = db
    .from(nameStats(db, filter).as("stats"))
    .join(eventTypesOf(db, filter.organizationIds).as("types"), (on) => void on.on("types.organization_id", "stats.organization_id").andOn("types.name", "stats.name"))
    .select(
      "types.id",
      "types.created_at",
      "types.modified_at",
      "stats.organization_id",
      "stats.name",
      "types.label",
      "types.label_property_selector",
      "stats.source",
      "stats.occurrences",
      "stats.first_seen",
      "stats.last_seen",
    );
  if (filter.query) {
    const text = `%${filter.query}%`;
    void listed.where((query) => void query.whereILike("stats.name", text).orWhereILike("types.label", text));
  }
  return pageOfList<EventTypeWithStatsRow>(db, listed, page, ["organization_id", "name", "source"]);
}

/** How many events wait to be measured. */
export async function unmeasuredCount(db: Knex): Promise<number> {
  const [{ count } = { count: 0 }] = await db("usage_events_unmeasured").count<{ count: number }[]>({ count: "*" });
  return Number(count);
}
