import { Link, Outlet, useParams } from "@tanstack/react-router";
import { createContext, useContext } from "react";
import { defineMessages, useIntl } from "react-intl";
import { WithOrganization } from "../organizations/loaded";
import type { FullOrganization } from "../organizations/queries";
import { permission } from "../organizations/permissions";
import { RequireSession } from "../shell";
import { SetAsideBanner } from "./set-aside-work/set-aside-banner";

const messages = defineMessages({
  navigation: { id: "seller.space.navigation", defaultMessage: "Selling" },
  dashboard: { id: "seller.space.dashboard", defaultMessage: "Dashboard" },
  products: { id: "seller.space.products", defaultMessage: "Products" },
  benefits: { id: "seller.space.benefits", defaultMessage: "Benefits" },
  customFields: { id: "seller.space.customFields", defaultMessage: "Custom fields" },
  discounts: { id: "seller.space.discounts", defaultMessage: "Discounts" },
  checkoutLinks: { id: "seller.space.checkoutLinks", defaultMessage: "Checkout links" },
  customers: { id: "seller.space.customers", defaultMessage: "Customers" },
  orders: { id: "seller.space.orders", defaultMessage: "Orders" },
  subscriptions: { id: "seller.space.subscriptions", defaultMessage: "Subscriptions" },
  licenseKeys: { id: "seller.space.licenseKeys", defaultMessage: "License keys" },
  webhooks: { id: "seller.space.webhooks", defaultMessage: "Webhooks" },
  accessTokens: { id: "seller.space.accessTokens", defaultMessage: "Access tokens" },
  setAside: { id: "seller.space.setAside", defaultMessage: "Needs attention" },
  settings: { id: "seller.space.settings", defaultMessage: "Settings" },
  organization: { id: "seller.space.organization", defaultMessage: "Members and settings" },
});

/** The console's sections in the order a seller works: what is sold, who bought it, how systems hear of it, the seller's own settings. */
const SECTIONS = [
  { to: "/$slug", label: messages.dashboard, exact: true },
  { to: "/$slug/products", label: messages.products },
  { to: "/$slug/benefits", label: messages.benefits },
  { to: "/$slug/custom-fields", label: messages.customFields },
  { to: "/$slug/discounts", label: messages.discounts },
  { to: "/$slug/checkout-links", label: messages.checkoutLinks },
  { to: "/$slug/customers", label: messages.customers },
  { to: "/$slug/orders", label: messages.orders },
  { to: "/$slug/subscriptions", label: messages.subscriptions },
  { to: "/$slug/license-keys", label: messages.licenseKeys },
  { to: "/$slug/webhooks", label: messages.webhooks },
  { to: "/$slug/access-tokens", label: messages.accessTokens },
  { to: "/$slug/set-aside-work", label: messages.setAside },
  { to: "/$slug/settings", label: messages.settings },
  { to: "/organizations/$slug", label: messages.organization },
] as const;

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
          {SECTIONS.map((section) => (
            <Link key={section.to} to={section.to} params={{ slug }} activeOptions={{ exact: "exact" in section }}>
              {formatMessage(section.label)}
            </Link>
          ))}
        </nav>
        <div className="seller-screen">
          <SetAsideBanner sellerId={id} slug={slug} />
          <Outlet />
        </div>
      </div>
    </SellerContext.Provider>
  );
}
