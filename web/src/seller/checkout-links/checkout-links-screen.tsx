import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { CopyButton } from "../../ui/copy-button";
import { useServerListing } from "../../ui/server-listing";
import { ListScreen, RowActions } from "../console-screens";
import { useSeller } from "../space";
import { listCheckoutLinks, type CheckoutLink } from "./checkout-links-api";
import { checkoutLinkKeys, useDeleteCheckoutLink } from "./queries";
import { QrCode } from "../../ui/qr-code";

const messages = defineMessages({
  title: { id: "seller.checkoutLinks.title", defaultMessage: "Checkout links" },
  total: defineMessage<{ total: number }>({ id: "seller.checkoutLinks.total", defaultMessage: "{total, plural, one {# link} other {# links}}" }),
  create: { id: "seller.checkoutLinks.create", defaultMessage: "New checkout link" },
  loading: { id: "seller.checkoutLinks.loading", defaultMessage: "Loading checkout links…" },
  none: { id: "seller.checkoutLinks.none", defaultMessage: "No checkout links yet" },
  noneHint: { id: "seller.checkoutLinks.noneHint", defaultMessage: "A checkout link opens a fresh checkout for your products: share it, or print its QR code." },
  link: { id: "seller.checkoutLinks.column.link", defaultMessage: "Link" },
  products: { id: "seller.checkoutLinks.column.products", defaultMessage: "Products" },
  discount: { id: "seller.checkoutLinks.column.discount", defaultMessage: "Discount" },
  share: { id: "seller.checkoutLinks.column.share", defaultMessage: "Share" },
  copy: { id: "seller.checkoutLinks.copy", defaultMessage: "Copy the address" },
  showQr: { id: "seller.checkoutLinks.showQr", defaultMessage: "QR code" },
  qrLabel: defineMessage<{ url: string }>({ id: "seller.checkoutLinks.qrLabel", defaultMessage: "QR code of {url}" }),
  codesAllowed: { id: "seller.checkoutLinks.codesAllowed", defaultMessage: "Buyers may enter a discount code." },
  edit: { id: "seller.checkoutLinks.edit", defaultMessage: "Edit" },
  delete: { id: "seller.checkoutLinks.delete", defaultMessage: "Delete" },
  deleteTitle: { id: "seller.checkoutLinks.deleteTitle", defaultMessage: "Delete this checkout link?" },
  deleteText: { id: "seller.checkoutLinks.deleteText", defaultMessage: "Its address stops working; checkouts already opened from it can still be paid." },
});

function LinkCell({ link }: { link: CheckoutLink }) {
  return (
    <div className="link-cell">
      {link.label && <strong>{link.label}</strong>}
      <a href={link.url} className="link-url">
        {link.url}
      </a>
      {link.allow_discount_codes && (
        <span className="muted">
          <FormattedMessage {...messages.codesAllowed} />
        </span>
      )}
    </div>
  );
}

/** The link's address to copy and its QR code (drawn only when asked for), and for those who may, changing or deleting it. */
function ShareCell({ link }: { link: CheckoutLink }) {
  const { formatMessage } = useIntl();
  const { slug } = useSeller();
  const remove = useDeleteCheckoutLink();
  return (
    <div className="row-actions">
      <CopyButton text={link.url} label={formatMessage(messages.copy)} />
      <details className="qr">
        <summary>{formatMessage(messages.showQr)}</summary>
        <QrCode text={link.url} label={formatMessage(messages.qrLabel, { url: link.url })} />
      </details>
      <RowActions
        edit={
          <Link to="/$slug/checkout-links/$id" params={{ slug, id: link.id }} aria-label={`${formatMessage(messages.edit)}: ${link.label ?? link.url}`}>
            {formatMessage(messages.edit)}
          </Link>
        }
        remove={() => remove.mutateAsync(link.id)}
        says={{ delete: formatMessage(messages.delete), deleteTitle: formatMessage(messages.deleteTitle), deleteText: formatMessage(messages.deleteText) }}
      />
    </div>
  );
}

const column = createColumnHelper<CheckoutLink>();
const columns = [
  column.display({ id: "link", header: () => <FormattedMessage {...messages.link} />, cell: (info) => <LinkCell link={info.row.original} /> }),
  column.display({ id: "products", header: () => <FormattedMessage {...messages.products} />, cell: (info) => info.row.original.products.map((product) => product.name).join(", ") }),
  column.display({ id: "discount", header: () => <FormattedMessage {...messages.discount} />, cell: (info) => info.row.original.discount?.name }),
  column.display({ id: "share", header: () => <FormattedMessage {...messages.share} />, cell: (info) => <ShareCell link={info.row.original} /> }),
];

/** The seller's checkout links, newest first, each with its address to copy, its QR code, and a way to delete it. */
export function CheckoutLinksScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const listing = useServerListing({ key: checkoutLinkKeys.list(seller.id), load: (page) => listCheckoutLinks(seller.id, page), columns, initialSorting: [{ id: "created_at", desc: true }] });
  const create = seller.mayChange && (
    <Link className="button button-primary" to="/$slug/checkout-links/new" params={{ slug: seller.slug }}>
      {formatMessage(messages.create)}
    </Link>
  );
  return <ListScreen title={formatMessage(messages.title)} description={formatMessage(messages.total, { total: listing.total })} create={create} listing={listing} says={{ ...messages, noMatch: messages.none }} />;
}
