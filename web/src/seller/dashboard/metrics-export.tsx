import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { failureIn } from "../../api/client";
import { Alert, Button } from "../../ui/components";
import { exportMetrics, type DashboardMetric, type MetricsQuery } from "./metrics-api";

const messages = defineMessages({
  download: { id: "seller.dashboard.export.download", defaultMessage: "Download CSV" },
});

/** Hands the browser `text` as a file to save under `filename`. */
function saveFile(text: string, filename: string) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** Downloads what the dashboard shows (its range, interval, time zone and metrics) as Polar's metrics export, a row per period. */
export function MetricsExportButton({ query, metrics }: { query: MetricsQuery; metrics: DashboardMetric[] }) {
  const { formatMessage } = useIntl();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(await failureIn(exportMetrics(query, metrics).then((csv) => saveFile(csv, `metrics-${query.startDate}-${query.endDate}.csv`))));
    setBusy(false);
  };
  return (
    <>
      <Button variant="secondary" busy={busy} disabled={metrics.length === 0} onClick={() => void download()}>
        {formatMessage(messages.download)}
      </Button>
      {failure && <Alert tone="error">{failure}</Alert>}
    </>
  );
}
