import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import type { RequestBody } from "../api/wire";
import { longDate } from "../i18n/format";
import { Alert, Button, Card, EmptyState } from "../ui/components";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { QueryState } from "../ui/query-state";
import { CancelDialog } from "./cancel-dialog";
import { portalRequest, SUBSCRIPTIONS, type Listing, type PortalAccess, type Subscription } from "./api";
import { failureText } from "./failures";
import { PartialListNote, SubscriptionSummary } from "./purchase-views";
import { portalQuery } from "./queries";

const messages = defineMessages({
  canceled: defineMessage<{ date: string }>({ id: "portal.subscription.canceledUntil", defaultMessage: "Your subscription is canceled. It stays yours until {date} and is not charged again." }),
  trialCanceled: defineMessage<{ date: string }>({ id: "portal.subscription.trialCanceled", defaultMessage: "Your trial is canceled. It stays yours until {date}, and nothing will be charged." }),
  resumed: { id: "portal.subscription.resumed", defaultMessage: "Your subscription is resumed. It renews as before." },
  resume: { id: "portal.subscription.resume", defaultMessage: "Resume subscription" },
  pause: { id: "portal.subscription.pause", defaultMessage: "Pause subscription" },
  pauseTitle: defineMessage<{ product: string }>({ id: "portal.subscription.pauseTitle", defaultMessage: "Pause {product}?" }),
  pauseUntil: defineMessage<{ date: string }>({
    id: "portal.subscription.pauseUntil",
    defaultMessage: "It stays yours until {date}. Then it is not charged, and what it gives you rests, until you resume it here.",
  }),
  pauseScheduled: { id: "portal.subscription.pauseScheduled", defaultMessage: "Your subscription pauses at the end of this period. You can resume it here whenever you like." },
  keepRunning: { id: "portal.subscription.keepRunning", defaultMessage: "Don't pause" },
  pauseTakenBack: { id: "portal.subscription.pauseTakenBack", defaultMessage: "Your subscription will not pause. It renews as before." },
  resumeNow: { id: "portal.subscription.resumeNow", defaultMessage: "Resume now" },
  resumeTitle: defineMessage<{ product: string }>({ id: "portal.subscription.resumeTitle", defaultMessage: "Resume {product} now?" }),
  resumeCharge: { id: "portal.subscription.resumeCharge", defaultMessage: "A new period starts today, and it is charged now." },
  resumedNow: { id: "portal.subscription.resumedNow", defaultMessage: "Your subscription is running again: its new period has started." },
  subscriptions: { id: "portal.subscriptions.title", defaultMessage: "Subscriptions" },
  contactSeller: defineMessage<{ seller: string }>({ id: "portal.subscriptions.contactSeller", defaultMessage: "To change or cancel a subscription, contact {seller}." }),
  loadingSubscriptions: { id: "portal.subscriptions.loading", defaultMessage: "Loading your subscriptions…" },
  noSubscriptions: { id: "portal.subscriptions.none", defaultMessage: "No subscriptions." },
  yourSubscriptions: { id: "portal.subscriptions.label", defaultMessage: "Your subscriptions" },
});

/** Subscriptions a customer may still cancel or resume. */
const CHANGEABLE = new Set<Subscription["status"]>(["active", "trialing", "past_due"]);

type SubscriptionChange = RequestBody<"/v1/customer-portal/subscriptions/{id}", "patch">;

/**
 * One subscription, with what the seller lets its customer do: cancel at the period's end or take
 * that back, and — where the seller turned pausing on — pause at the period's end, take that back,
 * or resume a paused one at once (which charges its new period).
 */
function SubscriptionItem({ subscription, access }: { subscription: Subscription; access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const change = async (body: SubscriptionChange, done: (changed: Subscription) => string): Promise<boolean> => {
    setOutcome(null);
    let changed: Subscription;
    try {
      changed = await portalRequest<Subscription>(access, `subscriptions/${encodeURIComponent(subscription.id)}`, { method: "PATCH", body });
    } catch (reason) {
      setOutcome({ tone: "error", text: failureText(reason) });
      return false;
    }
    queryClient.setQueryData<Listing<Subscription>>(portalQuery(access, SUBSCRIPTIONS).queryKey, (listing) =>
      listing && { ...listing, items: listing.items.map((item) => (item.id === changed.id ? changed : item)) },
    );
    setOutcome({ tone: "success", text: done(changed) });
    return true;
  };
  /** A change that needs no asking first (it takes back a cancellation or a pause): the button shows it is under way. */
  const takeBack = async (body: SubscriptionChange, done: MessageDescriptor) => {
    setBusy(true);
    await change(body, () => formatMessage(done));
    setBusy(false);
  };
  const { allow_customer_updates: mayChange, customer_portal_settings: portal } = access.seller;
  const mayPause = mayChange && portal.subscription.pause === true;
  const product = subscription.product.name;
  const periodEnd = subscription.current_period_end;
  /** What a cancellation leaves: a trial ends with nothing charged, a paid period runs out. */
  const cancelOutcome = (changed: Subscription) => formatMessage(changed.status === "trialing" ? messages.trialCanceled : messages.canceled, { date: longDate(changed.ends_at ?? changed.current_period_end) });
  const errorInDialog = outcome?.tone === "error" && <Alert tone="error">{outcome.text}</Alert>;

  const actions = (): ReactNode => {
    if (!mayChange || subscription.ended_at) return null;
    if (subscription.status === "paused")
      return mayPause && (
        <ConfirmDialog
          trigger={<Button variant="secondary">{formatMessage(messages.resumeNow)}</Button>}
          title={formatMessage(messages.resumeTitle, { product })}
          description={formatMessage(messages.resumeCharge)}
          confirmLabel={formatMessage(messages.resumeNow)}
          onConfirm={() => change({ resume: true }, () => formatMessage(messages.resumedNow))}
        >
          {errorInDialog}
        </ConfirmDialog>
      );
    if (!CHANGEABLE.has(subscription.status)) return null;
    if (subscription.cancel_at_period_end)
      return (
        <Button variant="secondary" busy={busy} onClick={() => void takeBack({ cancel_at_period_end: false }, messages.resumed)}>
          {formatMessage(messages.resume)}
        </Button>
      );
    if (subscription.pause_at_period_end)
      return (
        <Button variant="secondary" busy={busy} onClick={() => void takeBack({ pause_at_period_end: false }, messages.pauseTakenBack)}>
          {formatMessage(messages.keepRunning)}
        </Button>
      );
    return (
      <>
        {mayPause && subscription.status === "active" && periodEnd && (
          <ConfirmDialog
            trigger={<Button variant="secondary">{formatMessage(messages.pause)}</Button>}
            title={formatMessage(messages.pauseTitle, { product })}
            description={formatMessage(messages.pauseUntil, { date: longDate(periodEnd) })}
            confirmLabel={formatMessage(messages.pause)}
            onConfirm={() => change({ pause_at_period_end: true }, () => formatMessage(messages.pauseScheduled))}
          >
            {errorInDialog}
          </ConfirmDialog>
        )}
        <CancelDialog subscription={subscription} onCancel={(request) => change(request, cancelOutcome)}>
          {errorInDialog}
        </CancelDialog>
      </>
    );
  };
  const offered = actions();

  return (
    <li className="list-block">
      <div className="list-row">
        <SubscriptionSummary subscription={subscription} />
        {offered && <div className="actions">{offered}</div>}
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </li>
  );
}

export function SubscriptionsCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const subscriptions = useQuery(portalQuery<Listing<Subscription>>(access, SUBSCRIPTIONS));
  const { name, allow_customer_updates: customersMayChange } = access.seller;
  return (
    <Card title={formatMessage(messages.subscriptions)} description={customersMayChange ? undefined : formatMessage(messages.contactSeller, { seller: name })}>
      <QueryState
        query={subscriptions}
        loading={messages.loadingSubscriptions}
        failure={(error) => failureText(error)}
        isEmpty={(listing) => listing.items.length === 0}
        empty={<EmptyState title={formatMessage(messages.noSubscriptions)} />}
      >
        {(listing) => (
          <>
            <ul className="list" aria-label={formatMessage(messages.yourSubscriptions)}>
              {listing.items.map((subscription) => (
                <SubscriptionItem key={subscription.id} subscription={subscription} access={access} />
              ))}
            </ul>
            <PartialListNote listing={listing} />
          </>
        )}
      </QueryState>
    </Card>
  );
}
