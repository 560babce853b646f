import { defineMessage, defineMessages, useIntl } from "react-intl";
import { money } from "../../i18n/format";
import type { Discount } from "./discounts-api";

const messages = defineMessages({
  percentage: defineMessage<{ share: number }>({ id: "seller.discounts.terms.percentage", defaultMessage: "{share, number, ::percent .##} off" }),
  fixed: defineMessage<{ amount: string }>({ id: "seller.discounts.terms.fixed", defaultMessage: "{amount} off" }),
  once: { id: "seller.discounts.terms.once", defaultMessage: "once" },
  forever: { id: "seller.discounts.terms.forever", defaultMessage: "forever" },
  repeating: defineMessage<{ months: number }>({ id: "seller.discounts.terms.repeating", defaultMessage: "{months, plural, one {for # month} other {for # months}}" }),
});

/** A discount's terms in words: "15% off, for 3 months". */
export function DiscountTerms({ discount }: { discount: Discount }) {
  const { formatMessage } = useIntl();
  const amount = discount.type === "percentage" ? formatMessage(messages.percentage, { share: discount.basis_points / 10_000 }) : formatMessage(messages.fixed, { amount: money(discount.amount, discount.currency) });
  const duration = discount.duration === "repeating" ? formatMessage(messages.repeating, { months: discount.duration_in_months }) : formatMessage(messages[discount.duration]);
  return <>{`${amount}, ${duration}`}</>;
}
