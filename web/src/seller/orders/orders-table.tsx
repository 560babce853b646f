import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate, money } from "../../i18n/format";
import { EmptyState } from "../../ui/components";
import { ServerListing, useServerListing } from "../../ui/server-listing";
import { useSeller } from "../space";
import { listOrders, type Order, type OrderFilters } from "./api";
import { orderKeys } from "./queries";
import { billingReasonMessages, statusMessages } from "./labels";

const messages = defineMessages({
  loading: { id: "seller.orders.loading", defaultMessage: "Loading orders…" },
  none: { id: "seller.orders.none", defaultMessage: "No orders yet" },
  noneHint: { id: "seller.orders.noneHint", defaultMessage: "An order is made each time a buyer pays a checkout or a subscription renews." },
  noMatch: { id: "seller.orders.noMatch", defaultMessage: "No order matches these filters." },
  invoice: { id: "seller.orders.column.invoice", defaultMessage: "Invoice number" },
  customer: { id: "seller.orders.column.customer", defaultMessage: "Customer" },
  product: { id: "seller.orders.column.product", defaultMessage: "Product" },
  status: { id: "seller.orders.column.status", defaultMessage: "Status" },
  reason: { id: "seller.orders.column.reason", defaultMessage: "Billing reason" },
  total: { id: "seller.orders.column.total", defaultMessage: "Total" },
  created: { id: "seller.orders.column.created", defaultMessage: "Date" },
});

/** The order's invoice number (a draft has none yet), linking to its page. */
function OrderLink({ order }: { order: Order }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/orders/$orderId" params={{ slug, orderId: order.id }}>
      {order.invoice_number ?? <FormattedMessage {...statusMessages.draft} />}
    </Link>
  );
}

const column = createColumnHelper<Order>();
// Headers and cells render messages, so the table follows the language without being rebuilt.
const columns = [
  column.accessor("invoice_number", { header: () => <FormattedMessage {...messages.invoice} />, cell: (info) => <OrderLink order={info.row.original} /> }),
  column.display({ id: "customer", header: () => <FormattedMessage {...messages.customer} />, cell: (info) => info.row.original.customer.email }),
  column.display({ id: "product", header: () => <FormattedMessage {...messages.product} />, cell: (info) => info.row.original.product?.name ?? info.row.original.description }),
  // Polar's list filters by kind (one-time or recurring), not by reason: the reason is shown instead.
  column.accessor("billing_reason", { enableSorting: false, header: () => <FormattedMessage {...messages.reason} />, cell: (info) => <FormattedMessage {...billingReasonMessages[info.getValue()]} /> }),
  column.accessor("status", { header: () => <FormattedMessage {...messages.status} />, cell: (info) => <FormattedMessage {...statusMessages[info.getValue()]} /> }),
  column.display({ id: "total", header: () => <FormattedMessage {...messages.total} />, cell: (info) => money(info.row.original.total_amount, info.row.original.currency) }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

/** The seller's orders that match `filters`, sorted and paged by the server; a new filter starts again from the first page. */
export function OrdersTable({ filters }: { filters: OrderFilters }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const listing = useServerListing({
    key: orderKeys.list(seller.id, filters),
    load: (paging) => listOrders({ organizationId: seller.id, ...filters, ...paging }),
    columns,
    initialSorting: [{ id: "created_at", desc: true }],
  });
  // A customer's own orders are not "filtered": none of them is simply none yet.
  const filtered = Object.entries(filters).some(([name, value]) => name !== "customerId" && value);
  const empty = (
    <EmptyState title={formatMessage(filtered ? messages.noMatch : messages.none)}>
      {!filtered && <p>{formatMessage(messages.noneHint)}</p>}
    </EmptyState>
  );
  return <ServerListing listing={listing} loading={messages.loading} empty={empty} />;
}
