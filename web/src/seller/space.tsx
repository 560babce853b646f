import { Link, Outlet, useParams } from "@tanstack/react-router";
import { createContext, useContext } from "react";
import { defineMessages, useIntl } from "react-intl";
import { WithOrganization } from "../organizations/loaded";
import type { FullOrganization } from "../organizations/organization";
import { permission } from "../organizations/permissions";
import { RequireSession } from "../shell";

const messages = defineMessages({
  navigation: { id: "seller.space.navigation", defaultMessage: "Selling" },
  products: { id: "seller.space.products", defaultMessage: "Products" },
  benefits: { id: "seller.space.benefits", defaultMessage: "Benefits" },
  customFields: { id: "seller.space.customFields", defaultMessage: "Custom fields" },
  discounts: { id: "seller.space.discounts", defaultMessage: "Discounts" },
  checkoutLinks: { id: "seller.space.checkoutLinks", defaultMessage: "Checkout links" },
  organization: { id: "seller.space.organization", defaultMessage: "Members and settings" },
});

/** The organization a seller's screen works on, and whether the person may change it (owners and admins) or only look. */
export interface Seller {
  id: string;
  slug: string;
  name: string;
  mayChange: boolean;
  /** Why not, for a member who may only look. */
  readOnlyReason: string | null;
}

const SellerContext = createContext<Seller | null>(null);

/** The seller of the screen being shown; only inside the seller's space. */
export function useSeller(): Seller {
  const seller = useContext(SellerContext);
  if (!seller) throw new Error("useSeller outside the seller's space");
  return seller;
}

/** The seller's space at /{slug}/…: its navigation, and the screen asked for, for a member of the organization. */
export function SellerSpaceScreen() {
  const { slug } = useParams({ strict: false });
  return <RequireSession>{(session) => <SellerSpace slug={slug ?? ""} userId={session.user.id} />}</RequireSession>;
}

function SellerSpace({ slug, userId }: { slug: string; userId: string }) {
  return <WithOrganization slug={slug}>{(organization) => <SellerLayout organization={organization} userId={userId} />}</WithOrganization>;
}

function SellerLayout({ organization, userId }: { organization: FullOrganization; userId: string }) {
  const { formatMessage } = useIntl();
  const { id, name, slug } = organization;
  const may = permission(organization.members.find((member) => member.userId === userId)?.role, "sell");
  const seller: Seller = { id, slug, name, mayChange: may.allowed, readOnlyReason: may.allowed ? null : may.reason };
  return (
    <SellerContext.Provider value={seller}>
      <div className="seller-space">
        <nav className="seller-nav" aria-label={formatMessage(messages.navigation)}>
          <Link to="/$slug/products" params={{ slug }}>
            {formatMessage(messages.products)}
          </Link>
          <Link to="/$slug/benefits" params={{ slug }}>{formatMessage(messages.benefits)}</Link>
          <Link to="/$slug/custom-fields" params={{ slug }}>{formatMessage(messages.customFields)}</Link>
          <Link to="/$slug/discounts" params={{ slug }}>{formatMessage(messages.discounts)}</Link>
          <Link to="/$slug/checkout-links" params={{ slug }}>{formatMessage(messages.checkoutLinks)}</Link>
          <Link to="/organizations/$slug" params={{ slug }}>
            {formatMessage(messages.organization)}
          </Link>
        </nav>
        <div className="seller-screen">
          <Outlet />
        </div>
      </div>
    </SellerContext.Provider>
  );
}
