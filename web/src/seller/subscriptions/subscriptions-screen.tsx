import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Field } from "../../ui/components";
import { useServerListing } from "../../ui/server-listing";
import { productChoices } from "../products/queries";
import { ChoiceFilter, ListScreen } from "../console-screens";
import { useSeller } from "../space";
import { StandingBadge, useRecurringAmount } from "./standing";
import { customerChoices } from "../customers/queries";
import { subscriptionKeys } from "./queries";
import { listSubscriptions, STANDINGS, type Standing, type Subscription } from "./subscriptions-api";

const messages = defineMessages({
  title: { id: "seller.subscriptions.title", defaultMessage: "Subscriptions" },
  total: defineMessage<{ total: number }>({ id: "seller.subscriptions.total", defaultMessage: "{total, plural, one {# subscription} other {# subscriptions}}" }),
  product: { id: "seller.subscriptions.filter.product", defaultMessage: "Product" },
  customer: { id: "seller.subscriptions.filter.customer", defaultMessage: "Customer" },
  anyProduct: { id: "seller.subscriptions.filter.anyProduct", defaultMessage: "All products" },
  anyCustomer: { id: "seller.subscriptions.filter.anyCustomer", defaultMessage: "All customers" },
  standing: { id: "seller.subscriptions.filter.standing", defaultMessage: "Status" },
  all: { id: "seller.subscriptions.filter.all", defaultMessage: "All" },
  active: { id: "seller.subscriptions.filter.active", defaultMessage: "Active" },
  ending: { id: "seller.subscriptions.filter.ending", defaultMessage: "Canceled at period end" },
  ended: { id: "seller.subscriptions.filter.ended", defaultMessage: "Ended" },
  loading: { id: "seller.subscriptions.loading", defaultMessage: "Loading subscriptions…" },
  none: { id: "seller.subscriptions.none", defaultMessage: "No subscriptions yet" },
  noneHint: { id: "seller.subscriptions.noneHint", defaultMessage: "A subscription starts when a buyer pays for a monthly or yearly product." },
  noMatch: { id: "seller.subscriptions.noMatch", defaultMessage: "No subscription matches." },
  noMatchHint: { id: "seller.subscriptions.noMatchHint", defaultMessage: "Change the filters to see more." },
  columnCustomer: { id: "seller.subscriptions.column.customer", defaultMessage: "Customer" },
  columnProduct: { id: "seller.subscriptions.column.product", defaultMessage: "Product" },
  columnStatus: { id: "seller.subscriptions.column.status", defaultMessage: "Status" },
  columnAmount: { id: "seller.subscriptions.column.amount", defaultMessage: "Amount" },
  columnPeriodEnd: { id: "seller.subscriptions.column.periodEnd", defaultMessage: "Current period ends" },
  columnStarted: { id: "seller.subscriptions.column.started", defaultMessage: "Started" },
});

function CustomerLink({ subscription }: { subscription: Subscription }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/subscriptions/$id" params={{ slug, id: subscription.id }}>
      {subscription.customer.email}
    </Link>
  );
}

function Amount({ subscription }: { subscription: Subscription }) {
  return <>{useRecurringAmount()(subscription)}</>;
}

const column = createColumnHelper<Subscription>();
// Headers and cells render messages, so the table follows the language without being rebuilt.
const columns = [
  column.display({ id: "customer", header: () => <FormattedMessage {...messages.columnCustomer} />, cell: (info) => <CustomerLink subscription={info.row.original} /> }),
  column.display({ id: "product", header: () => <FormattedMessage {...messages.columnProduct} />, cell: (info) => info.row.original.product.name }),
  column.accessor("status", { header: () => <FormattedMessage {...messages.columnStatus} />, cell: (info) => <StandingBadge subscription={info.row.original} /> }),
  column.accessor("amount", { header: () => <FormattedMessage {...messages.columnAmount} />, cell: (info) => <Amount subscription={info.row.original} /> }),
  column.accessor("current_period_end", { header: () => <FormattedMessage {...messages.columnPeriodEnd} />, cell: (info) => longDate(info.getValue()) }),
  column.accessor("started_at", { header: () => <FormattedMessage {...messages.columnStarted} />, cell: (info) => (info.getValue() ? longDate(info.getValue() ?? "") : "—") }),
];

/** The seller's subscriptions: filtered by product, customer and standing, sorted and paged by the server. */
export function SubscriptionsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [productId, setProductId] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [standing, setStanding] = useState<Standing>("all");
  const listing = useServerListing({
    key: subscriptionKeys.list({ organizationId: seller.id, productId, customerId, standing }),
    load: (page) => listSubscriptions({ organizationId: seller.id, productId, customerId, standing, ...page }),
    columns,
    initialSorting: [{ id: "started_at", desc: true }],
  });
  const products = useQuery(productChoices(seller.id, "name"));
  const customers = useQuery(customerChoices(seller.id));
  const filtered = productId !== "" || customerId !== "" || standing !== "all";
  const filterBy =
    <Value extends string>(set: (value: Value) => void) =>
    (event: { target: { value: string } }) =>
      set(event.target.value as Value);
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      filtered={filtered}
      activeFilters={Number(productId !== "") + Number(customerId !== "") + Number(standing !== "all")}
      listing={listing}
      says={messages}
      filters={
        <>
          <ChoiceFilter
            label={formatMessage(messages.product)}
            anyLabel={formatMessage(messages.anyProduct)}
            choices={(products.data?.items ?? []).filter((product) => product.recurring_interval).map((product) => ({ value: product.id, label: product.name }))}
            value={productId}
            onChange={setProductId}
          />
          <ChoiceFilter
            label={formatMessage(messages.customer)}
            anyLabel={formatMessage(messages.anyCustomer)}
            choices={(customers.data?.items ?? []).map((customer) => ({ value: customer.id, label: customer.email }))}
            value={customerId}
            onChange={setCustomerId}
          />
          <Field label={formatMessage(messages.standing)}>
            {(ids) => (
              <select {...ids} value={standing} onChange={filterBy<Standing>(setStanding)}>
                {STANDINGS.map((option) => (
                  <option key={option} value={option}>
                    {formatMessage(messages[option])}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      }
    />
  );
}
