// How a purchase is shown wherever a buyer looks at it: in a seller's portal and among all their purchases.
import { longDate, money } from "../ui/format";
import type { Listing, Order, OrderStatus, Subscription, SubscriptionStatus } from "./api";

const SUBSCRIPTION_STATUS: Record<SubscriptionStatus, string> = {
  incomplete: "Waiting for the first payment",
  incomplete_expired: "Never started: the first payment did not go through",
  trialing: "On a free trial",
  active: "Active",
  past_due: "Payment overdue",
  canceled: "Canceled",
  unpaid: "Unpaid",
};

const ORDER_STATUS: Record<OrderStatus, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  refunded: "Refunded",
  partially_refunded: "Partially refunded",
  void: "Canceled",
};

/** "$5.00 a month", "$12.00 every 3 months". */
function pricePerInterval({ amount, currency, recurring_interval: interval, recurring_interval_count: count }: Subscription): string {
  return count > 1 ? `${money(amount, currency)} every ${count} ${interval}s` : `${money(amount, currency)} a ${interval}`;
}

/** When the subscription next renews or when it stops, if either is known. */
function nextDate(subscription: Subscription): string | null {
  const { ended_at: endedAt, ends_at: endsAt, current_period_end: periodEnd } = subscription;
  if (endedAt) return `Ended on ${longDate(endedAt)}`;
  const end = endsAt ?? (subscription.cancel_at_period_end ? periodEnd : null);
  if (end) return `Ends on ${longDate(end)}`;
  if (!periodEnd) return null;
  if (subscription.status === "trialing") return `Trial ends on ${longDate(periodEnd)}`;
  return subscription.status === "active" || subscription.status === "past_due" ? `Renews on ${longDate(periodEnd)}` : null;
}

/** A subscription in a line or two: plan, price, status and what happens next. */
export function SubscriptionSummary({ subscription }: { subscription: Subscription }) {
  const next = nextDate(subscription);
  return (
    <div>
      <strong>{subscription.product.name}</strong>
      <p>{pricePerInterval(subscription)}</p>
      <p className="muted">
        {SUBSCRIPTION_STATUS[subscription.status]}
        {next && ` · ${next}`}
      </p>
    </div>
  );
}

/** Orders, newest first as the API lists them: what, when, how much and where the payment stands. */
export function OrdersList({ orders, label }: { orders: Order[]; label: string }) {
  return (
    <ul className="list" aria-label={label}>
      {orders.map((order) => (
        <li key={order.id} className="list-row">
          <div>
            <strong>{order.product?.name ?? order.description}</strong>
            <p className="muted">
              {longDate(order.created_at)}
              {order.invoice_number && ` · Invoice ${order.invoice_number}`}
            </p>
          </div>
          <div className="amount">
            <strong>{money(order.total_amount, order.currency)}</strong>
            <p className="muted">{ORDER_STATUS[order.status]}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Said under a list that holds fewer than there are (the newest, up to the API's page size). */
export function PartialListNote({ listing }: { listing: Listing<unknown> }) {
  const { items, pagination } = listing;
  return pagination.total_count > items.length ? (
    <p className="hint">
      Showing the newest {items.length} of {pagination.total_count}.
    </p>
  ) : null;
}
