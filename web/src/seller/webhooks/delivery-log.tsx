import { outcomeOf } from "../../ui/outcome";
import { useQuery } from "@tanstack/react-query";
import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useCallback, useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDateTime } from "../../i18n/format";
import { Alert, Button, Card, EmptyState } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { DataTable, Pager } from "../../ui/data-table";
import { TimeChart } from "../../ui/time-chart";
import type { WebhookDelivery } from "./webhooks-api";
import { deliveriesQuery, useRedeliver, useSendTestEvent } from "./queries";

const PAGE_SIZE = 20;
/** The deliveries the success rate is worked out from: the latest, as the API pages them at most. */
const RATE_SAMPLE = 100;

const messages = defineMessages({
  title: { id: "seller.webhook.deliveries.title", defaultMessage: "Deliveries" },
  loading: { id: "seller.webhook.deliveries.loading", defaultMessage: "Loading deliveries…" },
  none: { id: "seller.webhook.deliveries.none", defaultMessage: "Nothing delivered yet" },
  noneHint: { id: "seller.webhook.deliveries.noneHint", defaultMessage: "Each event sent to this endpoint shows here, with your endpoint's answer." },
  successRate: { id: "seller.webhook.deliveries.successRate", defaultMessage: "Successful deliveries" },
  sent: { id: "seller.webhook.deliveries.column.sent", defaultMessage: "Sent" },
  event: { id: "seller.webhook.deliveries.column.event", defaultMessage: "Event" },
  status: { id: "seller.webhook.deliveries.column.status", defaultMessage: "Response" },
  succeeded: defineMessage<{ code: string }>({ id: "seller.webhook.deliveries.succeeded", defaultMessage: "Delivered ({code})" }),
  failed: defineMessage<{ code: string }>({ id: "seller.webhook.deliveries.failed", defaultMessage: "Failed ({code})" }),
  noAnswer: { id: "seller.webhook.deliveries.noAnswer", defaultMessage: "no answer" },
  details: { id: "seller.webhook.deliveries.details", defaultMessage: "Request and response" },
  request: { id: "seller.webhook.deliveries.request", defaultMessage: "Request body" },
  response: { id: "seller.webhook.deliveries.response", defaultMessage: "Response body" },
  duration: defineMessage<{ ms: number }>({ id: "seller.webhook.deliveries.duration", defaultMessage: "Answered in {ms, number} ms" }),
  redeliver: { id: "seller.webhook.deliveries.redeliver", defaultMessage: "Send again" },
  redelivered: { id: "seller.webhook.deliveries.redelivered", defaultMessage: "The event is queued to be sent again." },
  sendTest: { id: "seller.webhook.deliveries.sendTest", defaultMessage: "Send a test event" },
  testSent: { id: "seller.webhook.deliveries.testSent", defaultMessage: "A signed webhook.test event is on its way; its delivery shows below in a few seconds." },
});

/** A JSON body indented to be read; anything else as it came. */
function readable(body: string | null): string {
  if (!body) return "";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function DeliveryOutcome({ delivery }: { delivery: WebhookDelivery }) {
  const { formatMessage } = useIntl();
  const code = delivery.http_code === null ? formatMessage(messages.noAnswer) : String(delivery.http_code);
  return <span className={delivery.succeeded ? "badge" : "badge badge-danger"}>{formatMessage(delivery.succeeded ? messages.succeeded : messages.failed, { code })}</span>;
}

function DeliveryDetails({ delivery }: { delivery: WebhookDelivery }) {
  const { formatMessage } = useIntl();
  return (
    <details>
      <summary>
        <code>{delivery.webhook_event.type}</code> · {formatMessage(messages.details)}
      </summary>
      <h3>{formatMessage(messages.request)}</h3>
      <pre className="payload" tabIndex={0}>{readable(delivery.webhook_event.payload)}</pre>
      <h3>{formatMessage(messages.response)}</h3>
      {delivery.duration_ms !== null && <p className="muted">{formatMessage(messages.duration, { ms: delivery.duration_ms })}</p>}
      <pre className="payload" tabIndex={0}>{readable(delivery.response)}</pre>
    </details>
  );
}

/** The share of deliveries that succeeded, day by day, among the latest. */
function successByDay(deliveries: WebhookDelivery[]) {
  const days = new Map<number, { sent: number; succeeded: number }>();
  for (const delivery of deliveries) {
    const day = new Date(delivery.created_at);
    day.setHours(0, 0, 0, 0);
    const counts = days.get(day.getTime()) ?? { sent: 0, succeeded: 0 };
    counts.sent += 1;
    counts.succeeded += delivery.succeeded ? 1 : 0;
    days.set(day.getTime(), counts);
  }
  return [...days.entries()].sort(([a], [b]) => a - b).map(([at, { sent, succeeded }]) => ({ at: new Date(at), value: succeeded / sent }));
}

/** How often the log looks for new deliveries. */
const LOG_REFRESH_MS = 5_000;

/** What was sent to an endpoint, newest first: each request and its answer, a way to send an event again, and the success rate. */
export function DeliveryLog({ endpointId, maySend }: { endpointId: string; maySend: boolean }) {
  const intl = useIntl();
  const redelivery = useRedeliver();
  const test = useSendTestEvent();
  const [page, setPage] = useState(0);
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const query = { endpointId, page: page + 1, limit: PAGE_SIZE };
  // New deliveries arrive at the top of the first page: it is read again while it is shown (and the tab is in front).
  const refetchInterval = page === 0 ? LOG_REFRESH_MS : false;
  const deliveries = useQuery({ ...deliveriesQuery(query), placeholderData: (previous) => previous, refetchInterval });
  const sample = useQuery({ ...deliveriesQuery({ endpointId, page: 1, limit: RATE_SAMPLE }), refetchInterval });
  const formatShare = useCallback((value: number) => intl.formatNumber(value, { style: "percent", maximumFractionDigits: 0 }), [intl]);
  const formatDay = useCallback((at: Date) => intl.formatDate(at, { day: "numeric", month: "short" }), [intl]);

  const sendAgain = async (delivery: WebhookDelivery) => {
    const result = await outcomeOf(redelivery.mutateAsync(delivery.webhook_event.id), intl.formatMessage(messages.redelivered));
    setOutcome(result);
  };
  const column = createColumnHelper<WebhookDelivery>();
  const columns = [
    column.accessor("created_at", { header: () => <FormattedMessage {...messages.sent} />, cell: (info) => longDateTime(info.getValue()) }),
    column.display({ id: "event", header: () => <FormattedMessage {...messages.event} />, cell: (info) => <DeliveryDetails delivery={info.row.original} /> }),
    column.display({
      id: "status",
      header: () => <FormattedMessage {...messages.status} />,
      cell: (info) => (
        <div className="actions">
          <DeliveryOutcome delivery={info.row.original} />
          {maySend && (
            <Button variant="secondary" onClick={() => void sendAgain(info.row.original)}>
              {intl.formatMessage(messages.redeliver)}
            </Button>
          )}
        </div>
      ),
    }),
  ];
  const table = useReactTable({ data: deliveries.data?.items ?? [], columns, getCoreRowModel: getCoreRowModel() });
  const total = deliveries.data?.pagination.total_count ?? 0;
  const rate = successByDay(sample.data?.items ?? []);
  return (
    <Card title={intl.formatMessage(messages.title)}>
      {maySend && (
        <div className="actions">
          <Button variant="secondary" busy={test.isPending} onClick={() => void outcomeOf(test.mutateAsync(endpointId), intl.formatMessage(messages.testSent)).then(setOutcome)}>
            {intl.formatMessage(messages.sendTest)}
          </Button>
        </div>
      )}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <QueryState
        query={deliveries}
        loading={messages.loading}
        isEmpty={() => total === 0}
        empty={
          <EmptyState title={intl.formatMessage(messages.none)}>
            <p>{intl.formatMessage(messages.noneHint)}</p>
          </EmptyState>
        }
      >
        {(listing) => (
          <>
            {rate.length > 0 && <TimeChart title={intl.formatMessage(messages.successRate)} points={rate} format={formatShare} formatTime={formatDay} />}
            <DataTable table={table} busy={deliveries.isFetching} />
            <Pager page={page} pages={Math.max(1, listing.pagination.max_page)} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Card>
  );
}
