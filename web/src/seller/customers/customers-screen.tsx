import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Button } from "../../ui/components";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { ListScreen, SearchFilter } from "../console-screens";
import { useSeller } from "../space";
import { listCustomers, type Customer } from "./api";
import { customerKeys } from "./queries";
import { CustomerDialog } from "./customer-dialog";

const messages = defineMessages({
  title: { id: "seller.customers.title", defaultMessage: "Customers" },
  total: defineMessage<{ total: number }>({ id: "seller.customers.total", defaultMessage: "{total, plural, one {# customer} other {# customers}}" }),
  create: { id: "seller.customers.create", defaultMessage: "New customer" },
  search: { id: "seller.customers.search", defaultMessage: "Search by e-mail or name" },
  loading: { id: "seller.customers.loading", defaultMessage: "Loading customers…" },
  none: { id: "seller.customers.none", defaultMessage: "No customers yet" },
  noneHint: { id: "seller.customers.noneHint", defaultMessage: "A buyer becomes a customer when they pay a checkout; you can also add one yourself." },
  noMatch: { id: "seller.customers.noMatch", defaultMessage: "No customer matches." },
  email: { id: "seller.customers.column.email", defaultMessage: "E-mail" },
  name: { id: "seller.customers.column.name", defaultMessage: "Name" },
  created: { id: "seller.customers.column.created", defaultMessage: "Customer since" },
});

/** The customer's e-mail, linking to their page. */
function CustomerLink({ customer }: { customer: Customer }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/customers/$customerId" params={{ slug, customerId: customer.id }}>
      {customer.email}
    </Link>
  );
}

const column = createColumnHelper<Customer>();
const columns = [
  column.accessor("email", { header: () => <FormattedMessage {...messages.email} />, cell: (info) => <CustomerLink customer={info.row.original} /> }),
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} />, cell: (info) => info.getValue() ?? "" }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

/** The seller's customers: searched by e-mail or name, sorted and paged by the server. */
export function CustomersScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const settledSearch = useDebounced(search, 300);
  const listing = useServerListing({
    key: customerKeys.list(seller.id, settledSearch),
    load: (paging) => listCustomers({ organizationId: seller.id, search: settledSearch, ...paging }),
    columns,
    initialSorting: [{ id: "created_at", desc: true }],
  });
  const create = seller.mayChange && <CustomerDialog trigger={<Button>{formatMessage(messages.create)}</Button>} />;
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      create={create}
      filtered={settledSearch !== ""}
      listing={listing}
      says={messages}
      filters={<SearchFilter label={formatMessage(messages.search)} value={search} onChange={setSearch} />}
    />
  );
}
