import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeError, networkError } from "../../api/client";
import { pricesOf, productDetailsOf, productFormOf, type ProductForm } from "../../forms/products";
import { Alert, Button, Loading, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { useSeller } from "../space";
import { PriceLabel } from "./price-label";
import { ProductFormView } from "./product-form";
import { createCheckout, getProduct, setProductBenefits, updateProduct, type Product } from "./products-api";

const messages = defineMessages({
  loading: { id: "seller.product.loading", defaultMessage: "Loading the product…" },
  save: { id: "seller.product.save", defaultMessage: "Save changes" },
  saved: { id: "seller.product.saved", defaultMessage: "The product is saved." },
  archived: { id: "seller.product.archivedNote", defaultMessage: "This product is archived: no one can buy it, and those who did keep what they bought." },
  archive: { id: "seller.product.archive", defaultMessage: "Archive" },
  archiveTitle: defineMessage<{ name: string }>({ id: "seller.product.archiveTitle", defaultMessage: "Archive {name}?" }),
  archiveText: { id: "seller.product.archiveText", defaultMessage: "It leaves the checkout and the list of products. Subscriptions to it go on; you can bring it back later." },
  unarchive: { id: "seller.product.unarchive", defaultMessage: "Bring back" },
  unarchiveTitle: defineMessage<{ name: string }>({ id: "seller.product.unarchiveTitle", defaultMessage: "Bring back {name}?" }),
  unarchiveText: { id: "seller.product.unarchiveText", defaultMessage: "Buyers can buy it again." },
  preview: { id: "seller.product.preview", defaultMessage: "Preview the checkout" },
  previewHint: { id: "seller.product.previewHint", defaultMessage: "Opens a checkout for this product in a new tab, as a buyer sees it." },
});

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, index) => id === b[index]);

/** One product, to change, archive or bring back, and to see on a checkout as a buyer would. */
export function ProductScreen() {
  const { productId } = useParams({ strict: false });
  const product = useQuery({ queryKey: ["products", "one", productId], queryFn: () => getProduct(productId ?? "") });
  if (product.isPending) return <Loading message={messages.loading} />;
  if (!product.data?.data) return <Alert tone="error">{describeError(product.data?.error ?? networkError(product.error))}</Alert>;
  return <ProductEditor product={product.data.data} />;
}

function ProductEditor({ product }: { product: Product }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["products"] });
  const save = async (values: ProductForm) => {
    setNotice(null);
    const live = product.prices.filter((price) => !price.is_archived);
    const updated = await updateProduct(product.id, { ...productDetailsOf(values), prices: pricesOf(values.prices, live) });
    if (updated.error) return updated.error;
    const benefits = product.benefits.map((benefit) => benefit.id);
    if (!sameIds(benefits, values.benefits)) {
      const granted = await setProductBenefits(product.id, values.benefits);
      if (granted.error) return granted.error;
    }
    await refresh();
    setNotice({ tone: "success", text: formatMessage(messages.saved) });
    return null;
  };
  const setArchived = async (archived: boolean) => {
    const result = await updateProduct(product.id, { is_archived: archived });
    if (result.error) setNotice({ tone: "error", text: describeError(result.error) });
    else await refresh();
    return true;
  };
  const preview = async () => {
    // Opened while the click is still the user's, so that the browser does not block it; sent to the checkout once it exists.
    const tab = window.open("about:blank", "_blank");
    const checkout = await createCheckout(product.id);
    if (checkout.error) {
      tab?.close();
      return setNotice({ tone: "error", text: describeError(checkout.error) });
    }
    if (tab) tab.location.href = checkout.data.url;
    else window.location.assign(checkout.data.url);
  };
  const actions = seller.mayChange && (
    <>
      {!product.is_archived && (
        <Button variant="secondary" title={formatMessage(messages.previewHint)} onClick={() => void preview()}>
          {formatMessage(messages.preview)}
        </Button>
      )}
      <ConfirmDialog
        trigger={<Button variant={product.is_archived ? "secondary" : "danger"}>{formatMessage(product.is_archived ? messages.unarchive : messages.archive)}</Button>}
        title={formatMessage(product.is_archived ? messages.unarchiveTitle : messages.archiveTitle, { name: product.name })}
        description={formatMessage(product.is_archived ? messages.unarchiveText : messages.archiveText)}
        confirmLabel={formatMessage(product.is_archived ? messages.unarchive : messages.archive)}
        onConfirm={() => setArchived(!product.is_archived)}
      />
    </>
  );
  return (
    <Page title={product.name} description={<PriceLabel product={product} />} actions={actions}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {product.is_archived && <Alert tone="info">{formatMessage(messages.archived)}</Alert>}
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <ProductFormView
        // Saved prices get new ids: the form starts again from the product as saved.
        key={product.modified_at ?? product.created_at}
        initial={productFormOf(product)}
        existing
        organizationId={seller.id}
        readOnly={!seller.mayChange}
        submitLabel={formatMessage(messages.save)}
        onSave={save}
        onCancel={() => void navigate({ to: "/$slug/products", params: { slug: seller.slug } })}
      />
    </Page>
  );
}
