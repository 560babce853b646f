import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import { placeRefusals } from "../../forms/refusals";
import { seatBounds, type SeatBounds } from "../../forms/team";
import { Alert, Button, Card } from "../../ui/components";
import { SeatCountField } from "../../ui/seat-count-field";
import { FormDialog, FormDialogActions } from "../../ui/form-dialog";
import type { Outcome } from "../../ui/outcome";
import { sellerOrganizationQuery } from "../settings/queries";
import { useSeller } from "../space";
import { seatChangeForm, type SeatChangeForm } from "./form";
import { ProrationChoice } from "./proration";
import { useSubscriptionChange } from "./queries";
import { useRecurringAmount } from "./standing";
import { updateSubscription, type Subscription } from "./subscriptions-api";

const messages = defineMessages({
  title: { id: "seller.seatChange.title", defaultMessage: "Seats" },
  count: defineMessage<{ seats: number }>({ id: "seller.seatChange.count", defaultMessage: "{seats, plural, one {# seat} other {# seats}}, paid for each period." }),
  open: { id: "seller.seatChange.open", defaultMessage: "Change seats" },
  invoiceWords: defineMessage<{ date: string }>({
    id: "seller.seatChange.invoiceWords",
    defaultMessage: "Until {date}, the customer is charged for added seats and credited for removed ones; the difference is charged to their saved card now. A credit waits for the next renewal.",
  }),
  prorateWords: defineMessage<{ date: string }>({
    id: "seller.seatChange.prorateWords",
    defaultMessage: "Until {date}, the customer is charged for added seats and credited for removed ones; the difference is added to the renewal on {date}.",
  }),
  submit: { id: "seller.seatChange.submit", defaultMessage: "Change seats" },
  cancel: { id: "seller.seatChange.cancel", defaultMessage: "Cancel" },
  changed: defineMessage<{ seats: number; amount: string }>({ id: "seller.seatChange.changed", defaultMessage: "{seats, plural, one {Now # seat} other {Now # seats}}, at {amount}." }),
});

/** A seat-based subscription's seat count, and a dialog to change it within its price's bounds; what the server refuses is said in place. */
export function SeatChange({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const amount = useRecurringAmount();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const bounds = seatBounds(subscription.prices);
  if (subscription.seats === null || !bounds) return null;
  const trigger = <Button variant="secondary">{formatMessage(messages.open)}</Button>;
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.count, { seats: subscription.seats })}>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="actions">
        <FormDialog open={open} onOpenChange={setOpen} trigger={trigger} title={formatMessage(messages.open)}>
          {open && (
            <SeatChangeForm
              subscription={subscription}
              bounds={bounds}
              onDone={(changed) => {
                setOpen(false);
                setOutcome({ tone: "success", text: formatMessage(messages.changed, { seats: changed.seats ?? 0, amount: amount(changed) }) });
              }}
            />
          )}
        </FormDialog>
      </div>
    </Card>
  );
}

function SeatChangeForm({ subscription, bounds, onDone }: { subscription: Subscription; bounds: SeatBounds; onDone: (changed: Subscription) => void }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useSubscriptionChange(subscription.id);
  const organization = useQuery(sellerOrganizationQuery(seller.id));
  const [failure, setFailure] = useState<string | null>(null);
  const schema = seatChangeForm(bounds);
  const form = useForm<SeatChangeForm, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    values: { seats: String(subscription.seats ?? bounds.min), prorationBehavior: organization.data?.subscription_settings.proration_behavior ?? "invoice" },
    // The seller's default proration arrives after the dialog opens: what was typed meanwhile stays.
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      onDone(await change(() => updateSubscription(subscription.id, { seats: Number(values.seats), proration_behavior: values.prorationBehavior })));
    } catch (reason) {
      setFailure(placeRefusals(reason, { seats: "seats", proration_behavior: "prorationBehavior" }, form.setError));
    }
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <SeatCountField bounds={bounds} field={form.register("seats")} error={errors.seats?.message} />
      <ProrationChoice
        field={form.register("prorationBehavior")}
        chosen={form.watch("prorationBehavior")}
        periodEnd={subscription.current_period_end}
        words={{ invoice: messages.invoiceWords, prorate: messages.prorateWords }}
        error={errors.prorationBehavior?.message}
      />
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormDialogActions cancelLabel={formatMessage(messages.cancel)} submitLabel={formatMessage(messages.submit)} busy={isSubmitting} />
    </form>
  );
}
