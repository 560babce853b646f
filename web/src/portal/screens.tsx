import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useEffect, useSyncExternalStore } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { usePageLocale } from "../i18n/provider";
import { Alert, Button, Card, EmptyState, Page } from "../ui/components";
import { SellerFrame } from "../ui/seller-frame";
import { portalQuery, portalSellerQuery } from "./queries";
import { onTokenChange, ORDERS, PORTAL_USER, sessionHasEnded, storedToken, storeToken, type Listing, type Order, type PortalAccess, type PortalCustomer, type PortalUser } from "./api";
import { BenefitsCard } from "./benefits";
import { BillingDetailsCard } from "./billing-details";
import { CardsCard } from "./cards";
import { EmailChangeCard, useEmailUpdateLink } from "./email-change";
import { OrderDocuments } from "./documents";
import { PortalSignIn } from "./sign-in";
import { failureText } from "./failures";
import { QueryState, together } from "../ui/query-state";
import { OrdersList, PartialListNote } from "./purchase-views";
import { SubscriptionsCard } from "./subscriptions";
import { OrganizationLinkCard } from "./organization-link";
import { TeamMembersCard, TeamSeatsCard } from "./team";

const messages = defineMessages({
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

function OrdersCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const orders = useQuery(portalQuery<Listing<Order>>(access, ORDERS));
  return (
    <Card title={formatMessage(messages.orders)} description={formatMessage(messages.ordersDescription)}>
      <QueryState query={orders} loading={messages.loadingOrders} failure={(error) => failureText(error)} isEmpty={({ items }) => items.length === 0} empty={<EmptyState title={formatMessage(messages.noOrders)} />}>
        {(listing) => (<><OrdersList orders={listing.items} label={formatMessage(messages.yourOrders)} actions={(order) => <OrderDocuments access={access} order={order} />} /><PartialListNote listing={listing} /></>)}
      </QueryState>
    </Card>
  );
}

/** Whether who signed in looks after the customer's billing: the customer themself, or a team's owner or billing manager (Polar's rule). */
const managesBilling = (user: PortalUser) => user.type === "customer" || user.role === "owner" || user.role === "billing_manager";

/**
 * The portal itself, for a customer whose link gave a token. Each section loads and fails on its
 * own, once the customer's own read has said the link still opens the portal (so an expired link
 * is said once, not by every section). It speaks the customer's language when the seller set one.
 * A team's owner and billing managers also manage its members and seats; a plain member sees only
 * what their seat gives them.
 */
function Portal({ access, onSignOut }: { access: PortalAccess; onSignOut: () => void }) {
  const { formatMessage } = useIntl();
  // The same read as the billing details'.
  const customer = useQuery(portalQuery<PortalCustomer>(access, "customers/me"));
  const user = useQuery(portalQuery<PortalUser>(access, PORTAL_USER));
  usePageLocale(customer.data?.locale);
  const title = formatMessage(messages.purchasesFrom, { seller: access.seller.name });
  const signOut = (
    <Button variant="secondary" onClick={onSignOut}>
      {formatMessage(messages.signOut)}
    </Button>
  );
  return (
    <QueryState query={together(customer, user)} loading={messages.loadingPurchases} failure={(error) => failureText(error)} framed={(alert) => <Page title={title}>{alert}</Page>}>
      {([{ email, type }, signedIn]) => (
        <Page title={title} description={formatMessage(messages.forEmail, { email: signedIn.email })} actions={signOut}>
          {managesBilling(signedIn) ? (
            <div className="stack">
              <SubscriptionsCard access={access} />
              {type === "team" && (
                <>
                  <TeamSeatsCard access={access} />
                  <OrganizationLinkCard access={access} />
                  <TeamMembersCard access={access} />
                </>
              )}
              <OrdersCard access={access} />
              <BenefitsCard access={access} />
              <CardsCard access={access} />
              <BillingDetailsCard access={access} />
              {email && <EmailChangeCard access={access} email={email} />}
            </div>
          ) : (
            <div className="stack">
              <BenefitsCard access={access} />
            </div>
          )}
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
  const linkProblem = useEmailUpdateLink(slug);
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
              {linkProblem && <Alert tone="error">{linkProblem}</Alert>}
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
