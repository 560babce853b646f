import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { useServerListing } from "../../ui/server-listing";
import { useDebounced } from "../../ui/use-debounced";
import { PriceLabel, TrialBadge } from "../../ui/price-label";
import { listProducts, type Product } from "./products-api";
import { productKeys } from "./queries";
import { ListScreen, SearchFilter } from "../console-screens";
import { useSeller } from "../space";

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

/** The product's price, and its trial if it has one. */
const PriceWithTrial = ({ product }: { product: Product }) => (
  <>
    <PriceLabel product={product} /> <TrialBadge product={product} />
  </>
);

const column = createColumnHelper<Product>();
// Headers and cells render messages, so the table follows the language without being rebuilt.
const columns = [
  column.accessor("name", { header: () => <FormattedMessage {...messages.name} />, cell: (info) => <ProductLink product={info.row.original} /> }),
  column.display({ id: "price", header: () => <FormattedMessage {...messages.price} />, cell: (info) => <PriceWithTrial product={info.row.original} /> }),
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

/** The seller's products: searched, sorted and paged by the server, archived ones on request. */
export function ProductsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [search, setSearch] = useState("");
  const [archived, setArchived] = useState(false);
  const settledSearch = useDebounced(search, 300);
  const listing = useServerListing({
    key: productKeys.list({ organizationId: seller.id, search: settledSearch, archived }),
    load: (paging) => listProducts({ organizationId: seller.id, search: settledSearch, archived, ...paging }),
    columns,
    initialSorting: [{ id: "created_at", desc: true }],
  });
  const filtered = settledSearch !== "" || archived;
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/products/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      create={create}
      filtered={filtered}
      activeFilters={Number(settledSearch !== "") + Number(archived)}
      listing={listing}
      says={messages}
      filters={
        <>
          <SearchFilter label={formatMessage(messages.search)} value={search} onChange={setSearch} />
          <label className="checkbox">
            <input type="checkbox" checked={archived} onChange={(event) => setArchived(event.target.checked)} />
            {formatMessage(messages.archived)}
          </label>
        </>
      }
    />
  );
}
