import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { Controller, useController, useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { DISCOUNT_DURATIONS, discountChangeOf, discountForm, discountFormOf, emptyDiscountForm, type DiscountForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { CURRENCIES } from "../../forms/money";
import { Alert, Field } from "../../ui/components";
import { DateInput } from "../../ui/date-input";
import { EditScreen, FormActions, NewScreen } from "../console-screens";
import { ProductPicker } from "../product-picker";
import { useSeller } from "../space";
import type { Discount } from "./discounts-api";
import { discountQuery, useCreateDiscount, useUpdateDiscount } from "./queries";

const messages = defineMessages({
  newTitle: { id: "seller.discount.newTitle", defaultMessage: "New discount" },
  editTitle: { id: "seller.discount.editTitle", defaultMessage: "Edit discount" },
  intro: { id: "seller.discount.intro", defaultMessage: "Buyers get it by typing its code at checkout, or through a checkout link that applies it." },
  name: { id: "seller.discount.name", defaultMessage: "Name" },
  nameHint: { id: "seller.discount.nameHint", defaultMessage: "Buyers see it on the checkout and their invoice." },
  code: { id: "seller.discount.code", defaultMessage: "Code" },
  codeHint: { id: "seller.discount.codeHint", defaultMessage: "Optional, such as SPRING25. Without a code, only checkout links apply it." },
  type: { id: "seller.discount.type", defaultMessage: "Discount" },
  percentage: { id: "seller.discount.type.percentage", defaultMessage: "A percentage" },
  fixed: { id: "seller.discount.type.fixed", defaultMessage: "A fixed amount" },
  percent: { id: "seller.discount.percent", defaultMessage: "Percentage off" },
  amount: { id: "seller.discount.amount", defaultMessage: "Amount off" },
  currency: { id: "seller.discount.currency", defaultMessage: "Currency" },
  duration: { id: "seller.discount.duration", defaultMessage: "For subscriptions" },
  once: { id: "seller.discount.duration.once", defaultMessage: "The first payment only" },
  forever: { id: "seller.discount.duration.forever", defaultMessage: "Every payment" },
  repeating: { id: "seller.discount.duration.repeating", defaultMessage: "A number of months" },
  months: { id: "seller.discount.months", defaultMessage: "Months" },
  startsOn: { id: "seller.discount.startsOn", defaultMessage: "Starts on" },
  endsOn: { id: "seller.discount.endsOn", defaultMessage: "Ends on" },
  datesHint: { id: "seller.discount.datesHint", defaultMessage: "Optional. Days begin at midnight UTC." },
  maxRedemptions: { id: "seller.discount.maxRedemptions", defaultMessage: "Most redemptions" },
  maxRedemptionsHint: { id: "seller.discount.maxRedemptionsHint", defaultMessage: "Optional: leave empty for no limit." },
  products: { id: "seller.discount.products", defaultMessage: "Products" },
  productsHint: { id: "seller.discount.productsHint", defaultMessage: "Tick none to let it apply to every product." },
  create: { id: "seller.discount.create", defaultMessage: "Create discount" },
  save: { id: "seller.discount.save", defaultMessage: "Save changes" },
  cancel: { id: "seller.discount.cancel", defaultMessage: "Cancel" },
  loading: { id: "seller.discount.loading", defaultMessage: "Loading the discount…" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof DiscountForm> = {
  name: "name",
  code: "code",
  basis_points: "percent",
  amount: "amount",
  currency: "currency",
  duration_in_months: "months",
  starts_at: "startsOn",
  ends_at: "endsOn",
  max_redemptions: "maxRedemptions",
  products: "products",
};

function DiscountEditor({ discount }: { discount?: Discount }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<DiscountForm>({ resolver: zodResolver(discountForm), defaultValues: discount ? discountFormOf(discount) : emptyDiscountForm() });
  const { errors, isSubmitting } = form.formState;
  const [type, duration] = form.watch(["type", "duration"]);
  const products = useController({ control: form.control, name: "products" });
  const toList = () => navigate({ to: "/$slug/discounts", params: { slug: seller.slug } });
  const submit = form.handleSubmit(async (values) => {
    const change = discountChangeOf(values);
    try {
      await (discount ? update.mutateAsync({ id: discount.id, change }) : create.mutateAsync({ organizationId: seller.id, change }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    await toList();
  });
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.name)} hint={formatMessage(messages.nameHint)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.code)} hint={formatMessage(messages.codeHint)} error={errors.code?.message}>
        {(ids) => <input {...ids} {...form.register("code")} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label={formatMessage(messages.type)}>
        {(ids) => (
          <select {...ids} {...form.register("type")}>
            <option value="percentage">{formatMessage(messages.percentage)}</option>
            <option value="fixed">{formatMessage(messages.fixed)}</option>
          </select>
        )}
      </Field>
      {type === "percentage" ? (
        <Field label={formatMessage(messages.percent)} error={errors.percent?.message}>
          {(ids) => <input {...ids} {...form.register("percent")} inputMode="decimal" autoComplete="off" />}
        </Field>
      ) : (
        <div className="field-row">
          <Field label={formatMessage(messages.amount)} error={errors.amount?.message}>
            {(ids) => <input {...ids} {...form.register("amount")} inputMode="decimal" autoComplete="off" />}
          </Field>
          <Field label={formatMessage(messages.currency)}>
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
      <div className="field-row">
        <Field label={formatMessage(messages.duration)}>
          {(ids) => (
            <select {...ids} {...form.register("duration")}>
              {DISCOUNT_DURATIONS.map((option) => (
                <option key={option} value={option}>
                  {formatMessage(messages[option])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {duration === "repeating" && (
          <Field label={formatMessage(messages.months)} error={errors.months?.message}>
            {(ids) => <input {...ids} {...form.register("months")} inputMode="numeric" />}
          </Field>
        )}
      </div>
      <div className="field-row">
        <Field label={formatMessage(messages.startsOn)} hint={formatMessage(messages.datesHint)} error={errors.startsOn?.message}>
          {(ids) => <Controller control={form.control} name="startsOn" render={({ field }) => <DateInput ids={ids} value={field.value} onChange={field.onChange} />} />}
        </Field>
        <Field label={formatMessage(messages.endsOn)} error={errors.endsOn?.message}>
          {(ids) => <Controller control={form.control} name="endsOn" render={({ field }) => <DateInput ids={ids} value={field.value} onChange={field.onChange} />} />}
        </Field>
      </div>
      <Field label={formatMessage(messages.maxRedemptions)} hint={formatMessage(messages.maxRedemptionsHint)} error={errors.maxRedemptions?.message}>
        {(ids) => <input {...ids} {...form.register("maxRedemptions")} inputMode="numeric" />}
      </Field>
      <ProductPicker
        organizationId={seller.id}
        legend={formatMessage(messages.products)}
        hint={formatMessage(messages.productsHint)}
        selected={products.field.value}
        onChange={products.field.onChange}
        error={errors.products?.message}
      />
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={formatMessage(discount ? messages.save : messages.create)} cancel={formatMessage(messages.cancel)} onCancel={() => void toList()} />
    </form>
  );
}

export function NewDiscountScreen() {
  const { formatMessage } = useIntl();
  return (
    <NewScreen title={formatMessage(messages.newTitle)} intro={formatMessage(messages.intro)}>
      <DiscountEditor />
    </NewScreen>
  );
}

export function EditDiscountScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const discount = useQuery(discountQuery(id ?? ""));
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={discount} nameOf={(loaded) => loaded.name}>
      {(loaded) => <DiscountEditor discount={loaded} />}
    </EditScreen>
  );
}
