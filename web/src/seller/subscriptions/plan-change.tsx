import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { planChangeForm, subscriptionDiscountForm, type PlanChangeForm, type SubscriptionDiscountForm } from "./form";
import { Alert, Button, Card, Field } from "../../ui/components";
import { PriceLabel } from "../../ui/price-label";
import { productChoices } from "../products/queries";
import { sellerOrganizationQuery } from "../settings/queries";
import { useSeller } from "../space";
import { useRecurringAmount } from "./standing";
import { discountChoices } from "../discounts/queries";
import { updateSubscription, type Subscription } from "./subscriptions-api";
import { useSubscriptionChange } from "./queries";
import { ProrationChoice } from "./proration";

const messages = defineMessages({
  title: { id: "seller.planChange.title", defaultMessage: "Change the product" },
  description: { id: "seller.planChange.description", defaultMessage: "The change takes effect now. Benefits follow the new product." },
  product: { id: "seller.planChange.product", defaultMessage: "New product" },
  choose: { id: "seller.planChange.choose", defaultMessage: "Choose a product" },
  invoiceWords: defineMessage<{ date: string }>({
    id: "seller.planChange.invoiceWords",
    defaultMessage: "Until {date}, the customer is credited for the current product's unused time and charged for the new one's; the difference is charged to their saved card now. A credit waits for the next renewal.",
  }),
  prorateWords: defineMessage<{ date: string }>({
    id: "seller.planChange.prorateWords",
    defaultMessage: "Until {date}, the customer is credited for the current product's unused time and charged for the new one's; the difference is added to the renewal on {date}.",
  }),
  otherInterval: { id: "seller.planChange.otherInterval", defaultMessage: "A product billed at another interval starts a new period now, charged at once, less the current product's unused time." },
  submit: { id: "seller.planChange.submit", defaultMessage: "Change the product" },
  changed: defineMessage<{ product: string; amount: string }>({ id: "seller.planChange.changed", defaultMessage: "Now on {product}, at {amount}." }),
  discountTitle: { id: "seller.subscriptionDiscount.title", defaultMessage: "Discount" },
  discountDescription: { id: "seller.subscriptionDiscount.description", defaultMessage: "Applies from the next renewal." },
  discount: { id: "seller.subscriptionDiscount.discount", defaultMessage: "Discount" },
  noDiscount: { id: "seller.subscriptionDiscount.none", defaultMessage: "No discount" },
  applyDiscount: { id: "seller.subscriptionDiscount.apply", defaultMessage: "Apply" },
  discountApplied: { id: "seller.subscriptionDiscount.applied", defaultMessage: "The discount was saved." },
});

/** Where the API's refusals of a plan change go on the form. */
const PLAN_FIELD_OF: Record<string, keyof PlanChangeForm> = { product_id: "productId", proration_behavior: "prorationBehavior" };

/** Moves the subscription to another recurring product, saying in words what the chosen proration will bill, then what the server did. */
export function PlanChangeForm({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const amount = useRecurringAmount();
  const change = useSubscriptionChange(subscription.id);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const organization = useQuery(sellerOrganizationQuery(seller.id));
  const products = useQuery(productChoices(seller.id, "name"));
  const offered = (products.data?.items ?? []).filter((product) => product.recurring_interval && product.id !== subscription.product.id);
  // The seller's default proration arrives after the form shows: what was chosen meanwhile stays.
  const form = useForm<PlanChangeForm>({ resolver: zodResolver(planChangeForm), values: { productId: "", prorationBehavior: organization.data?.subscription_settings.proration_behavior ?? "invoice" }, resetOptions: { keepDirtyValues: true } });
  const { errors, isSubmitting } = form.formState;
  const chosen = offered.find((product) => product.id === form.watch("productId"));
  const submit = form.handleSubmit(async (values) => {
    try {
      const changed = await change(() => updateSubscription(subscription.id, { product_id: values.productId, proration_behavior: values.prorationBehavior }));
      setOutcome({ tone: "success", text: formatMessage(messages.changed, { product: changed.product.name, amount: amount(changed) }) });
    } catch (reason) {
      setOutcome({ tone: "error", text: placeRefusals(reason, PLAN_FIELD_OF, form.setError) ?? "" });
    }
  });
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.product)} error={errors.productId?.message} hint={chosen && <PriceLabel product={chosen} />}>
          {(ids) => (
            <select {...ids} {...form.register("productId")}>
              <option value="">{formatMessage(messages.choose)}</option>
              {offered.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ProrationChoice
          field={form.register("prorationBehavior")}
          chosen={form.watch("prorationBehavior")}
          periodEnd={subscription.current_period_end}
          words={{ invoice: messages.invoiceWords, prorate: messages.prorateWords }}
          error={errors.prorationBehavior?.message}
        />
        {chosen && chosen.recurring_interval !== subscription.recurring_interval && <Alert tone="info">{formatMessage(messages.otherInterval)}</Alert>}
        {outcome && outcome.text && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.submit)}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Applies one of the seller's discounts to the subscription, or takes it away. */
export function DiscountForm({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useSubscriptionChange(subscription.id);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const discounts = useQuery(discountChoices(seller.id));
  const form = useForm<SubscriptionDiscountForm>({ resolver: zodResolver(subscriptionDiscountForm), values: { discountId: subscription.discount?.id ?? "" } });
  const submit = form.handleSubmit(async ({ discountId }) => {
    try {
      await change(() => updateSubscription(subscription.id, { discount_id: discountId || null }));
    } catch (reason) {
      return setOutcome({ tone: "error", text: placeRefusals(reason, { discount_id: "discountId" }, form.setError) ?? "" });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.discountApplied) });
  });
  return (
    <Card title={formatMessage(messages.discountTitle)} description={formatMessage(messages.discountDescription)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.discount)} error={form.formState.errors.discountId?.message}>
          {(ids) => (
            <select {...ids} {...form.register("discountId")}>
              <option value="">{formatMessage(messages.noDiscount)}</option>
              {discounts.data?.items.map((discount) => (
                <option key={discount.id} value={discount.id}>
                  {discount.code ? `${discount.name} (${discount.code})` : discount.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {outcome && outcome.text && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {formatMessage(messages.applyDiscount)}
          </Button>
        </div>
      </form>
    </Card>
  );
}
