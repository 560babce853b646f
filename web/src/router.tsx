import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag } from "react-intl";
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

// Each screen is its own chunk, loaded when its route is: the sign-in page stays small (see bundle-budget.ts).
const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

/** A route's optional text search parameters; anything else in the address is dropped. */
const textSearch =
  <Key extends string>(...keys: Key[]) =>
  (search: Record<string, unknown>): Partial<Record<Key, string>> =>
    Object.fromEntries(keys.flatMap((key) => (typeof search[key] === "string" ? [[key, search[key]]] : []))) as Partial<Record<Key, string>>;

/** A page a seller's buyers and customers see: it carries the seller's header, not the platform's (see shell.tsx). */
const BUYER_PAGE = { buyerPage: true };

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
  createRoute({ getParentRoute: () => rootRoute, path: "/accept-invitation/$invitationId", component: lazyRouteComponent(() => import("./organizations/screens"), "AcceptInvitationScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users", component: lazyRouteComponent(() => import("./admin/users-screen"), "AdminUsersScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/admin/users/$userId", component: lazyRouteComponent(() => import("./admin/user-screen"), "AdminUserScreen") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./checkout/screens"), "CheckoutScreen") }),
  // A checkout's default success_url: the same page, which thanks the buyer once the checkout has succeeded.
  createRoute({ getParentRoute: () => rootRoute, path: "/checkout/$clientSecret/confirmation", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./checkout/screens"), "CheckoutScreen") }),
  // A customer session's customer_portal_url: `{PUBLIC_URL}/{organization slug}/portal?customer_session_token=…`.
  createRoute({ getParentRoute: () => rootRoute, path: "/$slug/portal", staticData: BUYER_PAGE, component: lazyRouteComponent(() => import("./portal/screens"), "CustomerPortalScreen"), validateSearch: textSearch("customer_session_token", "locale") }),
  createRoute({ getParentRoute: () => rootRoute, path: "/purchases", component: lazyRouteComponent(() => import("./portal/purchases-screen"), "PurchasesScreen") }),
];
// The seller's space: its screens share a layout that knows the organization and what the person may change there.
const sellerSpace = createRoute({ getParentRoute: () => rootRoute, path: "/$slug", component: lazyRouteComponent(() => import("./seller/space"), "SellerSpaceScreen") });
const sellerRoutes = [
  createRoute({ getParentRoute: () => sellerSpace, path: "/", component: lazyRouteComponent(() => import("./seller/dashboard/dashboard-screen"), "DashboardScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/products", component: lazyRouteComponent(() => import("./seller/products/products-screen"), "ProductsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/products/new", component: lazyRouteComponent(() => import("./seller/products/new-product-screen"), "NewProductScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/products/$productId", component: lazyRouteComponent(() => import("./seller/products/product-screen"), "ProductScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/benefits", component: lazyRouteComponent(() => import("./seller/benefits/benefits-screen"), "BenefitsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/benefits/new", component: lazyRouteComponent(() => import("./seller/benefits/benefit-form-screen"), "NewBenefitScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/benefits/$id", component: lazyRouteComponent(() => import("./seller/benefits/benefit-form-screen"), "EditBenefitScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/custom-fields", component: lazyRouteComponent(() => import("./seller/custom-fields/custom-fields-screen"), "CustomFieldsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/custom-fields/new", component: lazyRouteComponent(() => import("./seller/custom-fields/custom-field-form-screen"), "NewCustomFieldScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/custom-fields/$id", component: lazyRouteComponent(() => import("./seller/custom-fields/custom-field-form-screen"), "EditCustomFieldScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/discounts", component: lazyRouteComponent(() => import("./seller/discounts/discounts-screen"), "DiscountsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/discounts/new", component: lazyRouteComponent(() => import("./seller/discounts/discount-form-screen"), "NewDiscountScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/discounts/$id", component: lazyRouteComponent(() => import("./seller/discounts/discount-form-screen"), "EditDiscountScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/checkout-links", component: lazyRouteComponent(() => import("./seller/checkout-links/checkout-links-screen"), "CheckoutLinksScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/checkout-links/new", component: lazyRouteComponent(() => import("./seller/checkout-links/new-checkout-link-screen"), "NewCheckoutLinkScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/webhooks", component: lazyRouteComponent(() => import("./seller/webhooks/endpoints-screen"), "WebhookEndpointsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/webhooks/$endpointId", component: lazyRouteComponent(() => import("./seller/webhooks/endpoint-screen"), "WebhookEndpointScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/subscriptions", component: lazyRouteComponent(() => import("./seller/subscriptions/subscriptions-screen"), "SubscriptionsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/subscriptions/$id", component: lazyRouteComponent(() => import("./seller/subscriptions/subscription-screen"), "SubscriptionScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/license-keys", component: lazyRouteComponent(() => import("./seller/license-keys/license-keys-screen"), "LicenseKeysScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/license-keys/$id", component: lazyRouteComponent(() => import("./seller/license-keys/license-key-screen"), "LicenseKeyScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/access-tokens", component: lazyRouteComponent(() => import("./seller/access-tokens/access-tokens-screen"), "AccessTokensScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/set-aside-work", component: lazyRouteComponent(() => import("./seller/set-aside-work/set-aside-work-screen"), "SetAsideWorkScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/settings", component: lazyRouteComponent(() => import("./seller/settings/settings-screen"), "SettingsScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/customers", component: lazyRouteComponent(() => import("./seller/customers/customers-screen"), "CustomersScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/customers/$customerId", component: lazyRouteComponent(() => import("./seller/customers/customer-screen"), "CustomerScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/orders", component: lazyRouteComponent(() => import("./seller/orders/orders-screen"), "OrdersScreen") }),
  createRoute({ getParentRoute: () => sellerSpace, path: "/orders/$orderId", component: lazyRouteComponent(() => import("./seller/orders/order-screen"), "OrderScreen") }),
];
// The development mailbox is left out of production images (VITE_DEV_MAILBOX=false): the build drops the import.
const mailbox = createRoute({
  getParentRoute: () => rootRoute,
  path: "/dev/mailbox",
  // Written out rather than HAS_DEV_MAILBOX, so the bundler sees the constant and drops the import.
  component: import.meta.env.VITE_DEV_MAILBOX !== "false" ? lazyRouteComponent(() => import("./dev/mailbox"), "MailboxScreen") : NotFound,
});

export const router = createRouter({ routeTree: rootRoute.addChildren([...routes, sellerSpace.addChildren(sellerRoutes), mailbox]) });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    buyerPage?: boolean;
  }
}
