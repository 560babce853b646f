import type { ReactNode } from "react";
// How a purchase is shown wherever a buyer looks at it: in a seller's portal and among all their purchases.
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate, money } from "../i18n/format";
import { pricePerInterval } from "../ui/price-messages";
import type { Listing, Order, Subscription } from "./api";

const SUBSCRIPTION_STATUS = defineMessages({
  incomplete: { id: "portal.subscriptionStatus.incomplete", defaultMessage: "Waiting for the first payment" },
  incomplete_expired: { id: "portal.subscriptionStatus.incomplete_expired", defaultMessage: "Never started: the first payment did not go through" },
  trialing: { id: "portal.subscriptionStatus.trialing", defaultMessage: "On a free trial" },
  active: { id: "portal.subscriptionStatus.active", defaultMessage: "Active" },
  past_due: { id: "portal.subscriptionStatus.past_due", defaultMessage: "Payment overdue" },
  canceled: { id: "portal.subscriptionStatus.canceled", defaultMessage: "Canceled" },
  unpaid: { id: "portal.subscriptionStatus.unpaid", defaultMessage: "Unpaid" },
  paused: { id: "portal.subscriptionStatus.paused", defaultMessage: "Paused" },
});

const ORDER_STATUS = defineMessages({
  draft: { id: "portal.orderStatus.draft", defaultMessage: "Not yet charged" },
  pending: { id: "portal.orderStatus.pending", defaultMessage: "Awaiting payment" },
  paid: { id: "portal.orderStatus.paid", defaultMessage: "Paid" },
  refunded: { id: "portal.orderStatus.refunded", defaultMessage: "Refunded" },
  partially_refunded: { id: "portal.orderStatus.partially_refunded", defaultMessage: "Partially refunded" },
  void: { id: "portal.orderStatus.void", defaultMessage: "Canceled" },
});

const messages = defineMessages({
  endedOn: defineMessage<{ date: string }>({ id: "portal.subscription.endedOn", defaultMessage: "Ended on {date}" }),
  endsOn: defineMessage<{ date: string }>({ id: "portal.subscription.endsOn", defaultMessage: "Ends on {date}" }),
  trialEndsOn: defineMessage<{ date: string }>({ id: "portal.subscription.trialEndsOn", defaultMessage: "Trial ends on {date}" }),
  renewsOn: defineMessage<{ date: string }>({ id: "portal.subscription.renewsOn", defaultMessage: "Renews on {date}" }),
  pausesOn: defineMessage<{ date: string }>({ id: "portal.subscription.pausesOn", defaultMessage: "Pauses on {date}" }),
  resumesOn: defineMessage<{ date: string }>({ id: "portal.subscription.resumesOn", defaultMessage: "Resumes on {date}" }),
  invoice: defineMessage<{ number: string }>({ id: "portal.order.invoice", defaultMessage: "Invoice {number}" }),
  partial: defineMessage<{ shown: number; total: number }>({ id: "portal.list.partial", defaultMessage: "Showing the newest {shown, number} of {total, number}." }),
});

/** When the subscription next renews or when it stops, if either is known. */
function nextDate(subscription: Subscription): { message: (typeof messages)["endsOn"]; date: string } | null {
  const { ended_at: endedAt, ends_at: endsAt, current_period_end: periodEnd } = subscription;
  if (endedAt) return { message: messages.endedOn, date: endedAt };
  const end = endsAt ?? (subscription.cancel_at_period_end ? periodEnd : null);
  if (end) return { message: messages.endsOn, date: end };
  if (subscription.status === "paused") return subscription.resumes_at ? { message: messages.resumesOn, date: subscription.resumes_at } : null;
  if (!periodEnd) return null;
  if (subscription.pause_at_period_end) return { message: messages.pausesOn, date: periodEnd };
  if (subscription.status === "trialing") return { message: messages.trialEndsOn, date: periodEnd };
  return subscription.status === "active" || subscription.status === "past_due" ? { message: messages.renewsOn, date: periodEnd } : null;
}

/** A subscription in a line or two: plan, price, status and what happens next ("$5.00 a month", "$12.00 every 3 months"). */
export function SubscriptionSummary({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const next = nextDate(subscription);
  const { amount, currency, recurring_interval: interval, recurring_interval_count: count } = subscription;
  return (
    <div>
      <strong>{subscription.product.name}</strong>
      <p>{formatMessage(pricePerInterval, { price: money(amount, currency), count, interval })}</p>
      <p className="muted">
        {formatMessage(SUBSCRIPTION_STATUS[subscription.status])}
        {next && ` · ${formatMessage(next.message, { date: longDate(next.date) })}`}
      </p>
    </div>
  );
}

/** Orders, newest first as the API lists them: what, when, how much and where the payment stands. */
export function OrdersList({ orders, label, actions }: { orders: Order[]; label: string; actions?: (order: Order) => ReactNode }) {
  const { formatMessage } = useIntl();
  return (
    <ul className="list" aria-label={label}>
      {orders.map((order) => (
        <li key={order.id} className="list-row">
          <div>
            <strong>{order.product?.name ?? order.description}</strong>
            <p className="muted">
              {longDate(order.created_at)}
              {order.invoice_number && ` · ${formatMessage(messages.invoice, { number: order.invoice_number })}`}
            </p>
          </div>
          <div className="amount">
            <strong>{money(order.total_amount, order.currency)}</strong>
            <p className="muted">{formatMessage(ORDER_STATUS[order.status])}</p>
          </div>
          {actions?.(order)}
        </li>
      ))}
    </ul>
  );
}

/** Said under a list that holds fewer than there are (the newest, up to the API's page size). */
export function PartialListNote({ listing }: { listing: Listing<unknown> }) {
  const { formatMessage } = useIntl();
  const { items, pagination } = listing;
  return pagination.total_count > items.length ? <p className="hint">{formatMessage(messages.partial, { shown: items.length, total: pagination.total_count })}</p> : null;
}
