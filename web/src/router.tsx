import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag } from "react-intl";
import { z } from "zod";
import { AccountScreen, HomeScreen } from "./account/screens";
import { AdminUserScreen } from "./admin/user-screen";
import { AdminUsersScreen } from "./admin/users-screen";
import { CheckoutScreen } from "./checkout/screens";
import { AuthErrorScreen, VerifiedScreen } from "./auth/outcome-screens";
import { ForgotPasswordScreen, ResetPasswordScreen } from "./auth/password-screens";
import { SignInScreen, SignUpScreen } from "./auth/screens";
import { AcceptInvitationScreen, OrganizationScreen } from "./organizations/screens";
import { CreateOrganizationScreen } from "./organizations/settings";
import { CustomerPortalScreen } from "./portal/screens";
import { PurchasesScreen } from "./portal/purchases-screen";
import { Shell } from "./shell";

const messages = defineMessages({
  notFoundTitle: { id: "router.notFound.title", defaultMessage: "Page not found" },
  notFoundText: defineMessage<{ link: MessageTag }>({ id: "router.notFound.text", defaultMessage: "There is nothing at this address. <link>Go to the start page</link>." }),
});

function NotFound() {
  return (
    <section className="page">
      <h1>
        <FormattedMessage {...messages.notFoundTitle} />
      </h1>
      <p>
        <FormattedMessage {...messages.notFoundText} values={{ link: (chunks) => <Link to="/">{chunks}</Link> }} />
      </p>
    </section>
  );
}

const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

const optional = z.string().optional();

const routes = [
  createRoute({ getParentRoute: () => rootRoute, path: "/", component: HomeScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/sign-in", component: SignInScreen, validateSearch: z.object({ redirect: optional }) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/sign-up", component: SignUpScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/forgot-password", component: ForgotPasswordScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/reset-password", component: ResetPasswordScreen, validateSearch: z.object({ token: optional, error: optional }) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/verified", component: VerifiedScreen, validateSearch: z.object({ error: optional }) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/auth-error", component: AuthErrorScreen, validateSearch: z.object({ error: optional, error_description: optional }) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/account", component: AccountScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/organizations/new", component: CreateOrganizationScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/organizations/$slug", component: OrganizationScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/accept-invitation/$invitationId", component: AcceptInvitationScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users", component: AdminUsersScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users/$userId", component: AdminUserScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret", component: CheckoutScreen }),
  // A checkout's default success_url: the same page, which thanks the buyer once the checkout has succeeded.
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret/confirmation", component: CheckoutScreen }),
  // A customer session's customer_portal_url: `{PUBLIC_URL}/{organization slug}/portal?customer_session_token=…`.
  createRoute({ getParentRoute: () => rootRoute, path: "/$slug/portal", component: CustomerPortalScreen, validateSearch: z.object({ customer_session_token: optional, locale: optional }) }),
  createRoute({ getParentRoute: () => rootRoute, path: "/purchases", component: PurchasesScreen }),
];
// The development mailbox is left out of production images (VITE_DEV_MAILBOX=false): the build drops the import.
const mailbox = createRoute({
  getParentRoute: () => rootRoute,
  path: "/dev/mailbox",
  // Written out rather than HAS_DEV_MAILBOX, so the bundler sees the constant and drops the import.
  component: import.meta.env.VITE_DEV_MAILBOX !== "false" ? lazyRouteComponent(() => import("./dev/mailbox"), "MailboxScreen") : NotFound,
});

export const router = createRouter({ routeTree: rootRoute.addChildren([...routes, mailbox]) });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
