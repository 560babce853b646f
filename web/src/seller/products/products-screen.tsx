import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper, getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { describeError } from "../../api/client";
import { longDate } from "../../i18n/format";
import { Alert, EmptyState, Field, Loading, Page } from "../../ui/components";
import { DataTable, Pager } from "../../ui/data-table";
import { useDebounced } from "../../ui/use-debounced";
import { PriceLabel } from "./price-label";
import { listProducts, type Product } from "./products-api";
import { useSeller } from "../space";

const PAGE_SIZE = 20;

const messages = defineMessages({
  title: { id: "seller.products.title", defaultMessage: "Products" },
  total: defineMessage<{ total: number }>({ id: "seller.products.total", defaultMessage: "{total, plural, one {# product} other {# products}}" }),
  create: { id: "seller.products.create", defaultMessage: "New product" },
  search: { id: "seller.products.search", defaultMessage: "Search by name" },
  archived: { id: "seller.products.archived", defaultMessage: "Show archived products" },
  loading: { id: "seller.products.loading", defaultMessage: "Loading products…" },
  none: { id: "seller.products.none", defaultMessage: "No products yet" },
  noneHint: { id: "seller.products.noneHint", defaultMessage: "A product is what buyers pay for: once, or every month or year." },
  noMatch: { id: "seller.products.noMatch", defaultMessage: "No product matches." },
  noMatchHint: { id: "seller.products.noMatchHint", defaultMessage: "Change the search, or show archived products too." },
  name: { id: "seller.products.column.name", defaultMessage: "Product name" },
  price: { id: "seller.products.column.price", defaultMessage: "Price" },
  created: { id: "seller.products.column.created", defaultMessage: "Created" },
  archivedBadge: { id: "seller.products.archivedBadge", defaultMessage: "Archived" },
});

const column = createColumnHelper<Product>();
// Headers and cells render messages, so the table follows the language without being rebuilt.
const columns = [
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} />, cell: (info) => <ProductLink product={info.row.original} /> }),
  column.display({ id: "price", header: () => <FormattedMessage {...messages.price} />, cell: (info) => <PriceLabel product={info.row.original} /> }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

/** The product's name, to open it; archived ones say so. */
function ProductLink({ product }: { product: Product }) {
  const { slug } = useSeller();
  return (
    <>
      <Link to="/$slug/products/$productId" params={{ slug, productId: product.id }}>
        {product.name}
      </Link>
      {product.is_archived && (
        <span className="badge">
          <FormattedMessage {...messages.archivedBadge} />
        </span>
      )}
    </>
  );
}

/** Polar's sorting parameter for the table's order. */
const sortingParameter = ([sort]: SortingState) => (sort ? `${sort.desc ? "-" : ""}${sort.id}` : "-created_at");

/** The seller's products: searched, sorted and paged by the server, archived ones on request. */
export function ProductsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const [archived, setArchived] = useState(false);
  const [sorting, setSorting] = useState<SortingState>([{ id: "created_at", desc: true }]);
  const [page, setPage] = useState(0);
  const settledSearch = useDebounced(search, 300);
  const query = { organizationId: seller.id, search: settledSearch, archived, sorting: sortingParameter(sorting), page: page + 1, limit: PAGE_SIZE };
  const products = useQuery({ queryKey: ["products", query], queryFn: () => listProducts(query), placeholderData: (previous) => previous });
  const table = useReactTable({
    data: products.data?.data?.items ?? [],
    columns,
    state: { sorting },
    manualSorting: true,
    onSortingChange: (updater) => {
      setPage(0);
      setSorting(typeof updater === "function" ? updater(sorting) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });
  const total = products.data?.data?.pagination.total_count ?? 0;
  const pages = Math.max(1, products.data?.data?.pagination.max_page ?? 1);
  const filtered = settledSearch !== "" || archived;
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/products/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.total, { total })} actions={create}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      <div className="filters" role="search">
        <Field label={formatMessage(messages.search)}>
          {(ids) => (
            <input
              {...ids}
              type="search"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(0);
              }}
            />
          )}
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={archived}
            onChange={(event) => {
              setArchived(event.target.checked);
              setPage(0);
            }}
          />
          {formatMessage(messages.archived)}
        </label>
      </div>
      {products.data?.error && <Alert tone="error">{describeError(products.data.error)}</Alert>}
      {products.isPending ? (
        <Loading message={messages.loading} />
      ) : total === 0 ? (
        <EmptyState title={formatMessage(filtered ? messages.noMatch : messages.none)}>
          <p>{formatMessage(filtered ? messages.noMatchHint : messages.noneHint)}</p>
          {!filtered && create}
        </EmptyState>
      ) : (
        <>
          <DataTable table={table} busy={products.isFetching} />
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </Page>
  );
}
