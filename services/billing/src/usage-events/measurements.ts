import type { Knex } from "@tollgate/kit";
import { addCustomerValues, addToCustomerMeters, countDistinctValues, resetConsumption } from "../customer-meters/customer-meters.sql.js";
import { measuredEventsAfter } from "./usage-events.sql.js";
import { addToRollups, addUniqueValues } from "../meters/meters.sql.js";
import type { Remeasuring } from "../meters/service.js";
import { foldEvents, type MeasuredEvent, type MeterDefinition } from "../meters/rollups.js";

/** How many stored events a backfill reads at a time. */
const BACKFILL_PAGE = 5_000;

/**
 * Adds events to the meters they match: the rollups that quantities read, the distinct values of
 * unique meters (per bucket, and per customer as measured), and the customers' meters. The customers
 * whose meters moved.
 */
export async function measure(db: Knex, organizationId: string, events: MeasuredEvent[], meters: MeterDefinition[]): Promise<string[]> {
  if (events.length === 0 || meters.length === 0) return [];
  const fold = foldEvents(events, meters);
  const aggregationOf = new Map(meters.map((meter) => [meter.id, meter.aggregation.func]));
  await addToRollups(db, fold.rollups);
  await addUniqueValues(db, fold.uniqueValues);
  await addToCustomerMeters(
    db,
    organizationId,
    fold.customers.map((delta) => ({ ...delta, aggregation: aggregationOf.get(delta.meter_id) ?? "count" })),
  );
  await addCustomerValues(db, fold.customerValues);
  // Distinct values do not add up: a unique meter's customers are counted again from this period's values.
  for (const meter of meters.filter((candidate) => candidate.aggregation.func === "unique")) {
    await countDistinctValues(db, meter.id, [...new Set(fold.customers.filter((delta) => delta.meter_id === meter.id).map((delta) => delta.customer_id))]);
  }
  return [...new Set(fold.customers.map((delta) => delta.customer_id))];
}

/** Measures every event the seller already sent (and the measurer has measured) with a meter that is new or redefined. */
export async function backfill(db: Knex, organizationId: string, meter: MeterDefinition): Promise<void> {
  let after: { timestamp: Date; id: string } | null = null;
  for (;;) {
    const page = await measuredEventsAfter(db, organizationId, after, BACKFILL_PAGE);
    await measure(db, organizationId, page, [meter]);
    const last = page.at(-1);
    if (!last || page.length < BACKFILL_PAGE) return;
    after = { timestamp: last.timestamp, id: last.id };
  }
}

/** Measuring again with a new or redefined meter, as meters' changes are handed it. */
export const remeasuring: Remeasuring = { resetConsumption, backfill };
