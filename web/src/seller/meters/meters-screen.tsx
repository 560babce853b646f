import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { Field } from "../../ui/components";
import { ListScreen, SearchFilter } from "../console-screens";
import { useSeller } from "../space";
import { aggregationSummary, filterSummary } from "./labels";
import { listMeters, type Meter } from "./meters-api";
import { meterKeys } from "./queries";

const messages = defineMessages({
  title: { id: "seller.meters.title", defaultMessage: "Meters" },
  total: defineMessage<{ total: number }>({ id: "seller.meters.total", defaultMessage: "{total, plural, one {# meter} other {# meters}}" }),
  create: { id: "seller.meters.create", defaultMessage: "New meter" },
  events: { id: "seller.meters.events", defaultMessage: "Usage events" },
  search: { id: "seller.meters.search", defaultMessage: "Search by name" },
  shown: { id: "seller.meters.filter.shown", defaultMessage: "Showing" },
  active: { id: "seller.meters.filter.active", defaultMessage: "Active meters" },
  archived: { id: "seller.meters.filter.archived", defaultMessage: "Archived meters" },
  loading: { id: "seller.meters.loading", defaultMessage: "Loading meters…" },
  none: { id: "seller.meters.none", defaultMessage: "No meters yet" },
  noneHint: { id: "seller.meters.noneHint", defaultMessage: "A meter measures the usage events your system sends (API calls, tokens, storage), so that usage prices can bill it." },
  noMatch: { id: "seller.meters.noMatch", defaultMessage: "No meter matches." },
  name: { id: "seller.meters.column.name", defaultMessage: "Name" },
  aggregation: { id: "seller.meters.column.aggregation", defaultMessage: "Measures" },
  filter: { id: "seller.meters.column.filter", defaultMessage: "Counts events where" },
  created: { id: "seller.meters.column.created", defaultMessage: "Created" },
});

function MeterName({ meter }: { meter: Meter }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/meters/$meterId" params={{ slug, meterId: meter.id }}>
      {meter.name}
    </Link>
  );
}

function MeterFilterCell({ meter }: { meter: Meter }) {
  const intl = useIntl();
  return <span className="filter-summary">{filterSummary(intl, meter.filter)}</span>;
}

function MeterAggregationCell({ meter }: { meter: Meter }) {
  const intl = useIntl();
  return <>{aggregationSummary(intl, meter.aggregation)}</>;
}

const column = createColumnHelper<Meter>();
const columns = [
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} />, cell: (info) => <MeterName meter={info.row.original} /> }),
  column.display({ id: "aggregation", header: () => <FormattedMessage {...messages.aggregation} />, cell: (info) => <MeterAggregationCell meter={info.row.original} /> }),
  column.display({ id: "filter", header: () => <FormattedMessage {...messages.filter} />, cell: (info) => <MeterFilterCell meter={info.row.original} /> }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

/** The seller's meters, active or archived, by name: what each measures of which events. */
export function MetersScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const [archived, setArchived] = useState(false);
  const filter = { archived, search: useDebounced(search, 300) };
  const listing = useServerListing({ key: meterKeys.list(seller.id, filter), load: (page) => listMeters(seller.id, filter, page), columns, initialSorting: [{ id: "name", desc: false }] });
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/meters/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
  const actions = (
    <>
      <Link className="button button-secondary" to="/$slug/events" params={{ slug: seller.slug }}>
        {formatMessage(messages.events)}
      </Link>
      {create}
    </>
  );
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      create={actions}
      filtered={filter.search !== "" || filter.archived}
      listing={listing}
      says={messages}
      filters={
        <>
          <SearchFilter label={formatMessage(messages.search)} value={search} onChange={setSearch} />
          <Field label={formatMessage(messages.shown)}>
            {(ids) => (
              <select {...ids} value={String(archived)} onChange={(event) => setArchived(event.target.value === "true")}>
                <option value="false">{formatMessage(messages.active)}</option>
                <option value="true">{formatMessage(messages.archived)}</option>
              </select>
            )}
          </Field>
        </>
      }
    />
  );
}
