import { outcomeOf } from "../../ui/outcome";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { QueryState } from "../../ui/query-state";
import { longDate } from "../../i18n/format";
import { Alert, Button, Card, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { SubscriptionUsageCard } from "../meters/usage-cards";
import { useSeller } from "../space";
import { DiscountForm, PlanChangeForm } from "./plan-change";
import { SeatChange } from "./seat-change";
import { StandingBadge, useRecurringAmount } from "./standing";
import { TrialCard } from "./trial";
import { cancellationReason } from "../../ui/cancellation-reasons";
import { revokeSubscription, updateSubscription, type Subscription, type SubscriptionUpdate } from "./subscriptions-api";
import { subscriptionQuery, useSubscriptionChange } from "./queries";

const messages = defineMessages({
  loading: { id: "seller.subscription.loading", defaultMessage: "Loading the subscription…" },
  back: { id: "seller.subscription.back", defaultMessage: "All subscriptions" },
  title: defineMessage<{ product: string }>({ id: "seller.subscription.title", defaultMessage: "Subscription to {product}" }),
  customer: { id: "seller.subscription.customer", defaultMessage: "Customer" },
  status: { id: "seller.subscription.statusLabel", defaultMessage: "Status" },
  amount: { id: "seller.subscription.amount", defaultMessage: "Amount" },
  seats: { id: "seller.subscription.seats", defaultMessage: "Seats" },
  started: { id: "seller.subscription.started", defaultMessage: "Started" },
  period: { id: "seller.subscription.period", defaultMessage: "Current period" },
  periodRange: defineMessage<{ start: string; end: string }>({ id: "seller.subscription.periodRange", defaultMessage: "{start} – {end}" }),
  discount: { id: "seller.subscription.discount", defaultMessage: "Discount" },
  noDiscount: { id: "seller.subscription.noDiscount", defaultMessage: "None" },
  ended: { id: "seller.subscription.ended", defaultMessage: "Ended" },
  cancellation: { id: "seller.subscription.cancellation", defaultMessage: "Cancellation" },
  renews: defineMessage<{ date: string }>({ id: "seller.subscription.renews", defaultMessage: "Renews on {date}. Cancel at the period's end to stop it then; the customer keeps access until that day." }),
  ends: defineMessage<{ date: string }>({ id: "seller.subscription.ends", defaultMessage: "Canceled: it ends on {date}. Keep it to renew as before." }),
  trialRenews: defineMessage<{ date: string; amount: string }>({ id: "seller.subscription.trialRenews", defaultMessage: "Trial ends on {date}, then {amount}. Cancel at the period's end to stop it then; the customer keeps access until that day." }),
  trialEnds: defineMessage<{ date: string }>({ id: "seller.subscription.trialEnds", defaultMessage: "Canceled during its trial: it ends on {date}, when the trial does, and nothing is charged. Keep it to go on after the trial." }),
  trial: { id: "seller.subscription.trial", defaultMessage: "Trial" },
  trialUntil: defineMessage<{ date: string; amount: string }>({ id: "seller.subscription.trialUntil", defaultMessage: "Until {date}, then {amount}" }),
  reason: { id: "seller.subscription.reason", defaultMessage: "Cancellation reason" },
  comment: { id: "seller.subscription.comment", defaultMessage: "Customer's comment" },
  cancel: { id: "seller.subscription.cancel", defaultMessage: "Cancel at period end" },
  uncancel: { id: "seller.subscription.uncancel", defaultMessage: "Keep the subscription" },
  canceled: { id: "seller.subscription.canceled", defaultMessage: "The subscription will end when the period does." },
  uncanceled: { id: "seller.subscription.uncanceled", defaultMessage: "The subscription will renew as before." },
  revoke: { id: "seller.subscription.revoke", defaultMessage: "Revoke now" },
  revokeTitle: { id: "seller.subscription.revokeTitle", defaultMessage: "Revoke this subscription now?" },
  revokeText: { id: "seller.subscription.revokeText", defaultMessage: "It ends at once and the customer loses what it gave them today. Nothing is refunded. This cannot be undone." },
  revoked: { id: "seller.subscription.revoked", defaultMessage: "The subscription has ended." },
});

/** One subscription: its standing, and what the seller may do with it: cancel or keep, revoke, change its product or discount. */
export function SubscriptionScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const seller = useSeller();
  const subscription = useQuery(subscriptionQuery(id ?? ""));
  const back = (
    <Link to="/$slug/subscriptions" params={{ slug: seller.slug }}>
      {formatMessage(messages.back)}
    </Link>
  );
  return (
    <QueryState query={subscription} loading={messages.loading}>
      {(shown) => (
        <Page title={formatMessage(messages.title, { product: shown.product.name })} description={back}>
          {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
          <div className="stack">
            <Facts subscription={shown} />
            <SubscriptionUsageCard subscription={shown} />
            {seller.mayChange && shown.status !== "canceled" && (
              <>
                <Cancellation subscription={shown} />
                {shown.status === "trialing" && !shown.cancel_at_period_end && <TrialCard subscription={shown} />}
                <SeatChange subscription={shown} />
                <PlanChangeForm subscription={shown} />
                <DiscountForm subscription={shown} />
              </>
            )}
          </div>
        </Page>
      )}
    </QueryState>
  );
}

function Facts({ subscription }: { subscription: Subscription }) {
  const { formatMessage, formatNumber } = useIntl();
  const amount = useRecurringAmount();
  const reason = subscription.customer_cancellation_reason;
  const facts: [string, ReactNode][] = [
    [formatMessage(messages.customer), subscription.customer.name ? `${subscription.customer.name} <${subscription.customer.email}>` : subscription.customer.email],
    [formatMessage(messages.status), <StandingBadge key="status" subscription={subscription} />],
    [formatMessage(messages.amount), amount(subscription)],
    ...(subscription.seats === null ? [] : [[formatMessage(messages.seats), formatNumber(subscription.seats)] satisfies [string, ReactNode]]),
    [formatMessage(messages.started), subscription.started_at ? longDate(subscription.started_at) : "—"],
    subscription.ended_at
      ? [formatMessage(messages.ended), longDate(subscription.ended_at)]
      : [formatMessage(messages.period), formatMessage(messages.periodRange, { start: longDate(subscription.current_period_start), end: longDate(subscription.current_period_end) })],
    // A trial canceled before its end is followed by nothing, so only its end is said.
    ...(subscription.status === "trialing" && subscription.trial_end
      ? [[formatMessage(messages.trial), subscription.cancel_at_period_end ? longDate(subscription.trial_end) : formatMessage(messages.trialUntil, { date: longDate(subscription.trial_end), amount: amount(subscription) })] satisfies [string, ReactNode]]
      : []),
    [formatMessage(messages.discount), subscription.discount ? subscription.discount.name : formatMessage(messages.noDiscount)],
    ...(reason ? [[formatMessage(messages.reason), formatMessage(cancellationReason, { reason })] satisfies [string, ReactNode]] : []),
    ...(subscription.customer_cancellation_comment ? [[formatMessage(messages.comment), subscription.customer_cancellation_comment] satisfies [string, ReactNode]] : []),
  ];
  return (
    <dl className="card facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Cancel at the period's end or keep it; or end it now, after asking. */
function Cancellation({ subscription }: { subscription: Subscription }) {
  const { formatMessage } = useIntl();
  const change = useSubscriptionChange(subscription.id);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const amount = useRecurringAmount();
  const ending = subscription.cancel_at_period_end;
  const inTrial = subscription.status === "trialing";
  const end = longDate(ending && subscription.ends_at ? subscription.ends_at : subscription.current_period_end);
  /** What happens at the period's end: a trial ends (charged after, unless canceled), a paid period renews or ends. */
  const standing = () => {
    if (ending) return formatMessage(inTrial ? messages.trialEnds : messages.ends, { date: end });
    return inTrial ? formatMessage(messages.trialRenews, { date: end, amount: amount(subscription) }) : formatMessage(messages.renews, { date: end });
  };
  const toggle = async () => {
    setBusy(true);
    const update: SubscriptionUpdate = { cancel_at_period_end: !ending };
    const result = await outcomeOf(change(() => updateSubscription(subscription.id, update)), formatMessage(ending ? messages.uncanceled : messages.canceled));
    setBusy(false);
    setOutcome(result);
  };
  const revoke = async () => {
    const result = await outcomeOf(change(() => revokeSubscription(subscription.id)), formatMessage(messages.revoked));
    setOutcome(result);
    return true;
  };
  return (
    <Card
      title={formatMessage(messages.cancellation)}
      description={standing()}
    >
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="actions">
        <Button variant="secondary" busy={busy} onClick={() => void toggle()}>
          {formatMessage(ending ? messages.uncancel : messages.cancel)}
        </Button>
        <ConfirmDialog
          trigger={<Button variant="danger">{formatMessage(messages.revoke)}</Button>}
          title={formatMessage(messages.revokeTitle)}
          description={formatMessage(messages.revokeText)}
          confirmLabel={formatMessage(messages.revoke)}
          onConfirm={revoke}
        />
      </div>
    </Card>
  );
}
