import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { failureIn } from "../../api/client";
import { Alert, Button, Field } from "../../ui/components";
import { DeleteAction } from "../../ui/delete-action";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { DashboardNameDialog } from "./dashboard-name-dialog";
import { metricNames } from "./metric-names";
import { chartable, DASHBOARD_METRICS, type DashboardMetric, type MetricDashboard } from "./metrics-api";
import { metricDashboardsQuery, useCreateMetricDashboard, useDeleteMetricDashboard, useUpdateMetricDashboard } from "./queries";

const messages = defineMessages({
  region: { id: "seller.dashboard.saved.region", defaultMessage: "Saved dashboards" },
  loading: { id: "seller.dashboard.saved.loading", defaultMessage: "Loading your saved dashboards…" },
  dashboard: { id: "seller.dashboard.saved.dashboard", defaultMessage: "Dashboard" },
  allMetrics: { id: "seller.dashboard.saved.allMetrics", defaultMessage: "All metrics" },
  tooMany: defineMessage<{ max: number }>({ id: "seller.dashboard.saved.tooMany", defaultMessage: "A saved dashboard holds up to {max} metrics: choose fewer to save this choice." }),
  chooser: defineMessage<{ shown: number; all: number }>({ id: "seller.dashboard.saved.chooser", defaultMessage: "Metrics shown: {shown} of {all}" }),
  saveAs: { id: "seller.dashboard.saved.saveAs", defaultMessage: "Save as dashboard" },
  saveAsTitle: { id: "seller.dashboard.saved.saveAsTitle", defaultMessage: "Save these metrics as a dashboard" },
  saveChanges: { id: "seller.dashboard.saved.saveChanges", defaultMessage: "Save changes" },
  rename: { id: "seller.dashboard.saved.rename", defaultMessage: "Rename" },
  renameTitle: { id: "seller.dashboard.saved.renameTitle", defaultMessage: "Rename this dashboard" },
  delete: { id: "seller.dashboard.saved.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ name: string }>({ id: "seller.dashboard.saved.deleteTitle", defaultMessage: "Delete the dashboard {name}?" }),
  deleteDescription: { id: "seller.dashboard.saved.deleteDescription", defaultMessage: "Only the saved choice of metrics goes; your figures stay as they are." },
});

/** The most metrics the API keeps in a dashboard (Polar's ten); the dashboard shows more. */
const MAX_SAVED_METRICS = 10;

const sameMetrics = (one: readonly string[], other: readonly string[]) => one.length === other.length && one.every((metric) => other.includes(metric));

/**
 * The seller's saved dashboards, each a named choice of metrics: open one, choose which metrics are
 * shown, save the choice as a new dashboard or into the open one, rename or delete it. Members who
 * may only read open and choose.
 */
export function SavedDashboards({ chosen, onChoose, openId, onOpen }: { chosen: DashboardMetric[]; onChoose: (metrics: DashboardMetric[]) => void; openId: string | null; onOpen: (dashboard: MetricDashboard | null) => void }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const dashboards = useQuery(metricDashboardsQuery(seller.id));
  const create = useCreateMetricDashboard();
  const update = useUpdateMetricDashboard();
  const remove = useDeleteMetricDashboard();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <section className="saved-dashboards" aria-label={formatMessage(messages.region)}>
      <QueryState query={dashboards} loading={messages.loading}>
        {(saved) => {
          const open = saved.find((dashboard) => dashboard.id === openId);
          const tooMany = chosen.length > MAX_SAVED_METRICS;
          return (
            <>
              <div className="filters">
                <Field label={formatMessage(messages.dashboard)}>
                  {(ids) => (
                    <select {...ids} value={open?.id ?? ""} onChange={(event) => onOpen(saved.find((dashboard) => dashboard.id === event.target.value) ?? null)}>
                      <option value="">{formatMessage(messages.allMetrics)}</option>
                      {saved.map((dashboard) => (
                        <option key={dashboard.id} value={dashboard.id}>
                          {dashboard.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </div>
              <details className="metric-chooser">
                <summary>{formatMessage(messages.chooser, { shown: chosen.length, all: DASHBOARD_METRICS.length })}</summary>
                <div className="metric-choices">
                  {DASHBOARD_METRICS.map((metric) => (
                    <label key={metric} className="checkbox">
                      <input type="checkbox" checked={chosen.includes(metric)} onChange={(event) => onChoose(chartable(event.target.checked ? [...chosen, metric] : chosen.filter((shown) => shown !== metric)))} />
                      {formatMessage(metricNames[metric])}
                    </label>
                  ))}
                </div>
              </details>
              {seller.mayChange && (
                <div className="actions">
                  <DashboardNameDialog
                    trigger={
                      <Button variant="secondary" disabled={tooMany}>
                        {formatMessage(messages.saveAs)}
                      </Button>
                    }
                    title={formatMessage(messages.saveAsTitle)}
                    name=""
                    save={async (name) => onOpen(await create.mutateAsync({ organization_id: seller.id, name, metrics: chosen }))}
                  />
                  {open && (
                    <>
                      <Button variant="secondary" disabled={tooMany || sameMetrics(chartable(open.metrics), chosen)} busy={update.isPending} onClick={() => void failureIn(update.mutateAsync({ id: open.id, change: { metrics: chosen } })).then(setFailure)}>
                        {formatMessage(messages.saveChanges)}
                      </Button>
                      <DashboardNameDialog
                        trigger={<Button variant="ghost">{formatMessage(messages.rename)}</Button>}
                        title={formatMessage(messages.renameTitle)}
                        name={open.name}
                        save={(name) => update.mutateAsync({ id: open.id, change: { name } })}
                      />
                      <DeleteAction
                        label={formatMessage(messages.delete)}
                        title={formatMessage(messages.deleteTitle, { name: open.name })}
                        description={formatMessage(messages.deleteDescription)}
                        remove={async () => {
                          await remove.mutateAsync(open.id);
                          onOpen(null);
                        }}
                      />
                    </>
                  )}
                </div>
              )}
              {seller.mayChange && tooMany && <p className="muted">{formatMessage(messages.tooMany, { max: MAX_SAVED_METRICS })}</p>}
              {failure && <Alert tone="error">{failure}</Alert>}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
