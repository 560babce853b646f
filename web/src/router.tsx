import { createRoute, createRouter, lazyRouteComponent } from "@tanstack/react-router";
import { NotFound, rootRoute } from "./root-route";
import { SELLER_ROUTES } from "./seller/sections";
import { sellerSpaceRoute } from "./seller/space-route";

/** A route's optional text search parameters; anything else in the address is dropped. */
const textSearch =
  <Key extends string>(...keys: Key[]) =>
  (search: Record<string, unknown>): Partial<Record<Key, string>> =>
    Object.fromEntries(keys.flatMap((key) => (typeof search[key] === "string" ? [[key, search[key]]] : []))) as Partial<Record<Key, string>>;

/** A page a seller's buyers and customers see: it carries the seller's header, not the platform's (see shell.tsx). */
const BUYER_PAGE = { buyerPage: true };

// Each screen is its own chunk, loaded when its route is: the sign-in page stays small (see bundle-budget.ts).
const routes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/", component: lazyRouteComponent(() => import("./account/screens"), "HomeScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/sign-in", component: lazyRouteComponent(() => import("./auth/sign-in-screen"), "SignInScreen"), validateSearch: textSearch("redirect") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/sign-up", component: lazyRouteComponent(() => import("./auth/sign-up-screen"), "SignUpScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/forgot-password", component: lazyRouteComponent(() => import("./auth/password-screens"), "ForgotPasswordScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/reset-password", component: lazyRouteComponent(() => import("./auth/password-screens"), "ResetPasswordScreen"), validateSearch: textSearch("token", "error") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/verified", component: lazyRouteComponent(() => import("./auth/outcome-screens"), "VerifiedScreen"), validateSearch: textSearch("error") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/auth-error", component: lazyRouteComponent(() => import("./auth/outcome-screens"), "AuthErrorScreen"), validateSearch: textSearch("error", "error_description") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/account", component: lazyRouteComponent(() => import("./account/screens"), "AccountScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/organizations/new", component: lazyRouteComponent(() => import("./organizations/settings"), "CreateOrganizationScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/organizations/$slug", component: lazyRouteComponent(() => import("./organizations/screens"), "OrganizationScreen") }),
  // Where a team's owner, from the customer portal, consents to the team's seats following one of their organizations.
  createRoute({ getParentRoute: () => rootRoute, path: "/organization-links/$token", component: lazyRouteComponent(() => import("./organizations/link-screen"), "OrganizationLinkScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/accept-invitation/$invitationId", component: lazyRouteComponent(() => import("./organizations/screens"), "AcceptInvitationScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users", component: lazyRouteComponent(() => import("./admin/users-screen"), "AdminUsersScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users/$userId", component: lazyRouteComponent(() => import("./admin/user-screen"), "AdminUserScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./checkout/screens"), "CheckoutScreen") }),
  // A checkout's default success_url: the same page, which thanks the buyer once the checkout has succeeded.
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret/confirmation", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./checkout/screens"), "CheckoutScreen") }),
  // A customer session's customer_portal_url: `{PUBLIC_URL}/{organization slug}/portal?customer_session_token=…`.
  createRoute({ getParentRoute: () => rootRoute, path: "/$slug/portal", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./portal/screens"), "CustomerPortalScreen"), validateSearch: textSearch("customer_session_token", "locale", "email_update_token") }),
  // A seat's claim link, as Polar's: `{PUBLIC_URL}/{organization slug}/portal/claim?token=…`.
  createRoute({ getParentRoute: () => rootRoute, path: "/$slug/portal/claim", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./portal/claim-seat"), "ClaimSeatScreen"), validateSearch: textSearch("token") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/purchases", component: lazyRouteComponent(() => import("./portal/purchases-screen"), "PurchasesScreen") }),
];
// The seller's space: its screens share a layout that knows the organization and what the person may change there.
// Each console folder's routes.ts hangs its screens from it (seller/sections.ts lists the folders).
const sellerSpace = sellerSpaceRoute.update({ component: lazyRouteComponent(() => import("./seller/space-layout"), "SellerSpaceScreen") });
// The development mailbox is left out of production images (VITE_DEV_MAILBOX=false): the build drops the import.
const mailbox = createRoute({
  getParentRoute: () => rootRoute,
  path: "/dev/mailbox",
  // Written out rather than HAS_DEV_MAILBOX, so the bundler sees the constant and drops the import.
  component: import.meta.env.VITE_DEV_MAILBOX !== "false" ? lazyRouteComponent(() => import("./dev/mailbox"), "MailboxScreen") : NotFound,
});

export const router = createRouter({ routeTree: rootRoute.addChildren([...routes, sellerSpace.addChildren(SELLER_ROUTES), mailbox]) });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    buyerPage?: boolean;
  }
}
