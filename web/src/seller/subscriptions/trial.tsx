import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { longDate } from "../../i18n/format";
import { Alert, Button, Card, Field } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { outcomeOf, type Outcome } from "../../ui/outcome";
import { trialEndForm, type TrialEndForm } from "./form";
import { useSubscriptionChange } from "./queries";
import { useRecurringAmount } from "./standing";
import { updateSubscription, type Subscription } from "./subscriptions-api";

const messages = defineMessages({
  title: { id: "seller.trial.title", defaultMessage: "Trial" },
  description: defineMessage<{ date: string; amount: string }>({ id: "seller.trial.description", defaultMessage: "The trial ends on {date}, then {amount} is charged to the saved card." }),
  newEnd: { id: "seller.trial.newEnd", defaultMessage: "New trial end" },
  extend: { id: "seller.trial.extend", defaultMessage: "Extend trial" },
  extended: defineMessage<{ date: string }>({ id: "seller.trial.extended", defaultMessage: "The trial now ends on {date}." }),
  endNow: { id: "seller.trial.endNow", defaultMessage: "End trial now" },
  endTitle: { id: "seller.trial.endTitle", defaultMessage: "End the trial now?" },
  endText: defineMessage<{ amount: string }>({ id: "seller.trial.endText", defaultMessage: "The first paid period starts today and {amount} is charged to the customer's saved card now." }),
  ended: { id: "seller.trial.ended", defaultMessage: "The trial has ended: the first paid period has started." },
});

/** `yyyy-mm-dd` of a moment, in the browser's zone, as a date field shows it. */
const dayOf = (moment: Date) => `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, "0")}-${String(moment.getDate()).padStart(2, "0")}`;

/** The chosen day at the time of day the trial ends now, so a trial moved by days stays whole days long. */
function endOn(day: string, current: string): Date {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const end = new Date(current);
  end.setFullYear(year, month - 1, date);
  return end;
}

/** A trialing subscription's trial: when it ends and what is charged then; the seller moves its end, or ends it now (charged as a renewal is). */
export function TrialCard({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const amount = useRecurringAmount()(subscription);
  const change = useSubscriptionChange(subscription.id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const trialEnd = subscription.trial_end ?? subscription.current_period_end;
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  const form = useForm<TrialEndForm>({ resolver: zodResolver(trialEndForm), values: { date: dayOf(new Date(trialEnd)) } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ date }) => {
    try {
      const changed = await change(() => updateSubscription(subscription.id, { trial_end: endOn(date, trialEnd).toISOString() }));
      setOutcome({ tone: "success", text: formatMessage(messages.extended, { date: longDate(changed.trial_end ?? changed.current_period_end) }) });
    } catch (reason) {
      setOutcome({ tone: "error", text: placeRefusals(reason, { trial_end: "date" }, form.setError) ?? "" });
    }
  });
  const endNow = async () => {
    setOutcome(await outcomeOf(change(() => updateSubscription(subscription.id, { trial_end: "now" })), formatMessage(messages.ended)));
    return true;
  };
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description, { date: longDate(trialEnd), amount })}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.newEnd)} error={errors.date?.message}>
          {(ids) => <input {...ids} type="date" min={dayOf(tomorrow)} {...form.register("date")} />}
        </Field>
        {outcome && outcome.text && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.extend)}
          </Button>
          <ConfirmDialog
            trigger={<Button variant="secondary">{formatMessage(messages.endNow)}</Button>}
            title={formatMessage(messages.endTitle)}
            description={formatMessage(messages.endText, { amount })}
            confirmLabel={formatMessage(messages.endNow)}
            onConfirm={endNow}
          />
        </div>
      </form>
    </Card>
  );
}
