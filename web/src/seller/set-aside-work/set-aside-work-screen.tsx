import { outcomeOf } from "../../ui/outcome";
import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDateTime } from "../../i18n/format";
import { Alert, Button, EmptyState, Page } from "../../ui/components";
import { DataTable } from "../../ui/data-table";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import type { SetAsideItem } from "./set-aside-work-api";
import { useRetrySetAside, useSetAsideWork } from "./queries";
import { workerLabel } from "./worker-label";

const messages = defineMessages({
  title: { id: "seller.setAside.title", defaultMessage: "Needs attention" },
  description: {
    id: "seller.setAside.description",
    defaultMessage: "Background work that failed again and again for your organization was set aside, so that everything else went on. Deal with the reason, then try it again.",
  },
  loading: { id: "seller.setAside.loading", defaultMessage: "Loading set-aside work…" },
  none: { id: "seller.setAside.none", defaultMessage: "Nothing needs your attention" },
  noneHint: { id: "seller.setAside.noneHint", defaultMessage: "If a webhook, a usage event, a renewal or a payment keeps failing, it shows here with the reason." },
  setAsideAt: defineMessage<{ at: string }>({ id: "seller.setAside.setAsideAt", defaultMessage: "Set aside {at}" }),
  what: { id: "seller.setAside.column.what", defaultMessage: "What" },
  reason: { id: "seller.setAside.column.reason", defaultMessage: "Last failure" },
  failures: defineMessage<{ failures: number }>({ id: "seller.setAside.failures", defaultMessage: "{failures, plural, one {failed once} other {failed # times}}" }),
  retry: { id: "seller.setAside.retry", defaultMessage: "Try again" },
  retried: { id: "seller.setAside.retried", defaultMessage: "It is back in line and is tried again now." },
});

/** The seller's set-aside background work, with why each item failed and a way to send it back to work. */
export function SetAsideWorkScreen() {
  const intl = useIntl();
  const seller = useSeller();
  const sendBack = useRetrySetAside(seller.id);
  const work = useSetAsideWork(seller.id);
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);

  const retry = async (item: SetAsideItem) => {
    setRetrying(item.id);
    const result = await outcomeOf(sendBack.mutateAsync({ source: item.source, id: item.id }), intl.formatMessage(messages.retried));
    setRetrying(null);
    setOutcome(result);
  };

  const column = createColumnHelper<SetAsideItem>();
  const columns = [
    column.display({
      id: "what",
      header: () => <FormattedMessage {...messages.what} />,
      cell: ({ row: { original } }) => (
        <>
          <FormattedMessage {...workerLabel(original.worker)} />
          <br />
          <code translate="no">{original.item_id}</code>
          <br />
          <span className="muted">{intl.formatMessage(messages.setAsideAt, { at: longDateTime(original.set_aside_at) })}</span>
        </>
      ),
    }),
    column.display({
      id: "reason",
      header: () => <FormattedMessage {...messages.reason} />,
      cell: ({ row: { original } }) => (
        <>
          <span>{original.reason}</span>
          <br />
          <span className="muted">{intl.formatMessage(messages.failures, { failures: original.failures })}</span>
        </>
      ),
    }),
    column.display({
      id: "retry",
      header: () => <span className="sr-only">{intl.formatMessage(messages.retry)}</span>,
      cell: ({ row: { original } }) =>
        seller.mayChange && (
          <Button variant="secondary" busy={retrying === original.id} onClick={() => void retry(original)}>
            {intl.formatMessage(messages.retry)}
          </Button>
        ),
    }),
  ];
  const table = useReactTable({ data: work.data?.items ?? [], columns, getCoreRowModel: getCoreRowModel() });
  return (
    <Page title={intl.formatMessage(messages.title)} description={intl.formatMessage(messages.description)}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <QueryState
        query={work}
        loading={messages.loading}
        isEmpty={({ items }) => items.length === 0}
        empty={
          <EmptyState title={intl.formatMessage(messages.none)}>
            <p>{intl.formatMessage(messages.noneHint)}</p>
          </EmptyState>
        }
      >
        {() => <DataTable table={table} busy={work.isFetching} />}
      </QueryState>
    </Page>
  );
}
