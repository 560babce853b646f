import { Outlet, useParams } from "@tanstack/react-router";
import { WithOrganization } from "../organizations/loaded";
import type { FullOrganization } from "../organizations/queries";
import { permission } from "../organizations/permissions";
import { RequireSession } from "../shell";
import { SetAsideBanner } from "./set-aside-work/set-aside-banner";
import { SellerContext, type Seller } from "./space";
import { SellerDrawer, SellerNav } from "./space-nav";

/** The seller's space at /{slug}/…: its navigation, and the screen asked for, for a member of the organization. */
export function SellerSpaceScreen() {
  const { slug } = useParams({ strict: false });
  return <RequireSession>{(session) => <SellerSpace slug={slug ?? ""} userId={session.user.id} />}</RequireSession>;
}

function SellerSpace({ slug, userId }: { slug: string; userId: string }) {
  return <WithOrganization slug={slug}>{(organization) => <SellerLayout organization={organization} userId={userId} />}</WithOrganization>;
}

/** The grouped navigation as a sidebar on a wide window; on a narrow one, a bar whose menu button opens it as a drawer. */
function SellerLayout({ organization, userId }: { organization: FullOrganization; userId: string }) {
  const { id, name, slug } = organization;
  const may = permission(organization.members.find((member) => member.userId === userId)?.role, "sell");
  const seller: Seller = { id, slug, name, mayChange: may.allowed, readOnlyReason: may.allowed ? null : may.reason };
  return (
    <SellerContext.Provider value={seller}>
      <div className="seller-bar">
        <SellerDrawer slug={slug} />
        <span className="seller-bar-name">{name}</span>
      </div>
      <div className="seller-space">
        <SellerNav slug={slug} className="seller-nav seller-sidebar" idPrefix="sidebar" />
        <div className="seller-screen">
          <SetAsideBanner sellerId={id} slug={slug} />
          <Outlet />
        </div>
      </div>
    </SellerContext.Provider>
  );
}
