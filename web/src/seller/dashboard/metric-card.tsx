import { useCallback } from "react";
import { defineMessage, useIntl } from "react-intl";
import { metricDescriptions, metricNames } from "./metric-names";
import { money } from "../../i18n/format";
import { TimeChart } from "../../ui/time-chart";
import type { DashboardMetric, MetricInterval, Metrics } from "./metrics-api";

const messages = {
  change: defineMessage<{ change: string; days: number }>({ id: "seller.dashboard.changeOnPrevious", defaultMessage: "{change} vs previous {days, plural, one {# day} other {# days}}" }),
  // A change from nothing has no percentage: the previous figure is said instead.
  previousWas: defineMessage<{ figure: string; days: number }>({ id: "seller.dashboard.previousWas", defaultMessage: "{figure} in the previous {days, plural, one {# day} other {# days}}" }),
};

/** How a period's start is written on the axis and in the table: finer intervals name the day. */
const TIME_FORMATS: Record<MetricInterval, Intl.DateTimeFormatOptions> = {
  day: { day: "numeric", month: "short" },
  week: { day: "numeric", month: "short" },
  month: { month: "short", year: "numeric" },
  year: { year: "numeric" },
};

/**
 * One of the seller's figures over the range: its total (or current value, for stocks such as MRR),
 * how it changed on the period before when that is known, and its chart.
 */
export function MetricCard({ metric, current, previous, days, interval, currency }: { metric: DashboardMetric; current: Metrics; previous: Metrics | undefined; days: number; interval: MetricInterval; currency: string }) {
  const intl = useIntl();
  // The API leaves a metric out (null) only when it was not asked for, and the dashboard asks for each it shows.
  const type = current.metrics[metric]?.type ?? "scalar";
  const format = useCallback(
    (value: number) =>
      type === "percentage" ? intl.formatNumber(value, { style: "percent", maximumFractionDigits: 1 }) : type === "scalar" ? intl.formatNumber(value) : money(Math.round(value), currency),
    [intl, type, currency],
  );
  const formatTime = useCallback((at: Date) => intl.formatDate(at, TIME_FORMATS[interval]), [intl, interval]);
  const points = current.periods.map((period) => ({ at: new Date(period.timestamp), value: period[metric] ?? 0 }));
  const total = current.totals[metric] ?? 0;
  const before = previous?.totals[metric] ?? undefined;
  const title = intl.formatMessage(metricNames[metric]);
  return (
    <section className="metric-card" aria-label={title}>
      <h2>{title}</h2>
      <p className="metric-about">{intl.formatMessage(metricDescriptions[metric])}</p>
      <p className="metric-figure">{format(total)}</p>
      {before !== undefined && (
        <p className={`metric-change ${total > before ? "metric-up" : total < before ? "metric-down" : ""}`}>
          {before === 0
            ? intl.formatMessage(messages.previousWas, { figure: format(before), days })
            : intl.formatMessage(messages.change, { days, change: intl.formatNumber((total - before) / Math.abs(before), { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" }) })}
        </p>
      )}
      <TimeChart title={title} points={points} format={format} formatTime={formatTime} emptyTop={type === "currency" || type === "currency_sub_cent" ? 100 : 1} />
    </section>
  );
}
