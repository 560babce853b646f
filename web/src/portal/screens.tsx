import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { orThrow, type Session } from "../api/auth-client";
import { request } from "../api/client";
import { RequireSession } from "../shell";
import { Alert, Button, Card, ConfirmDialog, EmptyState, Loading, Page } from "../ui/components";
import { longDate } from "../ui/format";
import {
  LIST_LIMIT,
  portalQuery,
  portalRequest,
  storedToken,
  storeToken,
  type Listing,
  type Order,
  type PortalAccess,
  type PortalCustomer,
  type PortalOrganization,
  type Subscription,
} from "./api";
import { BenefitsCard } from "./benefits";
import { BillingDetailsCard } from "./billing-details";
import { expiredLinkText, failureText, Unread } from "./failures";
import { OrdersList, PartialListNote, SubscriptionSummary } from "./purchase-views";

const SUBSCRIPTIONS = `subscriptions/?limit=${LIST_LIMIT}`;

/** Subscriptions a customer may still cancel or resume. */
const CHANGEABLE = new Set<Subscription["status"]>(["active", "trialing", "past_due"]);

/**
 * The customer session token for this seller's portal: taken from the link once, then from the
 * tab's storage, so it leaves the address bar (and with it history and Referer headers).
 */
function usePortalToken(slug: string): string | null {
  const { customer_session_token: fromLink } = useSearch({ from: "/$slug/portal" });
  const navigate = useNavigate();
  useEffect(() => {
    if (!fromLink) return;
    storeToken(slug, fromLink);
    void navigate({ to: "/$slug/portal", params: { slug }, search: {}, replace: true });
  }, [fromLink, slug, navigate]);
  return fromLink ?? storedToken(slug);
}

function SubscriptionItem({ subscription, access }: { subscription: Subscription; access: PortalAccess }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [resuming, setResuming] = useState(false);
  const change = async (cancel: boolean): Promise<boolean> => {
    setOutcome(null);
    const changed = await portalRequest<Subscription>(access, `subscriptions/${encodeURIComponent(subscription.id)}`, { method: "PATCH", body: { cancel_at_period_end: cancel } });
    if (changed.error) {
      setOutcome({ tone: "error", text: failureText(changed.error, access) });
      return false;
    }
    queryClient.setQueryData<Listing<Subscription>>(portalQuery(access, SUBSCRIPTIONS).queryKey, (listing) =>
      listing && { ...listing, items: listing.items.map((item) => (item.id === changed.data.id ? changed.data : item)) },
    );
    setOutcome({ tone: "success", text: cancel ? "Your subscription is canceled. It stays yours until the end of the period you paid for." : "Your subscription is resumed. It renews as before." });
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
                Resume subscription
              </Button>
            ) : (
              <ConfirmDialog
                trigger={<Button variant="secondary">Cancel subscription</Button>}
                title={`Cancel ${subscription.product.name}?`}
                description={`It stays yours ${periodEnd ? `until ${longDate(periodEnd)}` : "until the end of the period you paid for"} and is not charged again. You can resume it until then.`}
                confirmLabel="Cancel subscription"
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
  const subscriptions = useQuery(portalQuery<Listing<Subscription>>(access, SUBSCRIPTIONS));
  const { name, allow_customer_updates: customersMayChange } = access.seller;
  return (
    <Card title="Subscriptions" description={customersMayChange ? undefined : `To change or cancel a subscription, contact ${name}.`}>
      <Unread query={subscriptions} what="your subscriptions" access={access} />
      {subscriptions.data?.items.length === 0 && <EmptyState title="No subscriptions." />}
      {subscriptions.data && subscriptions.data.items.length > 0 && (
        <ul className="list" aria-label="Your subscriptions">
          {subscriptions.data.items.map((subscription) => (
            <SubscriptionItem key={subscription.id} subscription={subscription} access={access} />
          ))}
        </ul>
      )}
      {subscriptions.data && <PartialListNote listing={subscriptions.data} />}
    </Card>
  );
}

function OrdersCard({ access }: { access: PortalAccess }) {
  const orders = useQuery(portalQuery<Listing<Order>>(access, `orders/?limit=${LIST_LIMIT}`));
  return (
    <Card title="Orders" description="Every payment, newest first.">
      <Unread query={orders} what="your orders" access={access} />
      {orders.data?.items.length === 0 && <EmptyState title="No orders yet." />}
      {orders.data && orders.data.items.length > 0 && <OrdersList orders={orders.data.items} label="Your orders" />}
      {orders.data && <PartialListNote listing={orders.data} />}
    </Card>
  );
}

/**
 * The portal itself, for a customer whose link gave a token. Each section loads and fails on its
 * own, once the customer's own read has said the link still opens the portal (so an expired link
 * is said once, not by every section).
 */
function Portal({ access }: { access: PortalAccess }) {
  // The same read as the billing details'.
  const customer = useQuery(portalQuery<PortalCustomer>(access, "customers/me"));
  const title = `Your purchases from ${access.seller.name}`;
  if (customer.isPending) return <Loading what="your purchases" />;
  if (customer.error?.failure.status === 401) {
    return (
      <Page title={title}>
        <Alert tone="error">{expiredLinkText(access.seller.name)}</Alert>
      </Page>
    );
  }
  return (
    <Page title={title} description={customer.data ? `For ${customer.data.email}` : undefined}>
      <div className="stack">
        <SubscriptionsCard access={access} />
        <OrdersCard access={access} />
        <BenefitsCard access={access} />
        <BillingDetailsCard access={access} />
      </div>
    </Page>
  );
}

/**
 * The customer portal, where a seller's `customer_portal_url` leads
 * (`{PUBLIC_URL}/{slug}/portal?customer_session_token=…`): the customer's subscriptions, orders,
 * benefits and billing details with that seller.
 */
export function CustomerPortalScreen() {
  const { slug } = useParams({ from: "/$slug/portal" });
  const token = usePortalToken(slug);
  const seller = useQuery({
    queryKey: ["customer-portal", slug],
    queryFn: () => orThrow(request<PortalOrganization>(`/v1/customer-portal/organizations/${encodeURIComponent(slug)}`)),
  });
  if (seller.isPending) return <Loading what="the customer portal" />;
  if (seller.error) {
    return (
      <Page title="Customer portal">
        <Alert tone="error">{seller.error.failure.status === 404 ? "There is no seller at this address. Check the link you were sent." : seller.error.message}</Alert>
      </Page>
    );
  }
  const { organization } = seller.data;
  if (!token) {
    return (
      <Page title={`Your purchases from ${organization.name}`}>
        <Alert tone="info">Open the link {organization.name} sent you to see what you bought. Links work for an hour; if yours has expired, ask {organization.name} for a new one.</Alert>
      </Page>
    );
  }
  return <Portal access={{ seller: organization, token }} />;
}

type FromSeller<Purchase> = Purchase & { organization: { name: string; slug: string } | null };

interface SellerPurchases {
  name: string;
  subscriptions: Subscription[];
  orders: Order[];
}

/** Purchases under the seller they were made from, in the order the sellers first appear. */
function bySeller(subscriptions: FromSeller<Subscription>[], orders: FromSeller<Order>[]): [string, SellerPurchases][] {
  const sellers = new Map<string, SellerPurchases>();
  const of = ({ organization }: FromSeller<unknown>) => {
    const key = organization?.slug ?? "";
    const found = sellers.get(key) ?? { name: organization?.name ?? "Other sellers", subscriptions: [], orders: [] };
    sellers.set(key, found);
    return found;
  };
  for (const subscription of subscriptions) of(subscription).subscriptions.push(subscription);
  for (const order of orders) of(order).orders.push(order);
  return [...sellers];
}

function PurchasesBySeller({ session }: { session: Session }) {
  const subscriptions = useQuery({ queryKey: ["purchases", "subscriptions"], queryFn: () => orThrow(request<Listing<FromSeller<Subscription>>>(`/v1/me/subscriptions/?limit=${LIST_LIMIT}`)) });
  const orders = useQuery({ queryKey: ["purchases", "orders"], queryFn: () => orThrow(request<Listing<FromSeller<Order>>>(`/v1/me/orders/?limit=${LIST_LIMIT}`)) });
  if (subscriptions.isPending || orders.isPending) return <Loading what="your purchases" />;
  const sellers = bySeller(subscriptions.data?.items ?? [], orders.data?.items ?? []);
  const { email, emailVerified } = session.user;
  return (
    <>
      {subscriptions.error && <Alert tone="error">Your subscriptions could not be loaded. {subscriptions.error.message}</Alert>}
      {orders.error && <Alert tone="error">Your orders could not be loaded. {orders.error.message}</Alert>}
      {sellers.length === 0 && !subscriptions.error && !orders.error && (
        <EmptyState title="No purchases yet.">
          <p>{emailVerified ? `Purchases made with ${email} show here.` : `Purchases made with ${email} show here once your e-mail is verified.`}</p>
        </EmptyState>
      )}
      <div className="stack">
        {sellers.map(([key, seller]) => (
          <Card key={key} title={seller.name}>
            {seller.subscriptions.length > 0 && (
              <>
                <h3>Subscriptions</h3>
                <ul className="list" aria-label={`Subscriptions from ${seller.name}`}>
                  {seller.subscriptions.map((subscription) => (
                    <li key={subscription.id} className="list-row">
                      <SubscriptionSummary subscription={subscription} />
                    </li>
                  ))}
                </ul>
              </>
            )}
            {seller.orders.length > 0 && (
              <>
                <h3>Orders</h3>
                <OrdersList orders={seller.orders} label={`Orders from ${seller.name}`} />
              </>
            )}
          </Card>
        ))}
      </div>
      {subscriptions.data && <PartialListNote listing={subscriptions.data} />}
      {orders.data && <PartialListNote listing={orders.data} />}
    </>
  );
}

/** A signed-in user's purchases from every seller, found by their verified e-mail address. */
export function PurchasesScreen() {
  return (
    <RequireSession>
      {(session) => (
        <Page title="Your purchases" description="What you bought from sellers on Tollgate. To change a subscription, ask its seller for a link to their customer portal.">
          <PurchasesBySeller session={session} />
        </Page>
      )}
    </RequireSession>
  );
}
