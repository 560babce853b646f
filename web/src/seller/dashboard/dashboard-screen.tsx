import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Field, Page } from "../../ui/components";
import { DateInput } from "../../ui/date-input";
import { QueryState, together } from "../../ui/query-state";
import { GettingStarted } from "../getting-started/getting-started";
import { useSeller } from "../space";
import { MetricCard } from "./metric-card";
import { sellerOrganizationQuery } from "../settings/queries";
import { MetricsExportButton } from "./metrics-export";
import { chartable, DASHBOARD_METRICS, type DashboardMetric, type MetricInterval } from "./metrics-api";
import { metricsLimitsQuery, metricsQuery } from "./queries";
import { SavedDashboards } from "./saved-dashboards";
import { daysIn, fittingInterval, intervalsFor, presetRange, previousRange, PRESETS, today, type DayRange, type Preset } from "./range";

const messages = defineMessages({
  title: { id: "seller.dashboard.title", defaultMessage: "Dashboard" },
  description: defineMessage<{ timezone: string }>({ id: "seller.dashboard.description", defaultMessage: "Your sales and subscriptions, in your time zone ({timezone})." }),
  range: { id: "seller.dashboard.range", defaultMessage: "Period" },
  interval: { id: "seller.dashboard.interval", defaultMessage: "Group by" },
  start: { id: "seller.dashboard.start", defaultMessage: "From" },
  end: { id: "seller.dashboard.end", defaultMessage: "To" },
  endBeforeStart: { id: "seller.dashboard.endBeforeStart", defaultMessage: "The last day comes before the first." },
  loading: { id: "seller.dashboard.loading", defaultMessage: "Loading your figures…" },
  noneChosen: { id: "seller.dashboard.noneChosen", defaultMessage: "No metric is chosen: choose the metrics to show above." },
  "preset.7d": { id: "seller.dashboard.preset.7d", defaultMessage: "Last 7 days" },
  "preset.30d": { id: "seller.dashboard.preset.30d", defaultMessage: "Last 30 days" },
  "preset.12m": { id: "seller.dashboard.preset.12m", defaultMessage: "Last 12 months" },
  "preset.custom": { id: "seller.dashboard.preset.custom", defaultMessage: "Custom dates" },
  "interval.day": { id: "seller.dashboard.interval.day", defaultMessage: "Day" },
  "interval.week": { id: "seller.dashboard.interval.week", defaultMessage: "Week" },
  "interval.month": { id: "seller.dashboard.interval.month", defaultMessage: "Month" },
  "interval.year": { id: "seller.dashboard.interval.year", defaultMessage: "Year" },
});

// The browser's time zone is taken as the seller's: the figures' days are the days they live.
const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The seller's landing screen: revenue, orders and subscriptions over a chosen range, each charted with its figure. */
export function DashboardScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [preset, setPreset] = useState<Preset>("30d");
  const [custom, setCustom] = useState<DayRange>(presetRange("30d"));
  const [asked, setAsked] = useState<MetricInterval>("day");
  // The metrics shown, and the saved dashboard they were opened from (none: every metric).
  const [chosen, setChosen] = useState<DashboardMetric[]>([...DASHBOARD_METRICS]);
  const [openId, setOpenId] = useState<string | null>(null);
  const range = preset === "custom" ? custom : presetRange(preset);
  const valid = range.start <= range.end;
  const limits = useQuery(metricsLimitsQuery());
  const allowed = intervalsFor(range, limits.data);
  const interval = fittingInterval(asked, allowed);
  const organization = useQuery(sellerOrganizationQuery(seller.id));
  const query = { organizationId: seller.id, startDate: range.start, endDate: range.end, interval, timezone };
  const before = previousRange(range);
  const current = useQuery({ ...metricsQuery(query), enabled: valid, placeholderData: (previous) => previous });
  const previous = useQuery({ ...metricsQuery({ ...query, startDate: before.start, endDate: before.end }), enabled: valid });

  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description, { timezone })} actions={valid && <MetricsExportButton query={query} metrics={chosen} />}>
      {/* A new organization's steps to a first sale come before its charts, which are all at zero until then. */}
      <GettingStarted />
      <div className="filters dashboard-filters">
        <Field label={formatMessage(messages.range)}>
          {(ids) => (
            <select
              {...ids}
              value={preset}
              onChange={(event) => {
                // Custom dates start from the range shown, to be moved from there.
                if (event.target.value === "custom") setCustom(range);
                setPreset(event.target.value as Preset);
              }}
            >
              {PRESETS.map((option) => (
                <option key={option} value={option}>
                  {formatMessage(messages[`preset.${option}`])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {preset === "custom" && (
          <>
            <Field label={formatMessage(messages.start)}>
              {(ids) => <DateInput ids={ids} value={custom.start} min={limits.data?.min_date} max={today()} onChange={(start) => start && setCustom({ ...custom, start })} />}
            </Field>
            <Field label={formatMessage(messages.end)} error={valid ? undefined : formatMessage(messages.endBeforeStart)}>
              {(ids) => <DateInput ids={ids} value={custom.end} min={limits.data?.min_date} onChange={(end) => end && setCustom({ ...custom, end })} />}
            </Field>
          </>
        )}
        <Field label={formatMessage(messages.interval)}>
          {(ids) => (
            <select {...ids} value={interval} onChange={(event) => setAsked(event.target.value as MetricInterval)}>
              {allowed.map((option) => (
                <option key={option} value={option}>
                  {formatMessage(messages[`interval.${option}`])}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <SavedDashboards
        chosen={chosen}
        onChoose={setChosen}
        openId={openId}
        onOpen={(dashboard) => {
          setOpenId(dashboard?.id ?? null);
          setChosen(dashboard ? chartable(dashboard.metrics) : [...DASHBOARD_METRICS]);
        }}
      />
      {valid && (
        <QueryState query={together(current, organization)} loading={messages.loading}>
          {([figures, { default_presentment_currency: currency }]) => (
            <div className="metric-grid" aria-busy={current.isFetching || undefined}>
              {chosen.length === 0 && <p className="muted">{formatMessage(messages.noneChosen)}</p>}
              {chosen.map((metric) => (
                <MetricCard key={metric} metric={metric} current={figures} previous={previous.data} days={daysIn(range)} interval={interval} currency={currency} />
              ))}
            </div>
          )}
        </QueryState>
      )}
    </Page>
  );
}
