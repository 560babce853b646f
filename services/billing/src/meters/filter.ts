import { z } from "zod";

export const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"] as const;

/** A property of the event (`name`, `source`, `timestamp`) or of its metadata (`metadata.` may lead, as Polar allows). */
const property = z.string().min(1);

export const FilterClause = z
  .strictObject({ property, operator: z.enum(FILTER_OPERATORS), value: z.union([z.string().max(1000), z.int32(), z.boolean()]) })
  .meta({ id: "FilterClause" });

export interface Filter {
  conjunction: "and" | "or";
  clauses: (z.output<typeof FilterClause> | Filter)[];
}

export const Filter: z.ZodType<Filter> = z
  .strictObject({
    conjunction: z.enum(["and", "or"]),
    get clauses() {
      return z.array(z.union([FilterClause, Filter]));
    },
  })
  .meta({ id: "Filter" });

const CountAggregation = z.strictObject({ func: z.literal("count") }).meta({ id: "CountAggregation" });
const PropertyAggregation = z.strictObject({ func: z.enum(["sum", "max", "min", "avg"]), property }).meta({ id: "PropertyAggregation" });
const UniqueAggregation = z.strictObject({ func: z.literal("unique"), property }).meta({ id: "UniqueAggregation" });

export const Aggregation = z.union([CountAggregation, PropertyAggregation, UniqueAggregation]);
export type Aggregation = z.output<typeof Aggregation>;

/** What a meter reads of an event: its name, source, time and metadata. */
export interface MeteredEvent {
  name: string;
  source: string;
  timestamp: Date;
  metadata: Record<string, unknown>;
}

type Clause = z.output<typeof FilterClause>;

/** The event's value for a filter or aggregation property; metadata keys may be dotted paths into nested objects. */
function propertyOf(event: MeteredEvent, property: string): unknown {
  const name = property.replace(/^metadata\./, "");
  if (property === "name") return event.name;
  if (property === "source") return event.source;
  if (property === "timestamp") return Math.floor(event.timestamp.getTime() / 1000);
  if (name in event.metadata) return event.metadata[name];
  let value: unknown = event.metadata;
  for (const key of name.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** As Postgres writes the value as text: `like` compares everything as text, booleans as `t`/`f` (Polar's way). */
const asText = (value: unknown) => (typeof value === "boolean" ? (value ? "t" : "f") : String(value));

function compare(actual: string | number | boolean, operator: Clause["operator"], expected: string | number | boolean): boolean {
  switch (operator) {
    case "eq":
      return actual === expected;
    case "ne":
      return actual !== expected;
    case "gt":
      return actual > expected;
    case "gte":
      return actual >= expected;
    case "lt":
      return actual < expected;
    case "lte":
      return actual <= expected;
    case "like":
      return asText(actual).includes(asText(expected));
    case "not_like":
      return !asText(actual).includes(asText(expected));
  }
}

/**
 * Whether a clause holds, as Polar's filter does: a value compares only with one of its own type
 * (a string with a string, a number with a number, a boolean with a boolean), except that `like`
 * compares text; a property the event lacks never matches.
 */
function clauseHolds(event: MeteredEvent, clause: Clause): boolean {
  const actual = propertyOf(event, clause.property);
  if (typeof actual !== "string" && typeof actual !== "number" && typeof actual !== "boolean") return false;
  if (clause.operator !== "like" && clause.operator !== "not_like" && typeof actual !== typeof clause.value) return false;
  return compare(actual, clause.operator, clause.value);
}

/** Whether the event passes the meter's filter; an empty group passes everything. */
export function matches(event: MeteredEvent, filter: Filter): boolean {
  const holds = (clause: Filter["clauses"][number]) => ("conjunction" in clause ? matches(event, clause) : clauseHolds(event, clause));
  return filter.conjunction === "and" ? filter.clauses.every(holds) : filter.clauses.length === 0 || filter.clauses.some(holds);
}

/**
 * What the event adds to a meter: nothing (null) when the aggregated property is missing or of the
 * wrong type (a number for sum, min, max and avg; any value for unique); 1 for a count.
 */
export function contribution(event: MeteredEvent, aggregation: Aggregation): { value: number; unique: string | null } | null {
  if (aggregation.func === "count") return { value: 1, unique: null };
  const value = propertyOf(event, aggregation.property);
  if (aggregation.func === "unique") {
    if (value === undefined || value === null) return null;
    return { value: 1, unique: typeof value === "object" ? JSON.stringify(value) : asText(value) };
  }
  return typeof value === "number" ? { value, unique: null } : null;
}
