import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useController, useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { checkoutLinkChangeOf, checkoutLinkForm, type CheckoutLinkChange, type CheckoutLinkForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { FormActions } from "../console-screens";
import { discountChoices } from "../discounts/queries";
import { ProductPicker } from "../product-picker";
import { useSeller } from "../space";

const messages = defineMessages({
  products: { id: "seller.checkoutLink.products", defaultMessage: "Products" },
  label: { id: "seller.checkoutLink.label", defaultMessage: "Label" },
  labelHint: { id: "seller.checkoutLink.labelHint", defaultMessage: "Optional, for you: where you share it." },
  discount: { id: "seller.checkoutLink.discount", defaultMessage: "Discount applied" },
  noDiscount: { id: "seller.checkoutLink.noDiscount", defaultMessage: "None" },
  allowCodes: { id: "seller.checkoutLink.allowCodes", defaultMessage: "Buyers may enter a discount code" },
  successUrl: { id: "seller.checkoutLink.successUrl", defaultMessage: "Address after payment" },
  successUrlHint: { id: "seller.checkoutLink.successUrlHint", defaultMessage: "Optional: where buyers go once they have paid, such as https://example.com/thanks." },
  metadata: { id: "seller.checkoutLink.metadata", defaultMessage: "Metadata" },
  metadataHint: { id: "seller.checkoutLink.metadataHint", defaultMessage: "Optional. A JSON object copied to each checkout the link opens." },
  cancel: { id: "seller.checkoutLink.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof CheckoutLinkForm> = {
  products: "products",
  "products.0": "products",
  label: "label",
  discount_id: "discountId",
  success_url: "successUrl",
  metadata: "metadata",
};

/** A checkout link's form, new or changed: `save` sends its settings and rejects with what the API refused, placed by the fields. */
export function CheckoutLinkEditor({ initial, submitLabel, save, onCancel }: { initial: CheckoutLinkForm; submitLabel: string; save: (change: CheckoutLinkChange) => Promise<unknown>; onCancel: () => void }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CheckoutLinkForm>({ resolver: zodResolver(checkoutLinkForm), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const products = useController({ control: form.control, name: "products" });
  const discounts = useQuery(discountChoices(seller.id));
  const submit = form.handleSubmit(async (values) => {
    try {
      await save(checkoutLinkChangeOf(values));
    } catch (reason) {
      setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
  });
  return (
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
      <Field label={formatMessage(messages.metadata)} hint={formatMessage(messages.metadataHint)} error={errors.metadata?.message}>
        {(ids) => <textarea {...ids} {...form.register("metadata")} rows={2} spellCheck={false} />}
      </Field>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={submitLabel} cancel={formatMessage(messages.cancel)} onCancel={onCancel} />
    </form>
  );
}
