import type { UseFormRegisterReturn } from "react-hook-form";
import { defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import { Field } from "../../ui/components";

const messages = defineMessages({
  behaviour: { id: "seller.planChange.behaviour", defaultMessage: "Billing the rest of this period" },
  invoice: { id: "seller.planChange.invoice", defaultMessage: "Charge the difference now" },
  prorate: { id: "seller.planChange.prorate", defaultMessage: "Add the difference to the next renewal" },
});

export type ProrationBehaviour = "invoice" | "prorate";

/**
 * How a change bills the rest of the period (Polar's proration behaviours that billing takes), with
 * what the chosen one does in words: `words` says it for each, given the period's end as `date`.
 */
export function ProrationChoice({ field, chosen, periodEnd, words, error }: { field: UseFormRegisterReturn; chosen: ProrationBehaviour; periodEnd: string; words: Record<ProrationBehaviour, MessageDescriptor>; error?: string }) {
  const { formatMessage, formatDate } = useIntl();
  return (
    <Field label={formatMessage(messages.behaviour)} error={error} hint={formatMessage(words[chosen], { date: formatDate(periodEnd, { dateStyle: "long" }) })}>
      {(ids) => (
        <select {...ids} {...field}>
          <option value="invoice">{formatMessage(messages.invoice)}</option>
          <option value="prorate">{formatMessage(messages.prorate)}</option>
        </select>
      )}
    </Field>
  );
}
