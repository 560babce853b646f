import { Link } from "@tanstack/react-router";
import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { defineMessage, defineMessages, FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import type { Subscription } from "../../api/wire";
import { longDate, money } from "../../i18n/format";
import { Card, EmptyState } from "../../ui/components";
import { DataTable } from "../../ui/data-table";
import { ServerListing, useServerListing } from "../../ui/server-listing";
import { useSeller } from "../space";
import { listCustomerMeters, type CustomerMeter, type SubscriptionMeter } from "./meters-api";
import { meterKeys } from "./queries";

/*
 * What a customer has used of the seller's meters, shown where the seller looks at the customer and
 * at their subscription.
 */

const messages = defineMessages({
  customerTitle: { id: "seller.customerMeters.title", defaultMessage: "Usage and credits by meter" },
  loading: { id: "seller.customerMeters.loading", defaultMessage: "Loading the customer's meters…" },
  none: { id: "seller.customerMeters.none", defaultMessage: "No meter has measured this customer yet." },
  meter: { id: "seller.customerMeters.meter", defaultMessage: "Meter" },
  consumed: { id: "seller.customerMeters.consumed", defaultMessage: "Consumed" },
  credited: { id: "seller.customerMeters.credited", defaultMessage: "Credited" },
  balance: { id: "seller.customerMeters.balance", defaultMessage: "Balance" },
  usageTitle: { id: "seller.subscriptionUsage.title", defaultMessage: "Usage this period" },
  usageText: defineMessage<{ start: string; end: string }>({ id: "seller.subscriptionUsage.text", defaultMessage: "Measured from {start} to {end}; what is due is charged at renewal." }),
  due: { id: "seller.subscriptionUsage.due", defaultMessage: "Due so far" },
});

function MeterLink({ id, name }: { id: string; name: string }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/meters/$meterId" params={{ slug, meterId: id }}>
      {name}
    </Link>
  );
}

const units = (value: number) => <FormattedNumber value={value} maximumFractionDigits={2} />;

const customerColumn = createColumnHelper<CustomerMeter>();
const customerColumns = [
  customerColumn.accessor((row) => row.meter.name, { id: "meter_name", header: () => <FormattedMessage {...messages.meter} />, cell: (info) => <MeterLink id={info.row.original.meter_id} name={info.getValue()} /> }),
  customerColumn.accessor("consumed_units", { header: () => <FormattedMessage {...messages.consumed} />, cell: (info) => units(info.getValue()) }),
  customerColumn.accessor("credited_units", { header: () => <FormattedMessage {...messages.credited} />, cell: (info) => units(info.getValue()) }),
  customerColumn.accessor("balance", { header: () => <FormattedMessage {...messages.balance} />, cell: (info) => units(info.getValue()) }),
];

/** The customer's standing on each meter: consumed, credited, and the balance left (negative once they use more than their credits). */
export function CustomerMetersCard({ customerId }: { customerId: string }) {
  const { formatMessage } = useIntl();
  const listing = useServerListing({
    key: meterKeys.ofCustomer(customerId),
    load: (page) => listCustomerMeters(customerId, page),
    columns: customerColumns,
    initialSorting: [{ id: "meter_name", desc: false }],
  });
  return (
    <Card title={formatMessage(messages.customerTitle)}>
      <ServerListing listing={listing} loading={messages.loading} empty={<EmptyState title={formatMessage(messages.none)} />} />
    </Card>
  );
}

const usageColumn = createColumnHelper<SubscriptionMeter & { currency: string }>();
const usageColumns = [
  usageColumn.accessor((row) => row.meter.name, { id: "meter", header: () => <FormattedMessage {...messages.meter} />, cell: (info) => <MeterLink id={info.row.original.meter_id} name={info.getValue()} /> }),
  usageColumn.accessor("consumed_units", { header: () => <FormattedMessage {...messages.consumed} />, cell: (info) => units(info.getValue()) }),
  usageColumn.accessor("credited_units", { header: () => <FormattedMessage {...messages.credited} />, cell: (info) => units(info.getValue()) }),
  usageColumn.accessor("amount", { header: () => <FormattedMessage {...messages.due} />, cell: (info) => money(info.getValue(), info.row.original.currency) }),
];

/** The subscription's metered prices: what the customer used so far this period, and what it comes to. Nothing for a subscription with none. */
export function SubscriptionUsageCard({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const rows = subscription.meters.map((meter) => ({ ...meter, currency: subscription.currency }));
  const table = useReactTable({ data: rows, columns: usageColumns, enableSorting: false, getCoreRowModel: getCoreRowModel() });
  if (rows.length === 0) return null;
  return (
    <Card title={formatMessage(messages.usageTitle)} description={formatMessage(messages.usageText, { start: longDate(subscription.current_period_start), end: longDate(subscription.current_period_end) })}>
      <DataTable table={table} busy={false} />
    </Card>
  );
}
