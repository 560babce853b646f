import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { minorUnits } from "../../forms/money";
import { t } from "../../i18n/translate";

const messages = defineMessages({
  refundAmount: { id: "forms.refund.amount", defaultMessage: "Enter an amount such as 5 or 5.50" },
  refundTooSmall: { id: "forms.refund.tooSmall", defaultMessage: "Refund at least 0.01" },
  refundTooLarge: { id: "forms.refund.tooLarge", defaultMessage: "At most {left} is left to refund" },
  commentTooLong: { id: "forms.refund.commentTooLong", defaultMessage: "Keep the comment under 1000 characters" },
});

/**
 * A refund: an amount in the main unit, from 0.01 to what is left (`left`, in minor units, said as
 * `leftText`), one of Polar's reasons, a comment, and whether the benefits go too.
 */
export const refundForm = (left: number, leftText: string) =>
  z.object({
    amount: z.string().check(
      z.superRefine((value, context) => {
        if (!/^\d+([.,]\d{1,2})?$/.test(value.trim())) return context.addIssue({ code: "custom", message: t(messages.refundAmount) });
        const amount = minorUnits(value.trim());
        if (amount < 1) context.addIssue({ code: "custom", message: t(messages.refundTooSmall) });
        else if (amount > left) context.addIssue({ code: "custom", message: t(messages.refundTooLarge, { left: leftText }) });
      }),
    ),
    reason: z.string(),
    comment: z.string().check(z.trim(), z.maxLength(1000, { error: () => t(messages.commentTooLong) })),
    revokeBenefits: z.boolean(),
  });
export type RefundForm = z.infer<ReturnType<typeof refundForm>>;
