import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../forms/refusals";
import { BILLING_CYCLES, CURRENCIES, minorUnits, newProductForm, PRICE_TYPES, type NewProductForm } from "../forms/schemas";
import { Alert, Button, Field, Page } from "../ui/components";
import { createProduct, type ProductCreate } from "./products-api";
import { useSeller } from "./space";

const messages = defineMessages({
  title: { id: "seller.newProduct.title", defaultMessage: "New product" },
  description: { id: "seller.newProduct.description", defaultMessage: "Buyers see its name, description and price on the checkout." },
  name: { id: "seller.newProduct.name", defaultMessage: "Product name" },
  about: { id: "seller.newProduct.about", defaultMessage: "Description" },
  aboutHint: { id: "seller.newProduct.aboutHint", defaultMessage: "Optional. Markdown is allowed." },
  cycle: { id: "seller.newProduct.cycle", defaultMessage: "Billing" },
  once: { id: "seller.newProduct.cycle.once", defaultMessage: "Once" },
  month: { id: "seller.newProduct.cycle.month", defaultMessage: "Every month" },
  year: { id: "seller.newProduct.cycle.year", defaultMessage: "Every year" },
  priceType: { id: "seller.newProduct.priceType", defaultMessage: "Price" },
  fixed: { id: "seller.newProduct.priceType.fixed", defaultMessage: "Fixed price" },
  custom: { id: "seller.newProduct.priceType.custom", defaultMessage: "Pay what you want" },
  free: { id: "seller.newProduct.priceType.free", defaultMessage: "Free" },
  amount: { id: "seller.newProduct.amount", defaultMessage: "Amount" },
  minimum: { id: "seller.newProduct.minimum", defaultMessage: "Minimum amount" },
  currency: { id: "seller.newProduct.currency", defaultMessage: "Currency" },
  create: { id: "seller.newProduct.create", defaultMessage: "Create product" },
  cancel: { id: "seller.newProduct.cancel", defaultMessage: "Cancel" },
});

/** Polar's ProductCreate for what the form holds. */
function productCreateOf(organizationId: string, form: NewProductForm): ProductCreate {
  const price =
    form.priceType === "free"
      ? ({ amount_type: "free" } as const)
      : form.priceType === "custom"
        ? ({ amount_type: "custom", price_currency: form.currency, minimum_amount: minorUnits(form.amount) } as const)
        : ({ amount_type: "fixed", price_currency: form.currency, price_amount: minorUnits(form.amount) } as const);
  return { organization_id: organizationId, name: form.name, ...(form.description ? { description: form.description } : {}), recurring_interval: form.cycle === "once" ? null : form.cycle, prices: [price] };
}

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof NewProductForm> = {
  name: "name",
  description: "description",
  recurring_interval: "cycle",
  "prices.0.price_amount": "amount",
  "prices.0.minimum_amount": "amount",
  "prices.0.price_currency": "currency",
};

/** A new product with one price, checked as the API will check it; the API's refusals shown next to their fields. */
export function NewProductScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NewProductForm>({ resolver: zodResolver(newProductForm), defaultValues: { name: "", description: "", cycle: "month", priceType: "fixed", amount: "", currency: "usd" } });
  const { errors, isSubmitting } = form.formState;
  const priceType = form.watch("priceType");
  const toProducts = () => navigate({ to: "/$slug/products", params: { slug: seller.slug } });
  const submit = form.handleSubmit(async (values) => {
    const result = await createProduct(productCreateOf(seller.id, values));
    if (result.error) return setFailure(placeRefusals(result.error, FIELD_OF, form.setError));
    await queryClient.invalidateQueries({ queryKey: ["products"] });
    await toProducts();
  });
  if (!seller.mayChange) return <Page title={formatMessage(messages.title)}>{seller.readOnlyReason}</Page>;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} />}
        </Field>
        <Field label={formatMessage(messages.about)} hint={formatMessage(messages.aboutHint)} error={errors.description?.message}>
          {(ids) => <textarea {...ids} {...form.register("description")} rows={4} />}
        </Field>
        <Field label={formatMessage(messages.cycle)} error={errors.cycle?.message}>
          {(ids) => (
            <select {...ids} {...form.register("cycle")}>
              {BILLING_CYCLES.map((cycle) => (
                <option key={cycle} value={cycle}>
                  {formatMessage(messages[cycle])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={formatMessage(messages.priceType)}>
          {(ids) => (
            <select {...ids} {...form.register("priceType")}>
              {PRICE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {formatMessage(messages[type])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {priceType !== "free" && (
          <div className="field-row">
            <Field label={formatMessage(priceType === "custom" ? messages.minimum : messages.amount)} error={errors.amount?.message}>
              {(ids) => <input {...ids} {...form.register("amount")} inputMode="decimal" autoComplete="off" />}
            </Field>
            <Field label={formatMessage(messages.currency)} error={errors.currency?.message}>
              {(ids) => (
                <select {...ids} {...form.register("currency")}>
                  {CURRENCIES.map((currency) => (
                    <option key={currency} value={currency}>
                      {currency.toUpperCase()}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        {failure && <Alert tone="error">{failure}</Alert>}
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.create)}
          </Button>
          <Button type="button" variant="secondary" onClick={() => void toProducts()}>
            {formatMessage(messages.cancel)}
          </Button>
        </div>
      </form>
    </Page>
  );
}
