import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { onTokenChange, storedToken, type PortalAccess, type PortalCustomer } from "../portal/api";
import { BenefitsCard } from "../portal/benefits";
import { portalQuery } from "../portal/queries";
import { QueryState } from "../ui/query-state";
import type { PublicCheckout } from "./api";

const messages = defineMessages({
  loading: { id: "checkout.success.loadingPurchase", defaultMessage: "Loading what you bought…" },
  openPortal: { id: "checkout.success.openPortal", defaultMessage: "Open your customer portal" },
  portalLater: { id: "checkout.success.portalLater", defaultMessage: "Your purchases stay in the customer portal: your keys, files, orders and subscriptions." },
  signInLater: defineMessage<{ seller: string }>({
    id: "checkout.success.signInLater",
    defaultMessage: "Find what you bought in the customer portal of {seller} any time: you sign in there with a code sent to your e-mail.",
  }),
  goToPortal: { id: "checkout.success.goToPortal", defaultMessage: "Go to the customer portal" },
});

/** The way into the seller's portal, where the buyer signs in with a mailed code. */
function PortalLink({ checkout, signedIn }: { checkout: PublicCheckout; signedIn: boolean }) {
  const { formatMessage } = useIntl();
  return (
    <div className="stack">
      <p className="muted">{signedIn ? formatMessage(messages.portalLater) : formatMessage(messages.signInLater, { seller: checkout.organization.name })}</p>
      <a className="button button-secondary" href={`/${encodeURIComponent(checkout.organization.slug)}/portal`}>
        {formatMessage(signedIn ? messages.openPortal : messages.goToPortal)}
      </a>
    </div>
  );
}

/** The benefits of the buyer's session, when it is the buyer's own (the same e-mail as the checkout's). */
function SessionPurchases({ checkout, access }: { checkout: PublicCheckout; access: PortalAccess }) {
  const customer = useQuery(portalQuery<PortalCustomer>(access, "customers/me"));
  // A session this browser kept for someone else, or one that ended, shows nothing of theirs.
  return (
    <QueryState query={customer} loading={messages.loading} failure={() => null} framed={() => <PortalLink checkout={checkout} signedIn={false} />}>
      {({ email }) =>
        email === checkout.customer_email?.toLowerCase() ? (
          <>
            <BenefitsCard access={access} />
            <PortalLink checkout={checkout} signedIn />
          </>
        ) : (
          <PortalLink checkout={checkout} signedIn={false} />
        )
      }
    </QueryState>
  );
}

/**
 * What the thank-you page shows of the purchase, as Polar's does: the license keys and files it
 * gave, with the session the checkout opened for a new customer (or the buyer's own from an earlier
 * sign-in), and the way into the customer portal.
 */
export function PurchasedBenefits({ checkout }: { checkout: PublicCheckout }) {
  const token = useSyncExternalStore(onTokenChange, () => storedToken(checkout.organization.slug));
  if (!token) return <PortalLink checkout={checkout} signedIn={false} />;
  return <SessionPurchases checkout={checkout} access={{ seller: checkout.organization, token }} />;
}
