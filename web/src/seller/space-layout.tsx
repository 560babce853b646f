import { Link, Outlet, useParams } from "@tanstack/react-router";
import { defineMessages, useIntl } from "react-intl";
import { WithOrganization } from "../organizations/loaded";
import type { FullOrganization } from "../organizations/queries";
import { permission } from "../organizations/permissions";
import { RequireSession } from "../shell";
import { SELLER_NAVIGATION } from "./sections";
import { SetAsideBanner } from "./set-aside-work/set-aside-banner";
import { SellerContext, type Seller } from "./space";

const messages = defineMessages({
  navigation: { id: "seller.space.navigation", defaultMessage: "Selling" },
  organization: { id: "seller.space.organization", defaultMessage: "Members and settings" },
});

/** The console's sections (seller/sections.ts), then the organization's members and settings, outside the console. */
const SECTIONS = [...SELLER_NAVIGATION, { to: "/organizations/$slug", label: messages.organization }] as const;

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
