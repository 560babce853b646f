import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { subscriptionSettingsForm, type SubscriptionSettingsForm as Form } from "./form";
import { Card, Field } from "../../ui/components";
import { useSeller } from "../space";
import type { Outcome } from "../../ui/outcome";
import { SettingsFormFooter } from "./form-footer";
import type { Organization } from "./settings-api";
import { useOrganizationChange } from "./queries";

const messages = defineMessages({
  title: { id: "seller.settings.subscriptions.title", defaultMessage: "Subscriptions" },
  multiple: { id: "seller.settings.subscriptions.multiple", defaultMessage: "A customer may have several subscriptions at once" },
  customerUpdates: { id: "seller.settings.subscriptions.customerUpdates", defaultMessage: "Customers may change their plan in the customer portal" },
  pause: { id: "seller.settings.subscriptions.pause", defaultMessage: "Customers may pause and resume their subscriptions in the customer portal" },
  proration: { id: "seller.settings.subscriptions.proration", defaultMessage: "When a plan changes during a period" },
  invoice: { id: "seller.settings.subscriptions.invoice", defaultMessage: "Charge the difference at once" },
  prorate: { id: "seller.settings.subscriptions.prorate", defaultMessage: "Add the difference to the next renewal" },
  save: { id: "seller.settings.subscriptions.save", defaultMessage: "Save subscription settings" },
  saved: { id: "seller.settings.subscriptions.saved", defaultMessage: "Subscription settings saved." },
});

const FIELD_OF: Record<string, keyof Form> = {
  "subscription_settings.allow_multiple_subscriptions": "allowMultipleSubscriptions",
  "subscription_settings.allow_customer_updates": "allowCustomerUpdates",
  "subscription_settings.proration_behavior": "prorationBehavior",
  "customer_portal_settings.subscription.pause": "customersMayPause",
};

/** Whether customers may hold several subscriptions, change their own or pause them, and how a plan change bills the rest of a period. */
export function SubscriptionSettingsForm({ organization }: { organization: Organization }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useOrganizationChange(organization.id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const settings = organization.subscription_settings;
  const portal = organization.customer_portal_settings.subscription;
  const form = useForm<Form>({
    resolver: zodResolver(subscriptionSettingsForm),
    values: {
      allowMultipleSubscriptions: settings.allow_multiple_subscriptions,
      allowCustomerUpdates: settings.allow_customer_updates,
      customersMayPause: portal.pause === true,
      prorationBehavior: settings.proration_behavior,
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await change({
        subscription_settings: { allow_multiple_subscriptions: values.allowMultipleSubscriptions, allow_customer_updates: values.allowCustomerUpdates, proration_behavior: values.prorationBehavior },
        customer_portal_settings: { subscription: { ...portal, pause: values.customersMayPause } },
      });
    } catch (reason) {
      return setOutcome({ tone: "error", text: placeRefusals(reason, FIELD_OF, form.setError) ?? "" });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <Card title={formatMessage(messages.title)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!seller.mayChange} className="plain">
          <label className="checkbox">
            <input type="checkbox" {...form.register("allowMultipleSubscriptions")} />
            {formatMessage(messages.multiple)}
          </label>
          <label className="checkbox">
            <input type="checkbox" {...form.register("allowCustomerUpdates")} />
            {formatMessage(messages.customerUpdates)}
          </label>
          <label className="checkbox">
            <input type="checkbox" {...form.register("customersMayPause")} />
            {formatMessage(messages.pause)}
          </label>
          <Field label={formatMessage(messages.proration)} error={form.formState.errors.prorationBehavior?.message}>
            {(ids) => (
              <select {...ids} {...form.register("prorationBehavior")}>
                <option value="invoice">{formatMessage(messages.invoice)}</option>
                <option value="prorate">{formatMessage(messages.prorate)}</option>
              </select>
            )}
          </Field>
          <SettingsFormFooter outcome={outcome} busy={form.formState.isSubmitting} save={formatMessage(messages.save)} />
        </fieldset>
      </form>
    </Card>
  );
}
