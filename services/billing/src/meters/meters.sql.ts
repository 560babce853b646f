import { arrayBindings } from "../db/arrays.js";
import { pageOf, randomId, type Knex, type Sort } from "@tollgate/kit";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import type { Aggregation, Filter } from "./filter.js";
import type { RollupDelta, Tally, UniqueValue } from "./rollups.js";

export type MeterUnit = "scalar" | "token" | "custom";

export interface MeterRow {
  id: string;
  organization_id: string;
  name: string;
  unit: MeterUnit;
  custom_label: string | null;
  custom_multiplier: number | null;
  filter: Filter;
  aggregation: Aggregation;
  metadata: Metadata;
  archived_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

export type MeterDraft = Pick<MeterRow, "organization_id" | "name" | "unit" | "custom_label" | "custom_multiplier" | "filter" | "aggregation" | "metadata">;
export type MeterChanges = Partial<Omit<MeterDraft, "organization_id"> & Pick<MeterRow, "archived_at">>;

const meters = (db: Knex) => db<MeterRow>("meters");

export const findMeter = (db: Knex, id: string) => meters(db).where({ id }).first();

export const metersWithIds = (db: Knex, ids: string[]) => meters(db).whereIn("id", ids);

/** Those of `ids` that are the seller's meters. */
export const meterIdsOf = async (db: Knex, organizationId: string, ids: string[]): Promise<string[]> =>
  ids.length === 0 ? [] : (await meters(db).where({ organization_id: organizationId }).whereIn("id", ids).select("id")).map((meter) => meter.id);

/** Every meter of the seller, archived or not: an archived meter keeps counting, so unarchiving it loses nothing. */
export const metersOfOrganization = (db: Knex, organizationId: string) => meters(db).where({ organization_id: organizationId }).select("id", "filter", "aggregation");

const asJson = (changes: MeterChanges) => ({
  ...changes,
  ...(changes.filter ? { filter: JSON.stringify(changes.filter) } : {}),
  ...(changes.aggregation ? { aggregation: JSON.stringify(changes.aggregation) } : {}),
  ...(changes.metadata ? { metadata: JSON.stringify(changes.metadata) } : {}),
});

export async function insertMeter(db: Knex, draft: MeterDraft): Promise<MeterRow> {
  const [row] = await meters(db)
    .insert({ id: randomId(32), ...asJson(draft) } as never)
    .returning("*");
  if (!row) throw new Error("insert into meters returned no row");
  return row;
}

export async function updateMeter(db: Knex, id: string, changes: MeterChanges): Promise<MeterRow> {
  const [row] = await meters(db)
    .where({ id })
    .update({ ...asJson(changes), modified_at: db.fn.now() } as never)
    .returning("*");
  if (!row) throw new Error(`meter ${id} vanished`);
  return row;
}

export const METER_SORTABLE = { created_at: "created_at", name: "name" } as const;

export function pageOfMeters(
  db: Knex,
  filter: { organizationIds: string[]; organization_id?: string[]; query?: string; is_archived?: boolean; metadata: Map<string, string[]> },
  page: { page: number; limit: number; sort: Sort<keyof typeof METER_SORTABLE> },
) {
  const found = meters(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  if (filter.query) void found.whereILike("name", `%${filter.query}%`);
  if (filter.is_archived !== undefined) void (filter.is_archived ? found.whereNotNull("archived_at") : found.whereNull("archived_at"));
  whereMetadata(found, "meters.metadata", filter.metadata);
  return pageOf<MeterRow, keyof typeof METER_SORTABLE>(found, { ...page, columns: METER_SORTABLE, table: "meters" });
}

/**
 * Ingestion holds the seller's meters shared; creating or redefining a meter holds them alone, so
 * its backfill sees every event committed before it and no batch commits without the meter.
 */
export const holdMetersShared = (db: Knex, organizationId: string) => db.raw("select pg_advisory_xact_lock_shared(hashtext(?))", [`meters:${organizationId}`]);
export const holdMetersAlone = (db: Knex, organizationId: string) => db.raw("select pg_advisory_xact_lock(hashtext(?))", [`meters:${organizationId}`]);

/** Adds a batch's tallies to the rollups, one statement for the whole batch. */
export async function addToRollups(db: Knex, rollups: RollupDelta[]): Promise<void> {
  if (rollups.length === 0) return;
  await db.raw(
    `insert into meter_rollups as r (meter_id, customer_key, bucket, count, sum, min, max)
     select * from unnest(?::text[], ?::text[], ?::timestamptz[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[])
     on conflict (meter_id, customer_key, bucket) do update set
       count = r.count + excluded.count, sum = r.sum + excluded.sum,
       min = least(r.min, excluded.min), max = greatest(r.max, excluded.max)`,
    arrayBindings([
      rollups.map((row) => row.meter_id),
      rollups.map((row) => row.customer_key),
      rollups.map((row) => row.bucket.toISOString()),
      rollups.map((row) => row.count),
      rollups.map((row) => row.sum),
      rollups.map((row) => row.min),
      rollups.map((row) => row.max),
    ]),
  );
}

export async function addUniqueValues(db: Knex, values: UniqueValue[]): Promise<void> {
  if (values.length === 0) return;
  await db.raw(
    `insert into meter_unique_values (meter_id, customer_key, bucket, value)
     select * from unnest(?::text[], ?::text[], ?::timestamptz[], ?::text[]) on conflict do nothing`,
    [values.map((row) => row.meter_id), values.map((row) => row.customer_key), values.map((row) => row.bucket.toISOString()), values.map((row) => row.value)],
  );
}

/** Forgets what a meter measured, before it is measured again under a new definition. */
export async function clearRollups(db: Knex, meterId: string): Promise<void> {
  await db("meter_rollups").where({ meter_id: meterId }).delete();
  await db("meter_unique_values").where({ meter_id: meterId }).delete();
}

export type Interval = "hour" | "day" | "week" | "month" | "year";

export interface PeriodQuery {
  meterId: string;
  /** Rollup customer keys to read ('*' for every customer together), or null for every customer apart. */
  customerKeys: string[] | null;
  interval: Interval;
  timezone: string;
  start: Date;
  end: Date;
}

/** The periods from the one holding `start` to the one holding `end`, each as the instant it starts in the time zone. */
export async function periodsBetween(db: Knex, query: PeriodQuery): Promise<Date[]> {
  const { rows } = await db.raw<{ rows: { period: Date }[] }>(
    `select period at time zone :timezone as period
     from generate_series(date_trunc(:interval, cast(:start as timestamptz) at time zone :timezone), date_trunc(:interval, cast(:end as timestamptz) at time zone :timezone), cast('1 ' || :interval as interval)) as period`,
    { ...query, start: query.start.toISOString(), end: query.end.toISOString() },
  );
  return rows.map((row) => row.period);
}

/**
 * Whole periods, from the first one's start to the last one's end, for a time column (the rollups'
 * bucket or an event's timestamp), with the bindings of `periodBindings`.
 */
export const periodRange = (column: string) => `${column} >= date_trunc(:interval, cast(:start as timestamptz) at time zone :timezone) at time zone :timezone
  and ${column} < (date_trunc(:interval, cast(:end as timestamptz) at time zone :timezone) + cast('1 ' || :interval as interval)) at time zone :timezone`;
/** The start of the period holding the time column's value. */
export const periodOf = (column: string) => `date_trunc(:interval, ${column} at time zone :timezone) at time zone :timezone`;
export const periodBindings = (query: PeriodQuery) => ({ ...query, start: query.start.toISOString(), end: query.end.toISOString(), keys: query.customerKeys ?? [] });

const PERIOD_RANGE = periodRange("bucket");
const CUSTOMERS = (query: PeriodQuery) => (query.customerKeys ? "customer_key = any(:keys)" : "customer_key <> '*'");
const PERIOD = periodOf("bucket");

export type PeriodTally = Tally & { period: Date; customer_key: string; distinct: number };

/**
 * The meter's tallies per period (and per customer key when `perCustomer`), read from the quarter-hour
 * rollups: a year of daily quantities reads at most 35,040 rows a customer key, never the events.
 */
export async function periodTallies(db: Knex, query: PeriodQuery, perCustomer: boolean, unique: boolean): Promise<PeriodTally[]> {
  const bindings = periodBindings(query);
  const key = perCustomer ? "customer_key" : "'*'";
  if (unique) {
    const { rows } = await db.raw<{ rows: { period: Date; customer_key: string; distinct_values: string }[] }>(
      `select ${PERIOD} as period, ${key} as customer_key, count(distinct value) as distinct_values
       from meter_unique_values where meter_id = :meterId and ${CUSTOMERS(query)} and ${PERIOD_RANGE} group by 1, 2`,
      bindings,
    );
    return rows.map((row) => ({ period: row.period, customer_key: row.customer_key, distinct: Number(row.distinct_values), count: 0, sum: 0, min: null, max: null }));
  }
  const { rows } = await db.raw<{ rows: (Tally & { period: Date; customer_key: string; count: string })[] }>(
    `select ${PERIOD} as period, ${key} as customer_key, sum(count) as count, sum(sum) as sum, min(min) as min, max(max) as max
     from meter_rollups where meter_id = :meterId and ${CUSTOMERS(query)} and ${PERIOD_RANGE} group by 1, 2`,
    bindings,
  );
  return rows.map((row) => ({ ...row, count: Number(row.count), distinct: 0 }));
}

/** How many distinct values a unique meter saw over the whole range. */
export async function distinctInRange(db: Knex, query: PeriodQuery): Promise<number> {
  const { rows } = await db.raw<{ rows: { distinct_values: string }[] }>(
    `select count(distinct value) as distinct_values from meter_unique_values where meter_id = :meterId and ${CUSTOMERS(query)} and ${PERIOD_RANGE}`,
    periodBindings(query),
  );
  return Number(rows[0]?.distinct_values ?? 0);
}
