import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate, money } from "../../i18n/format";
import { pricePerInterval } from "../../ui/price-messages";
import type { Subscription } from "./subscriptions-api";

const messages = defineMessages({
  status: defineMessage<{ status: string }>({
    id: "seller.subscription.status",
    defaultMessage:
      "{status, select, incomplete {Incomplete} incomplete_expired {Expired before payment} trialing {Trialing} active {Active} past_due {Past due} canceled {Canceled} unpaid {Unpaid} other {Unknown}}",
  }),
  ending: defineMessage<{ date: string }>({ id: "seller.subscription.endingOn", defaultMessage: "Ends on {date}" }),
});

/** A subscription's status in words, and when it ends if it was canceled at the period's end. */
export function StandingBadge({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const ending = subscription.cancel_at_period_end && subscription.ends_at && subscription.status !== "canceled";
  return (
    <span className={`badge${subscription.status === "canceled" || subscription.status === "unpaid" ? " badge-danger" : ""}`}>
      {ending ? formatMessage(messages.ending, { date: longDate(subscription.ends_at ?? "") }) : formatMessage(messages.status, { status: subscription.status })}
    </span>
  );
}

/** What the subscription bills each period: "$19.00 a month". */
export function useRecurringAmount() {
  const { formatMessage } = useIntl();
  return (subscription: Pick<Subscription, "amount" | "currency" | "recurring_interval" | "recurring_interval_count">) =>
    formatMessage(pricePerInterval, { price: money(subscription.amount, subscription.currency), interval: subscription.recurring_interval, count: subscription.recurring_interval_count });
}
