import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { ListScreen, RowActions, SearchFilter } from "../console-screens";
import { useSeller } from "../space";
import { DiscountTerms } from "./discount-terms";
import { listDiscounts, type Discount } from "./discounts-api";
import { discountKeys, useDeleteDiscount } from "./queries";

const messages = defineMessages({
  title: { id: "seller.discounts.title", defaultMessage: "Discounts" },
  total: defineMessage<{ total: number }>({ id: "seller.discounts.total", defaultMessage: "{total, plural, one {# discount} other {# discounts}}" }),
  create: { id: "seller.discounts.create", defaultMessage: "New discount" },
  search: { id: "seller.discounts.search", defaultMessage: "Search by name or code" },
  loading: { id: "seller.discounts.loading", defaultMessage: "Loading discounts…" },
  none: { id: "seller.discounts.none", defaultMessage: "No discounts yet" },
  noneHint: { id: "seller.discounts.noneHint", defaultMessage: "A discount takes a share or an amount off, with a code buyers type or through a checkout link." },
  noMatch: { id: "seller.discounts.noMatch", defaultMessage: "No discount matches." },
  name: { id: "seller.discounts.column.name", defaultMessage: "Name" },
  code: { id: "seller.discounts.column.code", defaultMessage: "Code" },
  terms: { id: "seller.discounts.column.terms", defaultMessage: "Terms" },
  redemptions: { id: "seller.discounts.column.redemptions", defaultMessage: "Redeemed" },
  redeemed: defineMessage<{ count: number; limit: number }>({ id: "seller.discounts.redeemed", defaultMessage: "{count, number} of {limit, number}" }),
  actions: { id: "seller.discounts.column.actions", defaultMessage: "Actions" },
  edit: { id: "seller.discounts.edit", defaultMessage: "Edit" },
  delete: { id: "seller.discounts.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ name: string }>({ id: "seller.discounts.deleteTitle", defaultMessage: "Delete “{name}”?" }),
  deleteText: { id: "seller.discounts.deleteText", defaultMessage: "New checkouts can no longer use it; subscriptions that have it keep it." },
});

function DiscountActions({ discount }: { discount: Discount }) {
  const { formatMessage } = useIntl();
  const remove = useDeleteDiscount();
  const { slug } = useSeller();
  return (
    <RowActions
      edit={
        <Link to="/$slug/discounts/$id" params={{ slug, id: discount.id }} aria-label={`${formatMessage(messages.edit)}: ${discount.name}`}>
          {formatMessage(messages.edit)}
        </Link>
      }
      remove={() => remove.mutateAsync(discount.id)}
      says={{ delete: formatMessage(messages.delete), deleteTitle: formatMessage(messages.deleteTitle, { name: discount.name }), deleteText: formatMessage(messages.deleteText) }}
    />
  );
}

const column = createColumnHelper<Discount>();
const columns = [
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} /> }),
  column.accessor("code", { header: () => <FormattedMessage {...messages.code} />, cell: (info) => info.getValue() && <code>{info.getValue()}</code> }),
  column.display({ id: "terms", header: () => <FormattedMessage {...messages.terms} />, cell: (info) => <DiscountTerms discount={info.row.original} /> }),
  column.accessor("redemptions_count", {
    header: () => <FormattedMessage {...messages.redemptions} />,
    cell: (info) => {
      const limit = info.row.original.max_redemptions;
      return limit === null ? info.getValue() : <FormattedMessage {...messages.redeemed} values={{ count: info.getValue(), limit }} />;
    },
  }),
  column.display({ id: "actions", header: () => <FormattedMessage {...messages.actions} />, cell: (info) => <DiscountActions discount={info.row.original} /> }),
];

/** The seller's discounts, searched by name or code, each to edit or delete. */
export function DiscountsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const settledSearch = useDebounced(search, 300);
  const listing = useServerListing({ key: discountKeys.list(seller.id, settledSearch), load: (page) => listDiscounts(seller.id, settledSearch, page), columns, initialSorting: [{ id: "created_at", desc: true }] });
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/discounts/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
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
