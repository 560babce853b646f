import { failureIn } from "../../api/client";
import { useNavigate } from "@tanstack/react-router";
import { defineMessages, useIntl } from "react-intl";
import { emptyProductForm, pricesOf, productDetailsOf, type ProductForm } from "./form";
import { Page } from "../../ui/components";
import { useSeller } from "../space";
import { ProductFormView } from "./product-form";
import type { PriceCreate } from "./products-api";
import { useCreateProduct, useSetProductBenefits } from "./queries";

const messages = defineMessages({
  title: { id: "seller.newProduct.title", defaultMessage: "New product" },
  description: { id: "seller.newProduct.description", defaultMessage: "Buyers see its name, description, images and price on the checkout." },
  create: { id: "seller.newProduct.create", defaultMessage: "Create product" },
});

/** A new product; its benefits are granted through their own endpoint once it exists, as in Polar. Then back to the list. */
export function NewProductScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const create = useCreateProduct();
  const setBenefits = useSetProductBenefits();
  const toProducts = () => void navigate({ to: "/$slug/products", params: { slug: seller.slug } });
  const save = async (values: ProductForm) => {
    // A new product has no live prices, so every row is a new price.
    const prices = pricesOf(values.prices) as PriceCreate[];
    const created = await create.mutateAsync({ ...productDetailsOf(values), organization_id: seller.id, prices });
    const granted = values.benefits.length === 0 || (await failureIn(setBenefits.mutateAsync({ id: created.id, benefits: values.benefits }))) === null;
    // The product exists either way: were its benefits refused, its own page shows which it grants, to try again there.
    if (!granted) await navigate({ to: "/$slug/products/$productId", params: { slug: seller.slug, productId: created.id } });
    else toProducts();
  };
  if (!seller.mayChange) return <Page title={formatMessage(messages.title)}>{seller.readOnlyReason}</Page>;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <ProductFormView initial={emptyProductForm()} existing={false} organizationId={seller.id} readOnly={false} submitLabel={formatMessage(messages.create)} onSave={save} onCancel={toProducts} />
    </Page>
  );
}
