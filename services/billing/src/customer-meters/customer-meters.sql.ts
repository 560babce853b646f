import { arrayBindings } from "../db/arrays.js";
import { pageOf, randomId, type Knex, type Sort } from "@tollgate/kit";
import type { CustomerDelta, CustomerValue } from "../meters/rollups.js";

export interface CustomerMeterRow {
  id: string;
  organization_id: string;
  customer_id: string;
  meter_id: string;
  aggregation: string;
  consumed_units: number;
  credited_units: number;
  created_at: Date;
  modified_at: Date | null;
}

const customerMeters = (db: Knex) => db<CustomerMeterRow>("customer_meters");

/**
 * Adds a batch's tallies to its customers' meters, creating the meters a customer uses for the
 * first time, and sets consumed units by the meter's aggregation (a unique meter's are counted apart).
 */
export async function addToCustomerMeters(db: Knex, organizationId: string, deltas: (CustomerDelta & { aggregation: string })[]): Promise<void> {
  if (deltas.length === 0) return;
  await db.raw(
    `insert into customer_meters as c (id, organization_id, customer_id, meter_id, aggregation, count, sum, min, max, consumed_units)
     select d.id, ?, d.customer_id, d.meter_id, d.aggregation, d.count, d.sum, d.min, d.max,
       case d.aggregation when 'count' then d.count when 'sum' then d.sum when 'max' then d.max when 'min' then d.min when 'avg' then d.sum / nullif(d.count, 0) else 0 end
     from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[]) as d(id, customer_id, meter_id, aggregation, count, sum, min, max)
     on conflict (customer_id, meter_id) do update set
       count = c.count + excluded.count, sum = c.sum + excluded.sum,
       min = least(c.min, excluded.min), max = greatest(c.max, excluded.max), modified_at = now(),
       consumed_units = case excluded.aggregation
         when 'count' then c.count + excluded.count when 'sum' then c.sum + excluded.sum
         when 'max' then greatest(c.max, excluded.max) when 'min' then least(c.min, excluded.min)
         when 'avg' then (c.sum + excluded.sum) / nullif(c.count + excluded.count, 0) else c.consumed_units end`,
    arrayBindings([
      organizationId,
      deltas.map(() => randomId(32)),
      deltas.map((delta) => delta.customer_id),
      deltas.map((delta) => delta.meter_id),
      deltas.map((delta) => delta.aggregation),
      deltas.map((delta) => delta.count),
      deltas.map((delta) => delta.sum),
      deltas.map((delta) => delta.min),
      deltas.map((delta) => delta.max),
    ]),
  );
}

/**
 * Records the values customers sent unique meters as measured now (a value seen again this period
 * counts in it again), one row per customer, meter and value.
 */
export async function addCustomerValues(db: Knex, values: CustomerValue[]): Promise<void> {
  if (values.length === 0) return;
  await db.raw(
    `insert into customer_meter_values (customer_id, meter_id, value, measured_at)
     select d.customer_id, d.meter_id, d.value, now() from unnest(?::text[], ?::text[], ?::text[]) as d(customer_id, meter_id, value)
     on conflict (meter_id, customer_id, value) do update set measured_at = excluded.measured_at`,
    [values.map((row) => row.customer_id), values.map((row) => row.meter_id), values.map((row) => row.value)],
  );
}

/** Sets a unique meter's consumed units for the customers given: the distinct values each sent since their period started. */
export async function countDistinctValues(db: Knex, meterId: string, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await db.raw(
    `update customer_meters as c set modified_at = now(), consumed_units = (
       select count(*) from customer_meter_values v where v.meter_id = c.meter_id and v.customer_id = c.customer_id and v.measured_at >= coalesce(c.period_start, '-infinity'))
     where c.meter_id = ? and c.customer_id = any(?)`,
    [meterId, customerIds],
  );
}

/**
 * Adds `units` to the customer's credit on a meter (takes them away when negative, never below
 * zero), making the customer meter if the customer has none yet: a change to write with a unit's
 * others. Zero units only makes sure the customer meter exists (a subscription billed by the meter).
 */
export const creditCustomerMeter = (db: Knex, credit: { organizationId: string; customerId: string; meterId: string; units: number }): Knex.QueryBuilder =>
  db("customer_meters")
    .insert({
      id: randomId(32),
      organization_id: credit.organizationId,
      customer_id: credit.customerId,
      meter_id: credit.meterId,
      // crosses into meters: the meter's aggregation is copied in the statement that makes the customer meter.
      aggregation: db("meters").where({ id: credit.meterId }).select(db.raw("aggregation->>'func'")),
      credited_units: Math.max(0, credit.units),
    })
    .onConflict(["customer_id", "meter_id"])
    .merge({ credited_units: db.raw("greatest(0, customer_meters.credited_units + ?)", [credit.units]), modified_at: db.fn.now() });

/** What a customer's meter holds: its standing, the tallies behind the consumption that a new period takes away, and when it was read. */
export type CustomerMeterStanding = CustomerMeterRow & { count: number; sum: number; read_at: Date };

/** The customers' meters among `meterIds`, with the tallies behind their consumption, as read now. */
export const standingsOf = async (db: Knex, customerIds: string[], meterIds: string[]): Promise<CustomerMeterStanding[]> =>
  meterIds.length === 0
    ? []
    : (await customerMeters(db).whereIn("customer_id", customerIds).whereIn("meter_id", meterIds).select<CustomerMeterStanding[]>("*", db.raw("now() as read_at"))).map((row) => ({ ...row, count: Number(row.count) }));

/**
 * How a customer meter's period ends: the tallies billed for it, the credit the next period starts
 * with, and when the next period started (the moment the billed standing was read). Plain JSON, so a
 * renewal can keep it on the subscription until it settles.
 */
export interface MeterPeriodEnd {
  id: string;
  count: number;
  sum: number;
  credited: number;
  next_start: string;
}

/**
 * Starts a new period on customer meters: the tallies billed are taken away (so events measured
 * since stay for the next period), min and max start over, the credit becomes `credited`, and a
 * unique meter counts the values measured since the billed standing was read.
 */
export async function startNewPeriods(db: Knex, periods: MeterPeriodEnd[]): Promise<void> {
  if (periods.length === 0) return;
  await db.raw(
    `update customer_meters as c set count = c.count - p.count, sum = c.sum - p.sum, min = null, max = null, credited_units = p.credited, period_start = p.next_start, modified_at = now(),
       consumed_units = case c.aggregation when 'count' then c.count - p.count when 'sum' then c.sum - p.sum when 'avg' then coalesce((c.sum - p.sum) / nullif(c.count - p.count, 0), 0)
         when 'unique' then (select count(*) from customer_meter_values v where v.meter_id = c.meter_id and v.customer_id = c.customer_id and v.measured_at >= p.next_start) else 0 end
     from unnest(?::text[], ?::bigint[], ?::float8[], ?::int[], ?::timestamptz[]) as p(id, count, sum, credited, next_start) where c.id = p.id`,
    [periods.map((period) => period.id), periods.map((period) => period.count), periods.map((period) => period.sum), periods.map((period) => period.credited), periods.map((period) => period.next_start)],
  );
}

/** Zeroes what customers consumed on a meter that is about to be measured again (and the values it counted); what they were credited stays. */
export async function resetConsumption(db: Knex, meterId: string, aggregation: string): Promise<void> {
  await db("customer_meter_values").where({ meter_id: meterId }).delete();
  await customerMeters(db).where({ meter_id: meterId }).update({ aggregation, count: 0, sum: 0, min: null, max: null, consumed_units: 0, modified_at: db.fn.now() } as never);
}

export const findCustomerMeter = (db: Knex, id: string) => customerMeters(db).where({ id }).first("id", "organization_id", "customer_id", "meter_id", "aggregation", "consumed_units", "credited_units", "created_at", "modified_at");

export const CUSTOMER_METER_SORTABLE = {
  created_at: "customer_meters.created_at",
  modified_at: "customer_meters.modified_at",
  customer_id: "customer_meters.customer_id",
  customer_name: "customers.name",
  meter_id: "customer_meters.meter_id",
  meter_name: "meters.name",
  consumed_units: "customer_meters.consumed_units",
  credited_units: "customer_meters.credited_units",
  balance: "balance",
} as const;

export interface CustomerMeterFilter {
  organizationIds: string[];
  customerIds?: string[];
  externalCustomerIds?: string[];
  meterIds?: string[];
  meterName?: string;
}

/** Customer meters with their customer's and meter's names, to filter and sort by them. */
export function pageOfCustomerMeters(db: Knex, filter: CustomerMeterFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CUSTOMER_METER_SORTABLE> }) {
  const found = customerMeters(db)
    .whereIn("customer_meters.organization_id", filter.organizationIds)
    // crosses into customers and meters: sorting and filtering by their names needs them in the one statement.
    .join("customers", "customers.id", "customer_meters.customer_id")
    .join("meters", "meters.id", "customer_meters.meter_id") // crosses into meters: the same sort by name
    .select("customer_meters.id", "customer_meters.organization_id", "customer_meters.customer_id", "customer_meters.meter_id", "customer_meters.aggregation", "customer_meters.consumed_units", "customer_meters.credited_units", "customer_meters.created_at", "customer_meters.modified_at")
    .select(db.raw("customer_meters.credited_units - customer_meters.consumed_units as balance"));
  if (filter.customerIds) void found.whereIn("customer_meters.customer_id", filter.customerIds);
  if (filter.externalCustomerIds) void found.whereIn("customers.external_id", filter.externalCustomerIds); // crosses into customers: external ids live there
  if (filter.meterIds) void found.whereIn("customer_meters.meter_id", filter.meterIds);
  if (filter.meterName) void found.whereILike("meters.name", `%${filter.meterName}%`); // crosses into meters: the portal's search by meter name
  return pageOf<CustomerMeterRow, keyof typeof CUSTOMER_METER_SORTABLE>(found, { ...page, columns: CUSTOMER_METER_SORTABLE, table: "customer_meters" });
}
