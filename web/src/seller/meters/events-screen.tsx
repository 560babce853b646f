import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Field, Page } from "../../ui/components";
import { useDebounced } from "../../ui/use-debounced";
import { customerChoices } from "../customers/queries";
import { ChoiceFilter } from "../console-screens";
import { useSeller } from "../space";
import { EventsListing } from "./events-listing";
import { NO_EVENT_FILTERS, type EventFilters } from "./meters-api";
import { eventNamesQuery, meterChoices } from "./queries";

const messages = defineMessages({
  title: { id: "seller.events.title", defaultMessage: "Usage events" },
  description: { id: "seller.events.description", defaultMessage: "What your system told Tollgate its customers used, newest first." },
  meters: { id: "seller.events.meters", defaultMessage: "Meters" },
  filters: { id: "seller.events.filters", defaultMessage: "Filter events" },
  name: { id: "seller.events.filter.name", defaultMessage: "Name" },
  source: { id: "seller.events.filter.source", defaultMessage: "Source" },
  sourceUser: { id: "seller.events.filter.sourceUser", defaultMessage: "Sent by your system" },
  sourceSystem: { id: "seller.events.filter.sourceSystem", defaultMessage: "Made by Tollgate" },
  customer: { id: "seller.events.filter.customer", defaultMessage: "Customer" },
  meter: { id: "seller.events.filter.meter", defaultMessage: "Counted by meter" },
  from: { id: "seller.events.filter.from", defaultMessage: "From" },
  to: { id: "seller.events.filter.to", defaultMessage: "To" },
  metadataKey: { id: "seller.events.filter.metadataKey", defaultMessage: "Metadata key" },
  metadataValue: { id: "seller.events.filter.metadataValue", defaultMessage: "Metadata value" },
  any: { id: "seller.events.filter.any", defaultMessage: "All" },
});

/** The seller's usage events, narrowed as Polar's event list allows: name, source, customer, meter, days and a metadata value. */
export function EventsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [filters, setFilters] = useState<EventFilters>(NO_EVENT_FILTERS);
  const names = useQuery(eventNamesQuery(seller.id));
  const customers = useQuery(customerChoices(seller.id));
  const meters = useQuery(meterChoices(seller.id));
  const filter = (changes: Partial<EventFilters>) => setFilters((current) => ({ ...current, ...changes }));
  // Typed metadata narrows the list once the typing pauses.
  const metadataKey = useDebounced(filters.metadataKey, 300);
  const metadataValue = useDebounced(filters.metadataValue, 300);
  const asked = { ...filters, metadataKey, metadataValue };
  const filtered = JSON.stringify(asked) !== JSON.stringify(NO_EVENT_FILTERS);
  const any = formatMessage(messages.any);
  const choice = (key: "name" | "customerId" | "meterId", label: string, choices: { value: string; label: string }[]) => (
    <ChoiceFilter label={label} anyLabel={any} choices={choices} value={filters[key]} onChange={(value) => filter({ [key]: value })} />
  );
  const back = (
    <Link className="button button-secondary" to="/$slug/meters" params={{ slug: seller.slug }}>
      {formatMessage(messages.meters)}
    </Link>
  );
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)} actions={back}>
      <div className="filters" role="group" aria-label={formatMessage(messages.filters)}>
        {choice("name", formatMessage(messages.name), (names.data?.items ?? []).map((named) => ({ value: named.name, label: named.label })))}
        <Field label={formatMessage(messages.source)}>
          {(ids) => (
            <select {...ids} value={filters.source} onChange={(event) => filter({ source: event.target.value as EventFilters["source"] })}>
              <option value="">{any}</option>
              <option value="user">{formatMessage(messages.sourceUser)}</option>
              <option value="system">{formatMessage(messages.sourceSystem)}</option>
            </select>
          )}
        </Field>
        {choice("customerId", formatMessage(messages.customer), (customers.data?.items ?? []).map((customer) => ({ value: customer.id, label: customer.email })))}
        {choice("meterId", formatMessage(messages.meter), (meters.data?.items ?? []).map((meter) => ({ value: meter.id, label: meter.name })))}
        <Field label={formatMessage(messages.from)}>{(ids) => <input {...ids} type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => filter({ from: event.target.value })} />}</Field>
        <Field label={formatMessage(messages.to)}>{(ids) => <input {...ids} type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => filter({ to: event.target.value })} />}</Field>
        <Field label={formatMessage(messages.metadataKey)}>{(ids) => <input {...ids} value={filters.metadataKey} autoComplete="off" spellCheck={false} onChange={(event) => filter({ metadataKey: event.target.value })} />}</Field>
        <Field label={formatMessage(messages.metadataValue)}>{(ids) => <input {...ids} value={filters.metadataValue} autoComplete="off" spellCheck={false} onChange={(event) => filter({ metadataValue: event.target.value })} />}</Field>
      </div>
      <EventsListing filters={asked} filtered={filtered} />
    </Page>
  );
}
