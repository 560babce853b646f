import { invalidField, ValidationError, type Knex } from "@tollgate/kit";
import type { z } from "zod";
import { customersNamed } from "../customers/customers.sql.js";
import { distinctInRange, periodsBetween, periodTallies, type Interval, type MeterRow, type PeriodQuery, type PeriodTally } from "../meters/meters.sql.js";
import { ALL_CUSTOMERS, quantityOf, type Tally } from "../meters/rollups.js";
import type { CustomerAggregationFunction } from "../meters/schemas.js";
import { eventTallies } from "./usage-events.sql.js";

/** The longest range each interval may span, in days, as Polar bounds it. */
const MAX_DAYS: Record<Interval, number> = { hour: 7, day: 366, week: 7 * 53, month: 365 * 4, year: 365 * 10 };

const merged = (tallies: Tally[]): Tally =>
  tallies.reduce<Tally>(
    (total, tally) => ({
      count: total.count + tally.count,
      sum: total.sum + tally.sum,
      min: tally.min === null ? total.min : Math.min(total.min ?? tally.min, tally.min),
      max: tally.max === null ? total.max : Math.max(total.max ?? tally.max, tally.max),
    }),
    { count: 0, sum: 0, min: null, max: null },
  );

/** Combines per-customer quantities of one period with the function the caller asked for. */
function acrossCustomers(fn: z.output<typeof CustomerAggregationFunction>, quantities: number[]): number {
  if (quantities.length === 0) return 0;
  switch (fn) {
    case "count":
      return quantities.length;
    case "sum":
      return quantities.reduce((sum, quantity) => sum + quantity, 0);
    case "max":
      return Math.max(...quantities);
    case "min":
      return Math.min(...quantities);
    case "avg":
      return quantities.reduce((sum, quantity) => sum + quantity, 0) / quantities.length;
    case "unique":
      return new Set(quantities).size;
  }
}

/** How long a quantity filtered by metadata may read events before it is refused. */
const EVENT_READ_TIMEOUT_MS = 3_000;

/**
 * The meter's tallies for a quantity: from its quarter-hour rollups, or, when metadata narrows the
 * events (rollups do not keep it), from the events of the range themselves, in a bounded read.
 */
async function talliesFor(db: Knex, meter: MeterRow, query: PeriodQuery, perCustomer: boolean, metadata: Map<string, string[]>): Promise<{ tallies: PeriodTally[]; distinct: () => Promise<number> }> {
  if (metadata.size === 0) {
    return { tallies: await periodTallies(db, query, perCustomer, meter.aggregation.func === "unique"), distinct: () => distinctInRange(db, query) };
  }
  try {
    const { tallies, distinct } = await eventTallies(db, { organizationId: meter.organization_id, meter, metadata }, query, perCustomer, EVENT_READ_TIMEOUT_MS);
    return { tallies, distinct: () => Promise.resolve(distinct) };
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "57014") {
      throw new ValidationError([{ location: "query", path: ["metadata"], message: "Too many events in this range to filter by metadata: narrow the range or the customers", code: "value_error", input: Object.fromEntries(metadata) }]);
    }
    throw error;
  }
}

/**
 * A meter's quantity per period of the range, in the time zone, with the total over the range:
 * counts and sums add up, max and min are those of the range, an average is the range's sum over
 * its count, unique values are counted once over the range. With a customer aggregation function,
 * each period is first measured per customer, then combined with it (Polar's way).
 */
export async function meterQuantities(
  db: Knex,
  meter: MeterRow,
  query: Omit<PeriodQuery, "meterId">,
  customerAggregation: z.output<typeof CustomerAggregationFunction> | undefined,
  metadata: Map<string, string[]>,
): Promise<{ quantities: { timestamp: Date; quantity: number }[]; total: number }> {
  if (query.end < query.start) throw invalidField(["end_timestamp"], "end_timestamp must be after start_timestamp", query.end.toISOString());
  if (query.end.getTime() - query.start.getTime() > MAX_DAYS[query.interval] * 86_400_000) {
    throw invalidField(["end_timestamp"], `The ${query.interval} interval spans at most ${MAX_DAYS[query.interval]} days`, query.end.toISOString());
  }
  const periodQuery = { ...query, meterId: meter.id };
  const unique = meter.aggregation.func === "unique";
  const periods = await periodsBetween(db, periodQuery);
  const { tallies, distinct } = await talliesFor(db, meter, periodQuery, customerAggregation !== undefined, metadata);
  const inPeriod = (period: Date) => tallies.filter((tally) => tally.period.getTime() === period.getTime());
  const measureOf = (rows: PeriodTally[]) => quantityOf(meter.aggregation, merged(rows), rows.reduce((sum, row) => sum + row.distinct, 0));
  const quantities = periods.map((period) => ({
    timestamp: period,
    quantity: customerAggregation ? acrossCustomers(customerAggregation, inPeriod(period).map((row) => measureOf([row]))) : measureOf(inPeriod(period)),
  }));
  const total =
    customerAggregation && meter.aggregation.func !== "avg" && !unique
      ? acrossCustomers(meter.aggregation.func === "count" ? "sum" : meter.aggregation.func, quantities.map((period) => period.quantity))
      : quantityOf(meter.aggregation, merged(tallies), unique ? await distinct() : 0);
  return { quantities, total };
}

/**
 * The rollup keys a quantity reads: every customer together (or apart, to combine them with a
 * customer aggregation function), or the customers named, by id or external id; an external id
 * also reads the events sent for it before its customer existed.
 */
export async function customerKeysFor(db: Knex, organizationId: string, ids: string[] | undefined, externalIds: string[] | undefined, apart: boolean): Promise<string[] | null> {
  if (!ids && !externalIds) return apart ? null : [ALL_CUSTOMERS];
  const found = await customersNamed(db, [organizationId], ids ?? [], externalIds ?? []);
  return [...found.map((customer) => customer.id), ...(externalIds ?? []).map((externalId) => `external:${externalId}`)];
}
