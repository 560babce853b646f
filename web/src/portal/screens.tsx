import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useEffect, useState, useSyncExternalStore } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { RequestBody } from "../api/wire";
import { longDate } from "../i18n/format";
import { usePageLocale } from "../i18n/provider";
import { Alert, Button, Card, EmptyState, Page } from "../ui/components";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { SellerFrame } from "../ui/seller-frame";
import { portalQuery, portalSellerQuery } from "./queries";
import { LIST_LIMIT, onTokenChange, portalRequest, sessionHasEnded, storedToken, storeToken, type Listing, type Order, type PortalAccess, type PortalCustomer, type Subscription } from "./api";
import { BenefitsCard } from "./benefits";
import { BillingDetailsCard } from "./billing-details";
import { CardsCard } from "./cards";
import { OrderDocuments } from "./documents";
import { PortalSignIn } from "./sign-in";
import { failureText } from "./failures";
import { QueryState } from "../ui/query-state";
import { OrdersList, PartialListNote, SubscriptionSummary } from "./purchase-views";

const messages = defineMessages({
  canceled: { id: "portal.subscription.canceled", defaultMessage: "Your subscription is canceled. It stays yours until the end of the period you paid for." },
  resumed: { id: "portal.subscription.resumed", defaultMessage: "Your subscription is resumed. It renews as before." },
  resume: { id: "portal.subscription.resume", defaultMessage: "Resume subscription" },
  cancel: { id: "portal.subscription.cancel", defaultMessage: "Cancel subscription" },
  cancelTitle: defineMessage<{ product: string }>({ id: "portal.subscription.cancelTitle", defaultMessage: "Cancel {product}?" }),
  cancelUntil: defineMessage<{ date: string }>({
    id: "portal.subscription.cancelUntil",
    defaultMessage: "It stays yours until {date} and is not charged again. You can resume it until then.",
  }),
  cancelUntilPeriodEnd: {
    id: "portal.subscription.cancelUntilPeriodEnd",
    defaultMessage: "It stays yours until the end of the period you paid for and is not charged again. You can resume it until then.",
  },
  subscriptions: { id: "portal.subscriptions.title", defaultMessage: "Subscriptions" },
  contactSeller: defineMessage<{ seller: string }>({ id: "portal.subscriptions.contactSeller", defaultMessage: "To change or cancel a subscription, contact {seller}." }),
  loadingSubscriptions: { id: "portal.subscriptions.loading", defaultMessage: "Loading your subscriptions…" },
  noSubscriptions: { id: "portal.subscriptions.none", defaultMessage: "No subscriptions." },
  yourSubscriptions: { id: "portal.subscriptions.label", defaultMessage: "Your subscriptions" },
  orders: { id: "portal.orders.title", defaultMessage: "Orders" },
  ordersDescription: { id: "portal.orders.description", defaultMessage: "Every payment, newest first." },
  loadingOrders: { id: "portal.orders.loading", defaultMessage: "Loading your orders…" },
  noOrders: { id: "portal.orders.none", defaultMessage: "No orders yet." },
  yourOrders: { id: "portal.orders.label", defaultMessage: "Your orders" },
  purchasesFrom: defineMessage<{ seller: string }>({ id: "portal.title", defaultMessage: "Your purchases from {seller}" }),
  loadingPurchases: { id: "portal.loading", defaultMessage: "Loading your purchases…" },
  forEmail: defineMessage<{ email: string }>({ id: "portal.forEmail", defaultMessage: "For {email}" }),
  loadingPortal: { id: "portal.loadingPortal", defaultMessage: "Loading the customer portal…" },
  portalTitle: { id: "portal.portalTitle", defaultMessage: "Customer portal" },
  noSeller: { id: "portal.noSeller", defaultMessage: "There is no seller at this address. Check the link you were sent." },
  signOut: { id: "portal.signOut", defaultMessage: "Sign out" },
  signIn: { id: "portal.signIn.title", defaultMessage: "Sign in" },
});

const SUBSCRIPTIONS = `subscriptions/?limit=${LIST_LIMIT}`;

/** Subscriptions a customer may still cancel or resume. */
const CHANGEABLE = new Set<Subscription["status"]>(["active", "trialing", "past_due"]);

/**
 * The customer session token for this seller's portal: taken from a seller's link once, then kept in
 * the browser's storage, so it leaves the address bar (and with it history and Referer headers) and
 * every tab of the portal shares it.
 */
function usePortalToken(slug: string): string | null {
  const { customer_session_token: fromLink, locale } = useSearch({ from: "/$slug/portal" });
  const navigate = useNavigate();
  const stored = useSyncExternalStore(onTokenChange, () => storedToken(slug));
  useEffect(() => {
    if (!fromLink) return;
    storeToken(slug, fromLink);
    // A language tried with `?locale=` stays while the token leaves.
    void navigate({ to: "/$slug/portal", params: { slug }, search: locale ? { locale } : {}, replace: true });
  }, [fromLink, locale, slug, navigate]);
  return fromLink ?? stored;
}

function SubscriptionItem({ subscription, access }: { subscription: Subscription; access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [resuming, setResuming] = useState(false);
  const change = async (cancel: boolean): Promise<boolean> => {
    setOutcome(null);
    let changed: Subscription;
    try {
      changed = await portalRequest<Subscription>(access, `subscriptions/${encodeURIComponent(subscription.id)}`, { method: "PATCH", body: { cancel_at_period_end: cancel } satisfies RequestBody<"/v1/customer-portal/subscriptions/{id}", "patch"> });
    } catch (reason) {
      setOutcome({ tone: "error", text: failureText(reason) });
      return false;
    }
    queryClient.setQueryData<Listing<Subscription>>(portalQuery(access, SUBSCRIPTIONS).queryKey, (listing) =>
      listing && { ...listing, items: listing.items.map((item) => (item.id === changed.id ? changed : item)) },
    );
    setOutcome({ tone: "success", text: formatMessage(cancel ? messages.canceled : messages.resumed) });
    return true;
  };
  const resume = async () => {
    setResuming(true);
    await change(false);
    setResuming(false);
  };
  const periodEnd = subscription.current_period_end;
  return (
    <li className="list-block">
      <div className="list-row">
        <SubscriptionSummary subscription={subscription} />
        {access.seller.allow_customer_updates && !subscription.ended_at && CHANGEABLE.has(subscription.status) && (
          <div className="actions">
            {subscription.cancel_at_period_end ? (
              <Button variant="secondary" busy={resuming} onClick={() => void resume()}>
                {formatMessage(messages.resume)}
              </Button>
            ) : (
              <ConfirmDialog
                trigger={<Button variant="secondary">{formatMessage(messages.cancel)}</Button>}
                title={formatMessage(messages.cancelTitle, { product: subscription.product.name })}
                description={periodEnd ? formatMessage(messages.cancelUntil, { date: longDate(periodEnd) }) : formatMessage(messages.cancelUntilPeriodEnd)}
                confirmLabel={formatMessage(messages.cancel)}
                onConfirm={() => change(true)}
              >
                {outcome?.tone === "error" && <Alert tone="error">{outcome.text}</Alert>}
              </ConfirmDialog>
            )}
          </div>
        )}
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </li>
  );
}

function SubscriptionsCard({ access }: { access: PortalAccess }) {
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

function OrdersCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const orders = useQuery(portalQuery<Listing<Order>>(access, `orders/?limit=${LIST_LIMIT}`));
  return (
    <Card title={formatMessage(messages.orders)} description={formatMessage(messages.ordersDescription)}>
      <QueryState query={orders} loading={messages.loadingOrders} failure={(error) => failureText(error)} isEmpty={({ items }) => items.length === 0} empty={<EmptyState title={formatMessage(messages.noOrders)} />}>
        {(listing) => (<><OrdersList orders={listing.items} label={formatMessage(messages.yourOrders)} actions={(order) => <OrderDocuments access={access} order={order} />} /><PartialListNote listing={listing} /></>)}
      </QueryState>
    </Card>
  );
}

/**
 * The portal itself, for a customer whose link gave a token. Each section loads and fails on its
 * own, once the customer's own read has said the link still opens the portal (so an expired link
 * is said once, not by every section). It speaks the customer's language when the seller set one.
 */
function Portal({ access, onSignOut }: { access: PortalAccess; onSignOut: () => void }) {
  const { formatMessage } = useIntl();
  // The same read as the billing details'.
  const customer = useQuery(portalQuery<PortalCustomer>(access, "customers/me"));
  usePageLocale(customer.data?.locale);
  const title = formatMessage(messages.purchasesFrom, { seller: access.seller.name });
  const signOut = (
    <Button variant="secondary" onClick={onSignOut}>
      {formatMessage(messages.signOut)}
    </Button>
  );
  return (
    <QueryState query={customer} loading={messages.loadingPurchases} failure={(error) => failureText(error)} framed={(alert) => <Page title={title}>{alert}</Page>}>
      {({ email }) => (
        <Page title={title} description={formatMessage(messages.forEmail, { email })} actions={signOut}>
          <div className="stack">
            <SubscriptionsCard access={access} />
            <OrdersCard access={access} />
            <BenefitsCard access={access} />
            <CardsCard access={access} />
            <BillingDetailsCard access={access} />
          </div>
        </Page>
      )}
    </QueryState>
  );
}

/**
 * The customer portal, where a seller's `customer_portal_url` leads
 * (`{PUBLIC_URL}/{slug}/portal?customer_session_token=…`), or where a customer signs in with a code
 * mailed to them: their subscriptions, orders, benefits and billing details with that seller.
 */
export function CustomerPortalScreen() {
  const { formatMessage } = useIntl();
  const { slug } = useParams({ from: "/$slug/portal" });
  const token = usePortalToken(slug);
  const seller = useQuery(portalSellerQuery(slug));
  // Whether the session just ran out (rather than the customer signing out or never signing in).
  const ended = useSyncExternalStore(onTokenChange, () => sessionHasEnded(slug));
  return (
    <SellerFrame seller={seller.data?.organization}>
      <QueryState
        query={seller}
        loading={messages.loadingPortal}
        failure={(error) => (error.failure.status === 404 ? formatMessage(messages.noSeller) : error.message)}
        framed={(alert) => <Page title={formatMessage(messages.portalTitle)}>{alert}</Page>}
      >
        {({ organization }) =>
          token ? (
            <Portal access={{ seller: organization, token }} onSignOut={() => storeToken(slug, null)} />
          ) : (
            <Page title={formatMessage(messages.purchasesFrom, { seller: organization.name })}>
              <Card title={formatMessage(messages.signIn)}>
                <PortalSignIn seller={organization} ended={ended} onSignedIn={(opened) => storeToken(slug, opened)} />
              </Card>
            </Page>
          )
        }
      </QueryState>
    </SellerFrame>
  );
}
