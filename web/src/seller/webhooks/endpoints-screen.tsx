import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Button, Card, EmptyState, Page } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { DataTable, Pager } from "../../ui/data-table";
import { useSeller } from "../space";
import { EndpointForm } from "./endpoint-form";
import { EnabledBadge } from "./enabled-badge";
import type { WebhookEndpoint } from "./webhooks-api";
import { endpointsQuery, useCreateEndpoint } from "./queries";

const PAGE_SIZE = 20;

const messages = defineMessages({
  title: { id: "seller.webhooks.title", defaultMessage: "Webhooks" },
  total: defineMessage<{ total: number }>({ id: "seller.webhooks.total", defaultMessage: "{total, plural, one {# endpoint} other {# endpoints}}" }),
  create: { id: "seller.webhooks.create", defaultMessage: "New endpoint" },
  createTitle: { id: "seller.webhooks.createTitle", defaultMessage: "New endpoint" },
  save: { id: "seller.webhooks.createSave", defaultMessage: "Create endpoint" },
  loading: { id: "seller.webhooks.loading", defaultMessage: "Loading endpoints…" },
  none: { id: "seller.webhooks.none", defaultMessage: "No webhook endpoints yet" },
  noneHint: { id: "seller.webhooks.noneHint", defaultMessage: "An endpoint is an address of yours that Tollgate tells of new orders, subscriptions and more, as they happen." },
  url: { id: "seller.webhooks.column.url", defaultMessage: "URL" },
  events: { id: "seller.webhooks.column.events", defaultMessage: "Events" },
  eventCount: defineMessage<{ count: number }>({ id: "seller.webhooks.eventCount", defaultMessage: "{count, plural, one {# event} other {# events}}" }),
  status: { id: "seller.webhooks.column.status", defaultMessage: "Status" },
  created: { id: "seller.webhooks.column.created", defaultMessage: "Created" },
});

const column = createColumnHelper<WebhookEndpoint>();
const columns = [
  column.accessor("url", {
    header: () => <FormattedMessage {...messages.url} />,
    cell: (info) => <EndpointLink endpoint={info.row.original} />,
  }),
  column.accessor("events", { header: () => <FormattedMessage {...messages.events} />, cell: (info) => <FormattedMessage {...messages.eventCount} values={{ count: info.getValue().length }} /> }),
  column.accessor("enabled", { header: () => <FormattedMessage {...messages.status} />, cell: (info) => <EnabledBadge enabled={info.getValue()} /> }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

function EndpointLink({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { slug } = useSeller();
  return (
    <Link className="url" to="/$slug/webhooks/$endpointId" params={{ slug, endpointId: endpoint.id }}>
      {endpoint.url}
    </Link>
  );
}

/** The seller's webhook endpoints, newest first and paged by the server, and a form for a new one. */
export function WebhookEndpointsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const creation = useCreateEndpoint();
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const query = { organizationId: seller.id, page: page + 1, limit: PAGE_SIZE };
  const endpoints = useQuery({ ...endpointsQuery(query), placeholderData: (previous) => previous });
  const table = useReactTable({ data: endpoints.data?.items ?? [], columns, getCoreRowModel: getCoreRowModel() });
  const total = endpoints.data?.pagination.total_count ?? 0;
  const create = seller.mayChange && !creating && <Button onClick={() => setCreating(true)}>{formatMessage(messages.create)}</Button>;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.total, { total })} actions={create}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {creating && (
        <Card title={formatMessage(messages.createTitle)}>
          <EndpointForm
            submitLabel={formatMessage(messages.save)}
            onSave={(values) => creation.mutateAsync({ organizationId: seller.id, change: values })}
            onSaved={async (created) => {
              await navigate({ to: "/$slug/webhooks/$endpointId", params: { slug: seller.slug, endpointId: created.id } });
            }}
            onCancel={() => setCreating(false)}
          />
        </Card>
      )}
      <QueryState
        query={endpoints}
        loading={messages.loading}
        isEmpty={() => total === 0}
        empty={
          !creating && (
            <EmptyState title={formatMessage(messages.none)}>
              <p>{formatMessage(messages.noneHint)}</p>
              {create}
            </EmptyState>
          )
        }
      >
        {(listing) => (
          <>
            <DataTable table={table} busy={endpoints.isFetching} />
            <Pager page={page} pages={Math.max(1, listing.pagination.max_page)} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Page>
  );
}
