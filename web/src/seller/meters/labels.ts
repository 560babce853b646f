import { defineMessage, defineMessages, type IntlShape } from "react-intl";
import type { AggregationFunction, Meter, MeterFilter, Operator } from "./meters-api";

export const aggregationLabels = defineMessages<AggregationFunction>({
  count: { id: "seller.meters.aggregation.count", defaultMessage: "Count of events" },
  sum: { id: "seller.meters.aggregation.sum", defaultMessage: "Sum" },
  max: { id: "seller.meters.aggregation.max", defaultMessage: "Maximum" },
  min: { id: "seller.meters.aggregation.min", defaultMessage: "Minimum" },
  avg: { id: "seller.meters.aggregation.avg", defaultMessage: "Average" },
  unique: { id: "seller.meters.aggregation.unique", defaultMessage: "Count of distinct values" },
});

export const operatorLabels = defineMessages<Operator>({
  eq: { id: "seller.meters.operator.eq", defaultMessage: "equals" },
  ne: { id: "seller.meters.operator.ne", defaultMessage: "does not equal" },
  gt: { id: "seller.meters.operator.gt", defaultMessage: "is greater than" },
  gte: { id: "seller.meters.operator.gte", defaultMessage: "is at least" },
  lt: { id: "seller.meters.operator.lt", defaultMessage: "is less than" },
  lte: { id: "seller.meters.operator.lte", defaultMessage: "is at most" },
  like: { id: "seller.meters.operator.like", defaultMessage: "contains" },
  not_like: { id: "seller.meters.operator.notLike", defaultMessage: "does not contain" },
});

const conjunctionLabels = defineMessages({
  and: { id: "seller.meters.conjunction.and", defaultMessage: "and" },
  or: { id: "seller.meters.conjunction.or", defaultMessage: "or" },
});

const messages = defineMessages({
  everyEvent: { id: "seller.meters.filter.everyEvent", defaultMessage: "Every event" },
  aggregationOf: defineMessage<{ aggregation: string; property: string }>({ id: "seller.meters.aggregationOf", defaultMessage: "{aggregation} of {property}" }),
});

/** A clause's value as the filter compares it: text in quotes, so that "5" and 5 read apart. */
const valueText = (value: string | number | boolean) => (typeof value === "string" ? `"${value}"` : String(value));

/** A filter in one line, as the meters list and a meter's page show it: `name equals "api_call" and (tokens is greater than 3 or …)`. */
export function filterSummary(intl: IntlShape, filter: MeterFilter): string {
  const summary = (group: MeterFilter, nested: boolean): string => {
    const parts = group.clauses.map((clause) => ("conjunction" in clause ? summary(clause, true) : `${clause.property} ${intl.formatMessage(operatorLabels[clause.operator])} ${valueText(clause.value)}`));
    const joined = parts.join(` ${intl.formatMessage(conjunctionLabels[group.conjunction])} `);
    return nested && parts.length > 1 ? `(${joined})` : joined;
  };
  return summary(filter, false) || intl.formatMessage(messages.everyEvent);
}

/** What a meter measures: "Count of events", "Sum of tokens". */
export function aggregationSummary(intl: IntlShape, aggregation: Meter["aggregation"]): string {
  const name = intl.formatMessage(aggregationLabels[aggregation.func]);
  return aggregation.func === "count" ? name : intl.formatMessage(messages.aggregationOf, { aggregation: name, property: aggregation.property });
}
