import { defineMessages } from "react-intl";
import type { Path } from "react-hook-form";
import * as z from "zod/mini";
import { t } from "../../i18n/translate";
import { atLeast, atMost, says, trimmed } from "../../forms/schemas";
import { AGGREGATIONS, OPERATORS, type Meter, type MeterChange, type MeterFilter, type MeterFilterClause, type MeterUpdate } from "./meters-api";

const messages = defineMessages({
  property: { id: "forms.meter.property", defaultMessage: "Enter the property: name, source or a metadata key" },
  aggregationProperty: { id: "forms.meter.aggregationProperty", defaultMessage: "Enter the metadata key whose values are measured" },
});

const INT32 = 2 ** 31;
const conjunction = z.enum(["and", "or"]);
const clause = z.object({ property: trimmed(z.minLength(1, says(messages.property)), z.maxLength(300, atMost(300))), operator: z.enum(OPERATORS), value: z.string().check(z.maxLength(1000, atMost(1000))) });
export type ClauseForm = z.infer<typeof clause>;

/**
 * A meter in the console: its name, a filter of clauses and groups of clauses (Polar's dashboard
 * nests one level, as this form does), and what it measures of the events that pass.
 */
export const meterForm = z
  .object({
    name: trimmed(z.minLength(3, atLeast(3)), z.maxLength(300, atMost(300))),
    conjunction,
    clauses: z.array(clause),
    groups: z.array(z.object({ conjunction, clauses: z.array(clause) })),
    /** A filter nested deeper than the form edits, kept as it is. */
    keptFilter: z.nullable(z.custom<MeterFilter>()),
    aggregation: z.enum(AGGREGATIONS),
    aggregationProperty: z.string(),
  })
  .check(
    z.superRefine((form, context) => {
      if (form.aggregation !== "count" && !form.aggregationProperty.trim()) context.addIssue({ code: "custom", path: ["aggregationProperty"], message: t(messages.aggregationProperty) });
    }),
  );
export type MeterForm = z.infer<typeof meterForm>;

export const emptyClause = (): ClauseForm => ({ property: "", operator: "eq", value: "" });
export const emptyMeterForm = (): MeterForm => ({ name: "", conjunction: "and", clauses: [emptyClause()], groups: [], keptFilter: null, aggregation: "count", aggregationProperty: "" });

/**
 * A typed value as the filter compares it: a whole number or true/false as such, anything else as
 * text; quotes keep a number or a boolean as text ("42").
 */
export function valueOf(text: string): MeterFilterClause["value"] {
  const quoted = /^"(.*)"$/s.exec(text);
  if (quoted) return quoted[1] ?? "";
  if (/^-?\d+$/.test(text) && Math.abs(Number(text)) < INT32) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/** A value as the form shows it: text that would read as a number or a boolean goes in quotes. */
export const textOf = (value: MeterFilterClause["value"]) => (typeof value === "string" && valueOf(value) !== value ? `"${value}"` : String(value));

const clauseFormOf = (clause: MeterFilterClause): ClauseForm => ({ property: clause.property, operator: clause.operator, value: textOf(clause.value) });
const isClause = (item: MeterFilter["clauses"][number]): item is MeterFilterClause => !("conjunction" in item);

/** The form filled with a meter's settings, for editing it. */
export function meterFormOf(meter: Meter): MeterForm {
  const { filter, aggregation } = meter;
  const groups = filter.clauses.filter((item): item is MeterFilter => !isClause(item));
  const editable = groups.every((group) => group.clauses.every(isClause));
  return {
    name: meter.name,
    conjunction: filter.conjunction,
    clauses: editable ? filter.clauses.filter(isClause).map(clauseFormOf) : [],
    groups: editable ? groups.map((group) => ({ conjunction: group.conjunction, clauses: group.clauses.filter(isClause).map(clauseFormOf) })) : [],
    keptFilter: editable ? null : filter,
    aggregation: aggregation.func,
    aggregationProperty: aggregation.func === "count" ? "" : aggregation.property,
  };
}

const clauseOf = (form: ClauseForm): MeterFilterClause => ({ property: form.property, operator: form.operator, value: valueOf(form.value) });

/** The filter the form holds, in Polar's MeterFilter shape: its clauses, then its groups. */
export function filterOf(form: MeterForm): MeterFilter {
  if (form.keptFilter) return form.keptFilter;
  return { conjunction: form.conjunction, clauses: [...form.clauses.map(clauseOf), ...form.groups.map((group) => ({ conjunction: group.conjunction, clauses: group.clauses.map(clauseOf) }))] };
}

/** Polar's MeterCreate (and update) for what the form holds. */
export function meterChangeOf(form: MeterForm): MeterChange {
  const aggregation = form.aggregation === "count" ? { func: "count" as const } : form.aggregation === "unique" ? { func: "unique" as const, property: form.aggregationProperty } : { func: form.aggregation, property: form.aggregationProperty };
  return { name: form.name, filter: filterOf(form), aggregation };
}

/** A value written with its objects' keys in order, so that two filters compare alike however their keys came (jsonb reorders them). */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (item && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item));

/** Polar's MeterUpdate: the filter and aggregation only when they changed, as a change to them measures every event again. */
export function meterUpdateOf(form: MeterForm, meter: Meter): MeterUpdate {
  const { name, filter, aggregation } = meterChangeOf(form);
  return { name, ...(canonical(filter) === canonical(meter.filter) ? {} : { filter }), ...(canonical(aggregation) === canonical(meter.aggregation) ? {} : { aggregation }) };
}

/** Where the API's refusals go on the form: the filter's clauses are numbered as filterOf sends them. */
export function refusalFields(form: MeterForm): Record<string, Path<MeterForm>> {
  const fields: Record<string, Path<MeterForm>> = { name: "name", "aggregation.property": "aggregationProperty" };
  const place = (at: string, field: `clauses.${number}` | `groups.${number}.clauses.${number}`) => {
    for (const part of ["property", "operator", "value"] as const) fields[`${at}.${part}`] = `${field}.${part}`;
  };
  form.clauses.forEach((_clause, index) => place(`filter.clauses.${index}`, `clauses.${index}`));
  form.groups.forEach((group, groupIndex) => group.clauses.forEach((_clause, index) => place(`filter.clauses.${form.clauses.length + groupIndex}.clauses.${index}`, `groups.${groupIndex}.clauses.${index}`)));
  return fields;
}
