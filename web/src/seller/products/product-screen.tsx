import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure, failureIn } from "../../api/client";
import { QueryState } from "../../ui/query-state";
import { pricesOf, productDetailsOf, productFormOf, type ProductForm } from "./form";
import { Alert, Button, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { useSeller } from "../space";
import { PriceLabel, TrialBadge } from "../../ui/price-label";
import { ProductFormView } from "./product-form";
import { createCheckout, type Product } from "./products-api";
import { productQuery, useSetProductBenefits, useUpdateProduct } from "./queries";

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
  const product = useQuery(productQuery(productId ?? ""));
  return (
    <QueryState query={product} loading={messages.loading}>
      {(loaded) => <ProductEditor product={loaded} />}
    </QueryState>
  );
}

function ProductEditor({ product }: { product: Product }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateProduct();
  const setBenefits = useSetProductBenefits();
  const save = async (values: ProductForm) => {
    setNotice(null);
    setSaved(false);
    const live = product.prices.filter((price) => !price.is_archived);
    await update.mutateAsync({ id: product.id, update: { ...productDetailsOf(values), prices: pricesOf(values.prices, live) } });
    const benefits = product.benefits.map((benefit) => benefit.id);
    if (!sameIds(benefits, values.benefits)) await setBenefits.mutateAsync({ id: product.id, benefits: values.benefits });
    setSaved(true);
  };
  const setArchived = async (archived: boolean) => {
    const failure = await failureIn(update.mutateAsync({ id: product.id, update: { is_archived: archived } }));
    if (failure !== null) setNotice({ tone: "error", text: failure });
    return true;
  };
  const preview = async () => {
    // Opened while the click is still the user's, so that the browser does not block it; sent to the checkout once it exists.
    const tab = window.open("about:blank", "_blank");
    let checkout: { url: string };
    try {
      checkout = await createCheckout(product.id);
    } catch (reason) {
      tab?.close();
      return setNotice({ tone: "error", text: describeFailure(reason) });
    }
    if (tab) tab.location.href = checkout.url;
    else window.location.assign(checkout.url);
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
    <Page
      title={product.name}
      description={
        <>
          <PriceLabel product={product} /> <TrialBadge product={product} />
        </>
      }
      actions={actions}
    >
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
        saved={saved ? formatMessage(messages.saved) : null}
        onSave={save}
        onCancel={() => void navigate({ to: "/$slug/products", params: { slug: seller.slug } })}
      />
    </Page>
  );
}
