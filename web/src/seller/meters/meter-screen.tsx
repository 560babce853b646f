import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Button, Card, Page } from "../../ui/components";
import { Facts } from "../../ui/facts";
import { placeRefusals } from "../../forms/refusals";
import { OutcomeAlert, type Outcome } from "../../ui/outcome";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { EventsListing } from "./events-listing";
import { aggregationSummary, filterSummary } from "./labels";
import { NO_EVENT_FILTERS, type Meter } from "./meters-api";
import { QuantitiesCard } from "./quantities-card";
import { meterQuery, useUpdateMeter } from "./queries";

const messages = defineMessages({
  loading: { id: "seller.meter.page.loading", defaultMessage: "Loading the meter…" },
  back: { id: "seller.meter.page.back", defaultMessage: "All meters" },
  details: { id: "seller.meter.page.details", defaultMessage: "Details" },
  measures: { id: "seller.meter.page.measures", defaultMessage: "Measures" },
  filter: { id: "seller.meter.page.filter", defaultMessage: "Counts events where" },
  created: { id: "seller.meter.page.created", defaultMessage: "Created" },
  status: { id: "seller.meter.page.status", defaultMessage: "Status" },
  active: { id: "seller.meter.page.active", defaultMessage: "Active" },
  archivedOn: { id: "seller.meter.page.archivedOn", defaultMessage: "Archived" },
  events: { id: "seller.meter.page.events", defaultMessage: "Events it counts" },
  edit: { id: "seller.meter.page.edit", defaultMessage: "Edit" },
  archive: { id: "seller.meter.page.archive", defaultMessage: "Archive" },
  unarchive: { id: "seller.meter.page.unarchive", defaultMessage: "Unarchive" },
  archived: { id: "seller.meter.page.archivedDone", defaultMessage: "The meter is archived: it leaves the list of active meters, and still measures the events it receives." },
  unarchived: { id: "seller.meter.page.unarchivedDone", defaultMessage: "The meter is active again." },
  inUse: { id: "seller.meter.page.inUse", defaultMessage: "Products or benefits still bill or credit by this meter: archive them first." },
});

/** One meter: what it measures of which events, its quantities over time, and the events it counts. */
export function MeterScreen() {
  const { meterId = "" } = useParams({ strict: false });
  const meter = useQuery(meterQuery(meterId));
  return (
    <QueryState query={meter} loading={messages.loading}>
      {(shown) => <MeterPage meter={shown} />}
    </QueryState>
  );
}

function MeterPage({ meter }: { meter: Meter }) {
  const intl = useIntl();
  const seller = useSeller();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const back = (
    <Link to="/$slug/meters" params={{ slug: seller.slug }}>
      {intl.formatMessage(messages.back)}
    </Link>
  );
  return (
    <Page title={meter.name} description={back} actions={seller.mayChange && <MeterActions meter={meter} onOutcome={setOutcome} />}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      <div className="stack">
        <OutcomeAlert outcome={outcome} />
        <Card title={intl.formatMessage(messages.details)}>
          <Facts
            rows={[
              [intl.formatMessage(messages.measures), aggregationSummary(intl, meter.aggregation)],
              [intl.formatMessage(messages.filter), <span key="filter" className="filter-summary">{filterSummary(intl, meter.filter)}</span>],
              [intl.formatMessage(messages.created), longDate(meter.created_at)],
              [intl.formatMessage(messages.status), meter.archived_at ? `${intl.formatMessage(messages.archivedOn)} · ${longDate(meter.archived_at)}` : intl.formatMessage(messages.active)],
            ]}
          />
        </Card>
        <QuantitiesCard meter={meter} />
        <Card title={intl.formatMessage(messages.events)}>
          <EventsListing filters={{ ...NO_EVENT_FILTERS, meterId: meter.id }} filtered={false} />
        </Card>
      </div>
    </Page>
  );
}

/** Edit the meter, or archive it (Polar's is_archived) and bring it back. */
function MeterActions({ meter, onOutcome }: { meter: Meter; onOutcome: (outcome: Outcome) => void }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const update = useUpdateMeter();
  const archived = meter.archived_at !== null;
  const toggle = async () => {
    try {
      await update.mutateAsync({ id: meter.id, change: { is_archived: !archived } });
    } catch (reason) {
      // The API refuses to archive a meter that prices or benefits still use, in words of its own; the console says why in the reader's.
      let inUse = false;
      const rest = placeRefusals(reason, { is_archived: "is_archived" }, () => (inUse = true));
      return onOutcome({ tone: "error", text: [inUse && formatMessage(messages.inUse), rest].filter(Boolean).join(" ") });
    }
    onOutcome({ tone: "success", text: formatMessage(archived ? messages.unarchived : messages.archived) });
  };
  return (
    <>
      <Link className="button button-secondary" to="/$slug/meters/$meterId/edit" params={{ slug: seller.slug, meterId: meter.id }}>
        {formatMessage(messages.edit)}
      </Link>
      <Button variant="secondary" busy={update.isPending} onClick={() => void toggle()}>
        {formatMessage(archived ? messages.unarchive : messages.archive)}
      </Button>
    </>
  );
}
