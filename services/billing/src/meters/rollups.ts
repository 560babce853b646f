import { contribution, matches, type Aggregation, type Filter, type MeteredEvent } from "./filter.js";

/** Rollups are kept per quarter of an hour: every time zone in use today starts its days on one. */
export const BUCKET_MS = 15 * 60 * 1000;

/** The customer key of the rollup row that holds every customer together. */
export const ALL_CUSTOMERS = "*";

export interface MeasuredEvent extends MeteredEvent {
  customer_id: string | null;
  external_customer_id: string | null;
}

export interface MeterDefinition {
  id: string;
  filter: Filter;
  aggregation: Aggregation;
}

/** Additions to one meter's numbers, for a bucket or for a customer. */
export interface Tally {
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
}

export interface RollupDelta extends Tally {
  meter_id: string;
  customer_key: string;
  bucket: Date;
}

export interface UniqueValue {
  meter_id: string;
  customer_key: string;
  bucket: Date;
  value: string;
}

export interface CustomerDelta extends Tally {
  meter_id: string;
  customer_id: string;
}

/** A value a known customer sent a unique meter. */
export interface CustomerValue {
  meter_id: string;
  customer_id: string;
  value: string;
}

export interface Fold {
  rollups: RollupDelta[];
  uniqueValues: UniqueValue[];
  customers: CustomerDelta[];
  customerValues: CustomerValue[];
}

/** The rollup key of an event's customer: its id once known, else the external id it was sent with. */
export const customerKeyOf = (event: Pick<MeasuredEvent, "customer_id" | "external_customer_id">) =>
  event.customer_id ?? (event.external_customer_id === null ? null : `external:${event.external_customer_id}`);

const add = (tally: Tally, value: number) => {
  tally.count += 1;
  tally.sum += value;
  tally.min = tally.min === null ? value : Math.min(tally.min, value);
  tally.max = tally.max === null ? value : Math.max(tally.max, value);
};

const emptyTally = (): Tally => ({ count: 0, sum: 0, min: null, max: null });

/**
 * What a batch of events adds to the meters, gathered so that each rollup row, unique value and
 * customer meter is written once per batch, in a fixed order (concurrent batches lock rows in the
 * same order and cannot deadlock).
 */
export function foldEvents(events: MeasuredEvent[], meters: MeterDefinition[]): Fold {
  const rollups = new Map<string, RollupDelta>();
  const uniqueValues = new Map<string, UniqueValue>();
  const customers = new Map<string, CustomerDelta>();
  const customerValues = new Map<string, CustomerValue>();
  for (const meter of meters) {
    for (const event of events) {
      if (!matches(event, meter.filter)) continue;
      const measured = contribution(event, meter.aggregation);
      if (!measured) continue;
      const bucket = new Date(Math.floor(event.timestamp.getTime() / BUCKET_MS) * BUCKET_MS);
      const customerKey = customerKeyOf(event);
      for (const key of customerKey === null ? [ALL_CUSTOMERS] : [ALL_CUSTOMERS, customerKey]) {
        const rollupKey = `${meter.id}\u0000${key}\u0000${bucket.getTime()}`;
        const rollup = rollups.get(rollupKey) ?? { meter_id: meter.id, customer_key: key, bucket, ...emptyTally() };
        add(rollup, measured.value);
        rollups.set(rollupKey, rollup);
        if (measured.unique !== null) uniqueValues.set(`${rollupKey}\u0000${measured.unique}`, { meter_id: meter.id, customer_key: key, bucket, value: measured.unique });
      }
      if (event.customer_id !== null) {
        const customerKey = `${meter.id}\u0000${event.customer_id}`;
        const tally = customers.get(customerKey) ?? { meter_id: meter.id, customer_id: event.customer_id, ...emptyTally() };
        add(tally, measured.value);
        customers.set(customerKey, tally);
        if (measured.unique !== null) customerValues.set(`${customerKey}\u0000${measured.unique}`, { meter_id: meter.id, customer_id: event.customer_id, value: measured.unique });
      }
    }
  }
  const inKeyOrder = <Row>(map: Map<string, Row>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { rollups: inKeyOrder(rollups), uniqueValues: inKeyOrder(uniqueValues), customers: inKeyOrder(customers), customerValues: inKeyOrder(customerValues) };
}

/** A meter's quantity from its tallies, as its aggregation reads them (a unique meter's comes from its distinct values). */
export function quantityOf(aggregation: Aggregation, tally: Tally, distinctValues: number): number {
  switch (aggregation.func) {
    case "count":
      return tally.count;
    case "sum":
      return tally.sum;
    case "max":
      return tally.max ?? 0;
    case "min":
      return tally.min ?? 0;
    case "avg":
      return tally.count === 0 ? 0 : tally.sum / tally.count;
    case "unique":
      return distinctValues;
  }
}
