import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { refundForm, type RefundForm } from "./form";
import { minorUnits } from "../../forms/money";
import { money } from "../../i18n/format";
import { activeLocale } from "../../i18n/translate";
import { Alert, Button, Field } from "../../ui/components";
import { FormDialog, FormDialogActions } from "../../ui/form-dialog";
import { useSeller } from "../space";
import { REFUND_REASONS, refundableOf, type Order, type RefundReason } from "./api";
import { refundReasonMessages } from "./labels";
import { useCreateRefund } from "./queries";

const messages = defineMessages({
  open: { id: "seller.refund.open", defaultMessage: "Refund" },
  title: { id: "seller.refund.title", defaultMessage: "Refund this order" },
  description: defineMessage<{ refunded: string; left: string }>({
    id: "seller.refund.description",
    defaultMessage: "Refunded so far: {refunded}. Left to refund: {left}, before tax; tax goes back in proportion.",
  }),
  amount: { id: "seller.refund.amount", defaultMessage: "Amount to refund" },
  reason: { id: "seller.refund.reason", defaultMessage: "Reason" },
  comment: { id: "seller.refund.comment", defaultMessage: "Comment" },
  commentHint: { id: "seller.refund.commentHint", defaultMessage: "Optional. Only your team sees it." },
  revoke: { id: "seller.refund.revoke", defaultMessage: "Also revoke the benefits this order granted" },
  submit: { id: "seller.refund.submit", defaultMessage: "Refund" },
  cancel: { id: "seller.refund.cancel", defaultMessage: "Cancel" },
  nothingLeft: { id: "seller.refund.nothingLeft", defaultMessage: "This order is refunded in full." },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof RefundForm> = { amount: "amount", reason: "reason", comment: "comment" };

/** The amount in the main unit as the reader types it: 1250 → "12.50", or "12,50" in Spanish. */
const typed = (amount: number) => new Intl.NumberFormat(activeLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(amount / 100);

/** The refund button and its dialog: what is left is the default and the most it takes; the order and its refunds are read again after. */
export function RefundDialog({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [open, setOpen] = useState(false);
  const left = refundableOf(order);
  if (!seller.mayChange) return null;
  if (order.status === "refunded" || left === 0) return <p className="muted">{formatMessage(messages.nothingLeft)}</p>;
  if (order.status !== "paid" && order.status !== "partially_refunded") return null;
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button variant="secondary">{formatMessage(messages.open)}</Button>}
      title={formatMessage(messages.title)}
      description={formatMessage(messages.description, { refunded: money(order.refunded_amount + order.refunded_tax_amount, order.currency), left: money(left, order.currency) })}
    >
      {/* Made anew each time it opens, so the amount starts again from what is left. */}
      {open && <RefundFields order={order} left={left} onDone={() => setOpen(false)} />}
    </FormDialog>
  );
}

function RefundFields({ order, left, onDone }: { order: Order; left: number; onDone: () => void }) {
  const { formatMessage } = useIntl();
  const refund = useCreateRefund();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RefundForm>({
    resolver: zodResolver(refundForm(left, money(left, order.currency))),
    defaultValues: { amount: typed(left), reason: "customer_request", comment: "", revokeBenefits: false },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await refund.mutateAsync({ order_id: order.id, amount: minorUnits(values.amount), reason: values.reason as RefundReason, comment: values.comment || null, revoke_benefits: values.revokeBenefits });
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    onDone();
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.amount)} error={errors.amount?.message}>
        {(ids) => <input {...ids} {...form.register("amount")} inputMode="decimal" autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.reason)} error={errors.reason?.message}>
        {(ids) => (
          <select {...ids} {...form.register("reason")}>
            {REFUND_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {formatMessage(refundReasonMessages[reason])}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={formatMessage(messages.comment)} hint={formatMessage(messages.commentHint)} error={errors.comment?.message}>
        {(ids) => <textarea {...ids} {...form.register("comment")} rows={3} />}
      </Field>
      <label className="checkbox">
        <input type="checkbox" {...form.register("revokeBenefits")} />
        {formatMessage(messages.revoke)}
      </label>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormDialogActions cancelLabel={formatMessage(messages.cancel)} submitLabel={formatMessage(messages.submit)} busy={isSubmitting} danger />
    </form>
  );
}
