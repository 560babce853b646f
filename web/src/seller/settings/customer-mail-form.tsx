import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import { describeFailure } from "../../api/client";
import { Card } from "../../ui/components";
import { useSeller } from "../space";
import type { Outcome } from "../../ui/outcome";
import { SettingsFormFooter } from "./form-footer";
import type { Organization } from "./settings-api";
import { useOrganizationChange } from "./queries";

const messages = defineMessages({
  title: { id: "seller.settings.mail.title", defaultMessage: "Mail to your customers" },
  description: { id: "seller.settings.mail.description", defaultMessage: "Sent in each customer's language, under your name; their answers reach your support e-mail." },
  orderConfirmation: { id: "seller.settings.mail.orderConfirmation", defaultMessage: "A receipt for each purchase, and a note of each refund" },
  subscriptionConfirmation: { id: "seller.settings.mail.subscriptionConfirmation", defaultMessage: "A receipt when a subscription starts" },
  subscriptionCycled: { id: "seller.settings.mail.subscriptionCycled", defaultMessage: "A receipt for each renewal" },
  subscriptionUpdated: { id: "seller.settings.mail.subscriptionUpdated", defaultMessage: "A receipt for what a plan change charges" },
  subscriptionCancellation: { id: "seller.settings.mail.subscriptionCancellation", defaultMessage: "A subscription is canceled" },
  subscriptionUncanceled: { id: "seller.settings.mail.subscriptionUncanceled", defaultMessage: "A canceled subscription is resumed" },
  subscriptionPaused: { id: "seller.settings.mail.subscriptionPaused", defaultMessage: "A subscription is paused" },
  subscriptionResumed: { id: "seller.settings.mail.subscriptionResumed", defaultMessage: "A paused subscription resumes" },
  subscriptionRevoked: { id: "seller.settings.mail.subscriptionRevoked", defaultMessage: "A subscription has ended" },
  subscriptionPastDue: { id: "seller.settings.mail.subscriptionPastDue", defaultMessage: "A renewal could not be charged" },
  trialReminder: { id: "seller.settings.mail.trialReminder", defaultMessage: "A trial ends in three days" },
  renewalReminder: { id: "seller.settings.mail.renewalReminder", defaultMessage: "A yearly plan renews in a week" },
  save: { id: "seller.settings.mail.save", defaultMessage: "Save mail settings" },
  saved: { id: "seller.settings.mail.saved", defaultMessage: "Mail settings saved." },
});

/** The mails Tollgate sends, by the name of Polar's switch for each. */
const SWITCHES: [keyof Organization["customer_email_settings"], MessageDescriptor][] = [
  ["order_confirmation", messages.orderConfirmation],
  ["subscription_confirmation", messages.subscriptionConfirmation],
  ["subscription_cycled", messages.subscriptionCycled],
  ["subscription_updated", messages.subscriptionUpdated],
  ["subscription_cancellation", messages.subscriptionCancellation],
  ["subscription_uncanceled", messages.subscriptionUncanceled],
  ["subscription_paused", messages.subscriptionPaused],
  ["subscription_resumed", messages.subscriptionResumed],
  ["subscription_revoked", messages.subscriptionRevoked],
  ["subscription_past_due", messages.subscriptionPastDue],
  ["subscription_trial_conversion_reminder", messages.trialReminder],
  ["subscription_renewal_reminder", messages.renewalReminder],
];

type Form = Organization["customer_email_settings"];

/** Which mails go to the seller's customers (Polar's `customer_email_settings`): each is on until turned off. */
export function CustomerMailForm({ organization }: { organization: Organization }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useOrganizationChange(organization.id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm<Form>({ values: organization.customer_email_settings });
  const submit = form.handleSubmit(async (values) => {
    try {
      await change({ customer_email_settings: values });
    } catch (reason) {
      return setOutcome({ tone: "error", text: describeFailure(reason) });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!seller.mayChange} className="plain">
          {SWITCHES.map(([name, label]) => (
            <label key={name} className="checkbox">
              <input type="checkbox" {...form.register(name)} />
              {formatMessage(label)}
            </label>
          ))}
          <SettingsFormFooter outcome={outcome} busy={form.formState.isSubmitting} save={formatMessage(messages.save)} />
        </fieldset>
      </form>
    </Card>
  );
}
