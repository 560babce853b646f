import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useController, useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { checkoutLinkCreateOf, checkoutLinkForm, type CheckoutLinkForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { FormActions, NewScreen } from "../console-screens";
import { discountChoices } from "../discounts/queries";
import { ProductPicker } from "../product-picker";
import { useSeller } from "../space";
import { useCreateCheckoutLink } from "./queries";

const messages = defineMessages({
  title: { id: "seller.checkoutLink.title", defaultMessage: "New checkout link" },
  intro: { id: "seller.checkoutLink.intro", defaultMessage: "Each visit opens a fresh checkout. With several products, buyers choose one." },
  products: { id: "seller.checkoutLink.products", defaultMessage: "Products" },
  label: { id: "seller.checkoutLink.label", defaultMessage: "Label" },
  labelHint: { id: "seller.checkoutLink.labelHint", defaultMessage: "Optional, for you: where you share it." },
  discount: { id: "seller.checkoutLink.discount", defaultMessage: "Discount applied" },
  noDiscount: { id: "seller.checkoutLink.noDiscount", defaultMessage: "None" },
  allowCodes: { id: "seller.checkoutLink.allowCodes", defaultMessage: "Buyers may enter a discount code" },
  successUrl: { id: "seller.checkoutLink.successUrl", defaultMessage: "Address after payment" },
  successUrlHint: { id: "seller.checkoutLink.successUrlHint", defaultMessage: "Optional: where buyers go once they have paid, such as https://example.com/thanks." },
  create: { id: "seller.checkoutLink.create", defaultMessage: "Create checkout link" },
  cancel: { id: "seller.checkoutLink.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof CheckoutLinkForm> = {
  products: "products",
  "products.0": "products",
  label: "label",
  discount_id: "discountId",
  success_url: "successUrl",
};

export function NewCheckoutLinkScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CheckoutLinkForm>({ resolver: zodResolver(checkoutLinkForm), defaultValues: { products: [], label: "", discountId: "", successUrl: "", allowDiscountCodes: true } });
  const { errors, isSubmitting } = form.formState;
  const products = useController({ control: form.control, name: "products" });
  const discounts = useQuery(discountChoices(seller.id));
  const create = useCreateCheckoutLink();
  const toList = () => navigate({ to: "/$slug/checkout-links", params: { slug: seller.slug } });
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(checkoutLinkCreateOf(values));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    await toList();
  });
  return (
    <NewScreen title={formatMessage(messages.title)} intro={formatMessage(messages.intro)}>
      <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
        <ProductPicker organizationId={seller.id} legend={formatMessage(messages.products)} selected={products.field.value} onChange={products.field.onChange} error={errors.products?.message} />
        <Field label={formatMessage(messages.label)} hint={formatMessage(messages.labelHint)} error={errors.label?.message}>
          {(ids) => <input {...ids} {...form.register("label")} autoComplete="off" />}
        </Field>
        <Field label={formatMessage(messages.discount)} error={errors.discountId?.message}>
          {(ids) => (
            <select {...ids} {...form.register("discountId")}>
              <option value="">{formatMessage(messages.noDiscount)}</option>
              {(discounts.data?.items ?? []).map((discount) => (
                <option key={discount.id} value={discount.id}>
                  {discount.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register("allowDiscountCodes")} />
          {formatMessage(messages.allowCodes)}
        </label>
        <Field label={formatMessage(messages.successUrl)} hint={formatMessage(messages.successUrlHint)} error={errors.successUrl?.message}>
          {(ids) => <input {...ids} {...form.register("successUrl")} type="url" autoComplete="off" />}
        </Field>
        {failure && <Alert tone="error">{failure}</Alert>}
        <FormActions busy={isSubmitting} submit={formatMessage(messages.create)} cancel={formatMessage(messages.cancel)} onCancel={() => void toList()} />
      </form>
    </NewScreen>
  );
}
