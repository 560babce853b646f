import { useState, type FormEvent, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { RequestBody } from "../api/wire";
import { longDate } from "../i18n/format";
import { Button, Field } from "../ui/components";
import { CANCELLATION_REASONS, cancellationReason, type CancellationReason } from "../ui/cancellation-reasons";
import { FormDialog, FormDialogActions } from "../ui/form-dialog";
import type { Subscription } from "./api";

const messages = defineMessages({
  cancel: { id: "portal.subscription.cancel", defaultMessage: "Cancel subscription" },
  keep: { id: "portal.subscription.keep", defaultMessage: "Keep subscription" },
  cancelTitle: defineMessage<{ product: string }>({ id: "portal.subscription.cancelTitle", defaultMessage: "Cancel {product}?" }),
  cancelUntil: defineMessage<{ date: string }>({
    id: "portal.subscription.cancelUntilPaid",
    defaultMessage: "It stays yours until {date}, the end of the period you paid for, and is not charged again. You can resume it until then.",
  }),
  cancelTrial: defineMessage<{ date: string }>({
    id: "portal.subscription.cancelTrial",
    defaultMessage: "Your free trial ends on {date} and nothing will be charged. You keep it until then, and can resume it until then.",
  }),
  reason: { id: "portal.subscription.cancelReason", defaultMessage: "Why are you cancelling? (optional)" },
  noReason: { id: "portal.subscription.cancelNoReason", defaultMessage: "Choose a reason" },
  comment: { id: "portal.subscription.cancelComment", defaultMessage: "Anything else to tell the seller? (optional)" },
});

export type CancelRequest = Pick<RequestBody<"/v1/customer-portal/subscriptions/{id}", "patch">, "cancel_at_period_end" | "cancellation_reason" | "cancellation_comment">;

/**
 * Asks before cancelling at the period's end, saying what the customer keeps (a trial: until it ends,
 * with nothing charged), and asks why, as Polar's cancellation reasons and a comment; both optional.
 * `onCancel` resolves whether it went through; the dialog then closes. `children` shows a failure.
 */
export function CancelDialog({ subscription, onCancel, children }: { subscription: Subscription; onCancel: (request: CancelRequest) => Promise<boolean>; children?: ReactNode }) {
  const { formatMessage } = useIntl();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState<CancellationReason | "">("");
  const [comment, setComment] = useState("");
  const end = longDate(subscription.current_period_end);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const done = await onCancel({ cancel_at_period_end: true, cancellation_reason: reason || null, cancellation_comment: comment.trim() || null });
    setBusy(false);
    if (done) setOpen(false);
  };
  return (
    <FormDialog
      trigger={<Button variant="secondary">{formatMessage(messages.cancel)}</Button>}
      title={formatMessage(messages.cancelTitle, { product: subscription.product.name })}
      description={formatMessage(subscription.status === "trialing" ? messages.cancelTrial : messages.cancelUntil, { date: end })}
      open={open}
      onOpenChange={setOpen}
    >
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.reason)}>
          {(ids) => (
            <select {...ids} value={reason} onChange={(event) => setReason(CANCELLATION_REASONS.find((choice) => choice === event.target.value) ?? "")}>
              <option value="">{formatMessage(messages.noReason)}</option>
              {CANCELLATION_REASONS.map((choice) => (
                <option key={choice} value={choice}>
                  {formatMessage(cancellationReason, { reason: choice })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={formatMessage(messages.comment)}>{(ids) => <textarea {...ids} rows={3} maxLength={1000} value={comment} onChange={(event) => setComment(event.target.value)} />}</Field>
        {children}
        <FormDialogActions cancelLabel={formatMessage(messages.keep)} submitLabel={formatMessage(messages.cancel)} busy={busy} danger />
      </form>
    </FormDialog>
  );
}
