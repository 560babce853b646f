import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { type Session } from "../api/auth-client";
import { RequireSession } from "../shell";
import { Card, EmptyState, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import type { PurchasedOrder, PurchasedSubscription } from "../api/wire";
import type { Order, Subscription } from "./api";
import { purchasedOrdersQuery, purchasedSubscriptionsQuery } from "./queries";
import { OrdersList, PartialListNote, SubscriptionSummary } from "./purchase-views";

const messages = defineMessages({
  otherSellers: { id: "purchases.otherSellers", defaultMessage: "Other sellers" },
  loading: { id: "purchases.loading", defaultMessage: "Loading your purchases…" },
  subscriptionsFailed: defineMessage<{ reason: string }>({ id: "purchases.subscriptionsFailed", defaultMessage: "Your subscriptions could not be loaded. {reason}" }),
  ordersFailed: defineMessage<{ reason: string }>({ id: "purchases.ordersFailed", defaultMessage: "Your orders could not be loaded. {reason}" }),
  none: { id: "purchases.none", defaultMessage: "No purchases yet." },
  shownHere: defineMessage<{ email: string }>({ id: "purchases.shownHere", defaultMessage: "Purchases made with {email} show here." }),
  shownOnceVerified: defineMessage<{ email: string }>({ id: "purchases.shownOnceVerified", defaultMessage: "Purchases made with {email} show here once your e-mail is verified." }),
  subscriptions: { id: "purchases.subscriptions", defaultMessage: "Subscriptions" },
  subscriptionsFrom: defineMessage<{ seller: string }>({ id: "purchases.subscriptionsFrom", defaultMessage: "Subscriptions from {seller}" }),
  orders: { id: "purchases.orders", defaultMessage: "Orders" },
  ordersFrom: defineMessage<{ seller: string }>({ id: "purchases.ordersFrom", defaultMessage: "Orders from {seller}" }),
  title: { id: "purchases.title", defaultMessage: "Your purchases" },
  description: {
    id: "purchases.description",
    defaultMessage: "What you bought from sellers on Tollgate. To change a subscription, ask its seller for a link to their customer portal.",
  },
});

interface SellerPurchases {
  /** The seller's name; null for purchases whose seller is gone. */
  name: string | null;
  subscriptions: Subscription[];
  orders: Order[];
}

/** Purchases under the seller they were made from, in the order the sellers first appear. */
function bySeller(subscriptions: PurchasedSubscription[], orders: PurchasedOrder[]): [string, SellerPurchases][] {
  const sellers = new Map<string, SellerPurchases>();
  const of = ({ organization }: PurchasedSubscription | PurchasedOrder) => {
    const key = organization?.slug ?? "";
    const found = sellers.get(key) ?? { name: organization?.name ?? null, subscriptions: [], orders: [] };
    sellers.set(key, found);
    return found;
  };
  for (const subscription of subscriptions) of(subscription).subscriptions.push(subscription);
  for (const order of orders) of(order).orders.push(order);
  return [...sellers];
}

function PurchasesBySeller({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const subscriptions = useQuery(purchasedSubscriptionsQuery);
  const orders = useQuery(purchasedOrdersQuery);
  const { email, emailVerified } = session.user;
  return (
    <QueryState query={subscriptions} loading={messages.loading} failure={(error) => formatMessage(messages.subscriptionsFailed, { reason: error.message })}>
      {(subscribed) => (
        <QueryState query={orders} loading={messages.loading} failure={(error) => formatMessage(messages.ordersFailed, { reason: error.message })}>
          {(ordered) => {
            const sellers = bySeller(subscribed.items, ordered.items);
            if (sellers.length === 0) {
              return (
                <EmptyState title={formatMessage(messages.none)}>
                  <p>{formatMessage(emailVerified ? messages.shownHere : messages.shownOnceVerified, { email })}</p>
                </EmptyState>
              );
            }
            return (
              <>
                <div className="stack">
                  {sellers.map(([key, purchases]) => {
                    const seller = purchases.name ?? formatMessage(messages.otherSellers);
                    return (
                      <Card key={key} title={seller}>
                        {purchases.subscriptions.length > 0 && (
                          <>
                            <h3>{formatMessage(messages.subscriptions)}</h3>
                            <ul className="list" aria-label={formatMessage(messages.subscriptionsFrom, { seller })}>
                              {purchases.subscriptions.map((subscription) => (
                                <li key={subscription.id} className="list-row">
                                  <SubscriptionSummary subscription={subscription} />
                                </li>
                              ))}
                            </ul>
                          </>
                        )}
                        {purchases.orders.length > 0 && (
                          <>
                            <h3>{formatMessage(messages.orders)}</h3>
                            <OrdersList orders={purchases.orders} label={formatMessage(messages.ordersFrom, { seller })} />
                          </>
                        )}
                      </Card>
                    );
                  })}
                </div>
                <PartialListNote listing={subscribed} />
                <PartialListNote listing={ordered} />
              </>
            );
          }}
        </QueryState>
      )}
    </QueryState>
  );
}

/** A signed-in user's purchases from every seller, found by their verified e-mail address. */
export function PurchasesScreen() {
  const { formatMessage } = useIntl();
  return (
    <RequireSession>
      {(session) => (
        <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
          <PurchasesBySeller session={session} />
        </Page>
      )}
    </RequireSession>
  );
}
