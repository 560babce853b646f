import type { Knex } from "@tollgate/kit";
import type { Aggregation, Filter } from "./filter.js";

type Clause = Exclude<Filter["clauses"][number], Filter>;

/**
 * An event's property as jsonb, read as `filter.ts` reads it: `name`, `source` and `timestamp` (in
 * whole seconds) from their columns; anything else from the metadata, a key as written or else a
 * dotted path into nested objects (`metadata.` may lead).
 */
function propertySql(db: Knex, table: string, property: string): Knex.Raw {
  if (property === "name" || property === "source") return db.raw("to_jsonb(??)", [`${table}.${property}`]);
  if (property === "timestamp") return db.raw("to_jsonb(floor(extract(epoch from ??))::bigint)", [`${table}.timestamp`]);
  const key = property.replace(/^metadata\./, "");
  return db.raw("coalesce(?? -> ?, ?? #> ?)", [`${table}.metadata`, key, `${table}.metadata`, key.split(".")]);
}

const COMPARISONS = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** A jsonb scalar as `like` reads it: text, booleans as `t`/`f` (Polar's way). */
const asText = (db: Knex, value: Knex.Raw) => db.raw("(case when jsonb_typeof(?) = 'boolean' then (case when (?)::boolean then 't' else 'f' end) else ? #>> '{}' end)", [value, value, value]);

/**
 * The clause as `filter.ts` holds it: a value compares only with one of its own type (strings in
 * code point order, as JavaScript compares them), `like` looks for the text anywhere, and a property
 * the event lacks never matches.
 */
function clauseSql(db: Knex, table: string, clause: Clause): Knex.Raw {
  const value = propertySql(db, table, clause.property);
  if (clause.operator === "like" || clause.operator === "not_like") {
    const expected = typeof clause.value === "boolean" ? (clause.value ? "t" : "f") : String(clause.value);
    return db.raw(`(jsonb_typeof(?) in ('string', 'number', 'boolean') and strpos(?, ?) ${clause.operator === "like" ? ">" : "="} 0)`, [value, asText(db, value), expected]);
  }
  const operator = COMPARISONS[clause.operator];
  if (typeof clause.value === "string") return db.raw(`(jsonb_typeof(?) = 'string' and (? #>> '{}') collate "C" ${operator} ?)`, [value, value, clause.value]);
  if (typeof clause.value === "number") return db.raw(`(jsonb_typeof(?) = 'number' and (?)::numeric ${operator} ?)`, [value, value, clause.value]);
  return db.raw(`(jsonb_typeof(?) = 'boolean' and (?)::boolean ${operator} ?)`, [value, value, clause.value]);
}

/** A meter filter as a condition on the events of `table`; an empty group passes everything. */
export function filterSql(db: Knex, table: string, filter: Filter): Knex.Raw {
  if (filter.clauses.length === 0) return db.raw("true");
  const parts = filter.clauses.map((clause) => ("conjunction" in clause ? filterSql(db, table, clause) : clauseSql(db, table, clause)));
  return db.raw(`(${parts.map(() => "?").join(` ${filter.conjunction} `)})`, parts);
}

/**
 * What an event of `table` adds to a meter, as `contribution` in `filter.ts` has it: `value` (a
 * number, 1 for a count), `unique` (the text a unique meter counts) and `counts`, whether it adds
 * anything at all.
 */
export function contributionSql(db: Knex, table: string, aggregation: Aggregation): { value: Knex.Raw; unique: Knex.Raw; counts: Knex.Raw } {
  if (aggregation.func === "count") return { value: db.raw("1"), unique: db.raw("null"), counts: db.raw("true") };
  const value = propertySql(db, table, aggregation.property);
  if (aggregation.func === "unique") {
    // Metadata holds only scalars, so a unique value is one as `like` reads it.
    return { value: db.raw("1"), unique: asText(db, value), counts: db.raw("coalesce(jsonb_typeof(?), 'null') <> 'null'", [value]) };
  }
  return { value: db.raw("(case when jsonb_typeof(?) = 'number' then (?)::float8 end)", [value, value]), unique: db.raw("null"), counts: db.raw("jsonb_typeof(?) = 'number'", [value]) };
}
