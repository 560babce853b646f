import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { ListScreen, RowActions, SearchFilter, TypeFilter } from "../console-screens";
import { useSeller } from "../space";
import { BENEFIT_TYPES, listBenefits, type Benefit, type BenefitType } from "./benefits-api";
import { benefitKeys, useDeleteBenefit } from "./queries";
import { benefitTypeLabels } from "./benefit-type-label";

const messages = defineMessages({
  title: { id: "seller.benefits.title", defaultMessage: "Benefits" },
  total: defineMessage<{ total: number }>({ id: "seller.benefits.total", defaultMessage: "{total, plural, one {# benefit} other {# benefits}}" }),
  create: { id: "seller.benefits.create", defaultMessage: "New benefit" },
  search: { id: "seller.benefits.search", defaultMessage: "Search by description" },
  type: { id: "seller.benefits.filter.type", defaultMessage: "Type" },
  anyType: { id: "seller.benefits.filter.anyType", defaultMessage: "All types" },
  loading: { id: "seller.benefits.loading", defaultMessage: "Loading benefits…" },
  none: { id: "seller.benefits.none", defaultMessage: "No benefits yet" },
  noneHint: { id: "seller.benefits.noneHint", defaultMessage: "A benefit is what buyers get with a product: a license key, files to download, credits or a note." },
  noMatch: { id: "seller.benefits.noMatch", defaultMessage: "No benefit matches." },
  description: { id: "seller.benefits.column.description", defaultMessage: "Description" },
  created: { id: "seller.benefits.column.created", defaultMessage: "Created" },
  actions: { id: "seller.benefits.column.actions", defaultMessage: "Actions" },
  edit: { id: "seller.benefits.edit", defaultMessage: "Edit" },
  delete: { id: "seller.benefits.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ description: string }>({ id: "seller.benefits.deleteTitle", defaultMessage: "Delete “{description}”?" }),
  deleteText: { id: "seller.benefits.deleteText", defaultMessage: "Customers who hold it lose it, and products no longer grant it." },
});

function BenefitActions({ benefit }: { benefit: Benefit }) {
  const { formatMessage } = useIntl();
  const { slug } = useSeller();
  const remove = useDeleteBenefit();
  return (
    <RowActions
      edit={
        <Link to="/$slug/benefits/$id" params={{ slug, id: benefit.id }} aria-label={`${formatMessage(messages.edit)}: ${benefit.description}`}>
          {formatMessage(messages.edit)}
        </Link>
      }
      remove={benefit.deletable ? () => remove.mutateAsync(benefit.id) : null}
      says={{ delete: formatMessage(messages.delete), deleteTitle: formatMessage(messages.deleteTitle, { description: benefit.description }), deleteText: formatMessage(messages.deleteText) }}
    />
  );
}

const column = createColumnHelper<Benefit>();
const columns = [
  column.accessor("description", { header: () => <FormattedMessage {...messages.description} /> }),
  column.accessor("type", { header: () => <FormattedMessage {...messages.type} />, cell: (info) => <FormattedMessage {...benefitTypeLabels[info.getValue()]} /> }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
  column.display({ id: "actions", header: () => <FormattedMessage {...messages.actions} />, cell: (info) => <BenefitActions benefit={info.row.original} /> }),
];

/** The seller's benefits, by type and description, each to edit or delete. */
export function BenefitsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const [type, setType] = useState<BenefitType | "">("");
  const filter = { type, search: useDebounced(search, 300) };
  const listing = useServerListing({ key: benefitKeys.list(seller.id, filter), load: (page) => listBenefits(seller.id, filter, page), columns, initialSorting: [{ id: "created_at", desc: true }] });
  const filtered = filter.search !== "" || type !== "";
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/benefits/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      create={create}
      filtered={filtered}
      activeFilters={Number(filter.search !== "") + Number(type !== "")}
      listing={listing}
      says={messages}
      filters={
        <>
          <SearchFilter label={formatMessage(messages.search)} value={search} onChange={setSearch} />
          <TypeFilter label={formatMessage(messages.type)} anyLabel={formatMessage(messages.anyType)} types={BENEFIT_TYPES} labelOf={(option) => formatMessage(benefitTypeLabels[option])} value={type} onChange={setType} />
        </>
      }
    />
  );
}
