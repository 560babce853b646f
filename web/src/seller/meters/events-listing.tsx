import { createColumnHelper } from "@tanstack/react-table";
import { defineMessage, defineMessages, FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { EmptyState } from "../../ui/components";
import { ServerListing, useServerListing } from "../../ui/server-listing";
import { useSeller } from "../space";
import { listEvents, type EventFilters, type UsageEvent } from "./meters-api";
import { meterKeys } from "./queries";

const messages = defineMessages({
  loading: { id: "seller.events.loading", defaultMessage: "Loading events…" },
  none: { id: "seller.events.none", defaultMessage: "No events yet" },
  noneHint: { id: "seller.events.noneHint", defaultMessage: "Your system sends usage events to POST /v1/events/ingest; each one shows here as it arrives." },
  noMatch: { id: "seller.events.noMatch", defaultMessage: "No event matches." },
  time: { id: "seller.events.column.time", defaultMessage: "Time" },
  name: { id: "seller.events.column.name", defaultMessage: "Name" },
  customer: { id: "seller.events.column.customer", defaultMessage: "Customer" },
  metadata: { id: "seller.events.column.metadata", defaultMessage: "Metadata" },
  properties: defineMessage<{ count: number }>({ id: "seller.events.properties", defaultMessage: "{count, plural, =0 {None} one {# value} other {# values}}" }),
  metadataOf: defineMessage<{ name: string }>({ id: "seller.events.metadataOf", defaultMessage: "Metadata of {name}" }),
});

/** An event's metadata: how many values it has, each key and value once opened. */
function EventMetadata({ event }: { event: UsageEvent }) {
  const { formatMessage } = useIntl();
  const entries = Object.entries(event.metadata);
  if (entries.length === 0) return <span className="muted">{formatMessage(messages.properties, { count: 0 })}</span>;
  return (
    <details>
      <summary aria-label={`${formatMessage(messages.metadataOf, { name: event.name })}: ${formatMessage(messages.properties, { count: entries.length })}`}>{formatMessage(messages.properties, { count: entries.length })}</summary>
      <pre className="payload" tabIndex={0}>
        {JSON.stringify(event.metadata, null, 2)}
      </pre>
    </details>
  );
}

/** Who the event is about: their name, shorter than their e-mail (which a pointer shows), or the seller's own id for them. */
function EventCustomer({ event }: { event: UsageEvent }) {
  const { customer } = event;
  if (!customer) return <span className="nowrap">{event.external_customer_id ?? "—"}</span>;
  return (
    <span className="nowrap" title={customer.email}>
      {customer.name ?? customer.email}
    </span>
  );
}

const column = createColumnHelper<UsageEvent>();
const columns = [
  // To the second, as events close together are told apart.
  column.accessor("timestamp", {
    header: () => <FormattedMessage {...messages.time} />,
    cell: (info) => (
      <span className="nowrap">
        <FormattedDate value={info.getValue()} dateStyle="medium" timeStyle="medium" />
      </span>
    ),
  }),
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} />, enableSorting: false, cell: (info) => <code className="nowrap">{info.getValue()}</code> }),
  column.display({ id: "customer", header: () => <FormattedMessage {...messages.customer} />, cell: (info) => <EventCustomer event={info.row.original} /> }),
  column.display({ id: "metadata", header: () => <FormattedMessage {...messages.metadata} />, cell: (info) => <EventMetadata event={info.row.original} /> }),
];

/** The seller's usage events as the filters narrow them, newest first, paged by the server. */
export function EventsListing({ filters, filtered }: { filters: EventFilters; filtered: boolean }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const listing = useServerListing({ key: meterKeys.events(seller.id, filters), load: (page) => listEvents(seller.id, filters, page), columns, initialSorting: [{ id: "timestamp", desc: true }] });
  return (
    <ServerListing
      listing={listing}
      loading={messages.loading}
      empty={<EmptyState title={formatMessage(filtered ? messages.noMatch : messages.none)}>{!filtered && <p>{formatMessage(messages.noneHint)}</p>}</EmptyState>}
    />
  );
}
