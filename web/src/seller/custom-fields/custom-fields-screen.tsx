import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { ListScreen, RowActions, SearchFilter, TypeFilter } from "../console-screens";
import { useSeller } from "../space";
import { CUSTOM_FIELD_TYPES, listCustomFields, type CustomField, type CustomFieldType } from "./custom-fields-api";
import { customFieldKeys, useDeleteCustomField } from "./queries";
import { customFieldTypeLabels } from "./custom-field-type-label";

const messages = defineMessages({
  title: { id: "seller.customFields.title", defaultMessage: "Custom fields" },
  total: defineMessage<{ total: number }>({ id: "seller.customFields.total", defaultMessage: "{total, plural, one {# field} other {# fields}}" }),
  create: { id: "seller.customFields.create", defaultMessage: "New custom field" },
  search: { id: "seller.customFields.search", defaultMessage: "Search by name or slug" },
  type: { id: "seller.customFields.filter.type", defaultMessage: "Type" },
  anyType: { id: "seller.customFields.filter.anyType", defaultMessage: "All types" },
  loading: { id: "seller.customFields.loading", defaultMessage: "Loading custom fields…" },
  none: { id: "seller.customFields.none", defaultMessage: "No custom fields yet" },
  noneHint: { id: "seller.customFields.noneHint", defaultMessage: "A custom field asks buyers for more on the checkout: a company number, a date, a choice." },
  noMatch: { id: "seller.customFields.noMatch", defaultMessage: "No custom field matches." },
  name: { id: "seller.customFields.column.name", defaultMessage: "Name" },
  slug: { id: "seller.customFields.column.slug", defaultMessage: "Slug" },
  actions: { id: "seller.customFields.column.actions", defaultMessage: "Actions" },
  edit: { id: "seller.customFields.edit", defaultMessage: "Edit" },
  delete: { id: "seller.customFields.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ name: string }>({ id: "seller.customFields.deleteTitle", defaultMessage: "Delete “{name}”?" }),
  deleteText: { id: "seller.customFields.deleteText", defaultMessage: "Checkouts stop asking for it; answers already given stay on their orders." },
});

function CustomFieldActions({ field }: { field: CustomField }) {
  const { formatMessage } = useIntl();
  const remove = useDeleteCustomField();
  const { slug } = useSeller();
  return (
    <RowActions
      edit={
        <Link to="/$slug/custom-fields/$id" params={{ slug, id: field.id }} aria-label={`${formatMessage(messages.edit)}: ${field.name}`}>
          {formatMessage(messages.edit)}
        </Link>
      }
      remove={() => remove.mutateAsync(field.id)}
      says={{ delete: formatMessage(messages.delete), deleteTitle: formatMessage(messages.deleteTitle, { name: field.name }), deleteText: formatMessage(messages.deleteText) }}
    />
  );
}

const column = createColumnHelper<CustomField>();
const columns = [
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} /> }),
  column.accessor("slug", { header: () => <FormattedMessage {...messages.slug} />, cell: (info) => <code>{info.getValue()}</code> }),
  column.accessor("type", { header: () => <FormattedMessage {...messages.type} />, cell: (info) => <FormattedMessage {...customFieldTypeLabels[info.getValue()]} /> }),
  column.display({ id: "actions", header: () => <FormattedMessage {...messages.actions} />, cell: (info) => <CustomFieldActions field={info.row.original} /> }),
];

/** The seller's custom fields, by type, name or slug, each to edit or delete. */
export function CustomFieldsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const [type, setType] = useState<CustomFieldType | "">("");
  const filter = { type, search: useDebounced(search, 300) };
  const listing = useServerListing({ key: customFieldKeys.list(seller.id, filter), load: (page) => listCustomFields(seller.id, filter, page), columns, initialSorting: [{ id: "name", desc: false }] });
  const filtered = filter.search !== "" || type !== "";
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/custom-fields/new" params={{ slug: seller.slug }}>
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
          <TypeFilter label={formatMessage(messages.type)} anyLabel={formatMessage(messages.anyType)} types={CUSTOM_FIELD_TYPES} labelOf={(option) => formatMessage(customFieldTypeLabels[option])} value={type} onChange={setType} />
        </>
      }
    />
  );
}
