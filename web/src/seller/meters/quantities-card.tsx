import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Card, Field } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { TimeChart } from "../../ui/time-chart";
import { customerChoices } from "../customers/queries";
import { ChoiceFilter } from "../console-screens";
import { useSeller } from "../space";
import { QUANTITY_INTERVALS, type Meter, type QuantityInterval, type QuantityRange } from "./meters-api";
import { quantitiesQuery } from "./queries";

const messages = defineMessages({
  title: { id: "seller.meter.quantities.title", defaultMessage: "Usage" },
  loading: { id: "seller.meter.quantities.loading", defaultMessage: "Loading the usage…" },
  from: { id: "seller.meter.quantities.from", defaultMessage: "From" },
  to: { id: "seller.meter.quantities.to", defaultMessage: "To" },
  interval: { id: "seller.meter.quantities.interval", defaultMessage: "Per" },
  customer: { id: "seller.meter.quantities.customer", defaultMessage: "Customer" },
  everyone: { id: "seller.meter.quantities.everyone", defaultMessage: "All customers" },
  total: defineMessage<{ total: string }>({ id: "seller.meter.quantities.total", defaultMessage: "{total} in these days" }),
  quantity: { id: "seller.meter.quantities.quantity", defaultMessage: "Quantity" },
});

const intervalLabels = defineMessages<QuantityInterval>({
  hour: { id: "seller.meter.quantities.hour", defaultMessage: "Hour" },
  day: { id: "seller.meter.quantities.day", defaultMessage: "Day" },
  week: { id: "seller.meter.quantities.week", defaultMessage: "Week" },
  month: { id: "seller.meter.quantities.month", defaultMessage: "Month" },
});

/** The longest range, in days, each interval may chart (the API's bounds). */
const MAX_DAYS: Record<QuantityInterval, number> = { hour: 7, day: 366, week: 7 * 53, month: 365 * 4 };
/** How a period's start is written: hours with their time, months without their day. */
const TIME_FORMATS: Record<QuantityInterval, Intl.DateTimeFormatOptions> = {
  hour: { day: "numeric", month: "short", hour: "numeric" },
  day: { day: "numeric", month: "short" },
  week: { day: "numeric", month: "short" },
  month: { month: "short", year: "numeric" },
};

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
const spanOf = (range: QuantityRange) => Math.round((Date.parse(range.end) - Date.parse(range.start)) / DAY_MS) + 1;

/** The last 30 days up to today, day by day. */
function lastMonth(): QuantityRange {
  const start = new Date();
  start.setDate(start.getDate() - 29);
  return { start: dayOf(start), end: dayOf(new Date()), interval: "day", customerId: "" };
}

/** A meter's quantities over days the seller picks, per hour, day, week or month, for all customers or one: a chart and its total. */
export function QuantitiesCard({ meter }: { meter: Meter }) {
  const intl = useIntl();
  const seller = useSeller();
  const [range, setRange] = useState(lastMonth);
  const customers = useQuery(customerChoices(seller.id));
  const allowed = QUANTITY_INTERVALS.filter((interval) => spanOf(range) <= MAX_DAYS[interval]);
  // An interval the days no longer allow gives way to the finest they do.
  const asked = { ...range, interval: allowed.includes(range.interval) ? range.interval : (allowed[0] ?? "month") };
  const quantities = useQuery({ ...quantitiesQuery(meter.id, asked), placeholderData: (previous) => previous });
  const change = (changes: Partial<QuantityRange>) => setRange((current) => ({ ...current, ...changes }));
  const format = useCallback((value: number) => intl.formatNumber(value, { maximumFractionDigits: 2 }), [intl]);
  const formatTime = useCallback((at: Date) => intl.formatDate(at, TIME_FORMATS[asked.interval]), [intl, asked.interval]);
  return (
    <Card title={intl.formatMessage(messages.title)}>
      <div className="filters">
        <Field label={intl.formatMessage(messages.from)}>{(ids) => <input {...ids} type="date" value={range.start} max={range.end} required onChange={(event) => event.target.value && change({ start: event.target.value })} />}</Field>
        <Field label={intl.formatMessage(messages.to)}>{(ids) => <input {...ids} type="date" value={range.end} min={range.start} required onChange={(event) => event.target.value && change({ end: event.target.value })} />}</Field>
        <Field label={intl.formatMessage(messages.interval)}>
          {(ids) => (
            <select {...ids} value={asked.interval} onChange={(event) => change({ interval: event.target.value as QuantityInterval })}>
              {allowed.map((interval) => (
                <option key={interval} value={interval}>
                  {intl.formatMessage(intervalLabels[interval])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ChoiceFilter
          label={intl.formatMessage(messages.customer)}
          anyLabel={intl.formatMessage(messages.everyone)}
          choices={(customers.data?.items ?? []).map((customer) => ({ value: customer.id, label: customer.email }))}
          value={range.customerId}
          onChange={(customerId) => change({ customerId })}
        />
      </div>
      <QueryState query={quantities} loading={messages.loading}>
        {(shown) => (
          <>
            <p className="metric-figure">{intl.formatMessage(messages.total, { total: format(shown.total) })}</p>
            <TimeChart title={intl.formatMessage(messages.quantity)} points={shown.quantities.map((period) => ({ at: new Date(period.timestamp), value: period.quantity }))} format={format} formatTime={formatTime} />
          </>
        )}
      </QueryState>
    </Card>
  );
}
